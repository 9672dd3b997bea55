#!/usr/bin/env python3
"""Writes the Collada fixtures (one feature per file) and fail-cases beside this file.
The outputs are committed; run again only to change them:  python3 Tests/Fixtures/collada/make_fixtures.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FAIL = os.path.join(HERE, "fail-case")
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "Scripts", "lib"))
from assetc_files import write_png  # noqa: E402
from dae_builder import Dae, geometry  # noqa: E402


def write(name, text, folder=HERE):
    with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
        f.write(text)


QUAD = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]


def main():
    os.makedirs(os.path.join(HERE, "textures"), exist_ok=True)
    os.makedirs(FAIL, exist_ok=True)
    write_png(os.path.join(HERE, "textures", "bricks 01.png"), 8, 8,
              lambda x, y: (180, 60, 40) if (x + (y // 4) * 2) % 4 else (220, 210, 200))
    write_png(os.path.join(HERE, "textures", "grid.png"), 4, 4, lambda x, y: (255, 255, 255) if (x + y) % 2 else (0, 0, 0))

    # Triangles sharing one offset for position and normal.
    d = Dae()
    d.geometries.append(geometry("tri", positions=[0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4], normals=[0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1],
                                 primitives=[("triangles", None, [("VERTEX", 0), ("NORMAL", 0)], [0, 1, 2, 0, 2, 3], None)]))
    d.scene_nodes.append('<node id="n" name="Tri"><instance_geometry url="#tri"/></node>')
    write("minimal_triangles.dae", d.text())

    # Polylist: quad, pentagon and a concave hexagon; separate offsets for position, normal, texcoord.
    d = Dae()
    pos = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0,
           2, 0, 0, 3, 0, 0, 3.5, 1, 0, 2.5, 2, 0, 1.5, 1, 0,
           4, 0, 0, 6, 0, 0, 6, 1, 0, 5, 1, 0, 5, 2, 0, 4, 2, 0]
    p = []
    for i in range(15):
        p += [i, 0, i % 4]
    d.geometries.append(geometry("ngons", positions=pos, normals=[0, 0, 1], texcoords=[0, 0, 1, 0, 1, 1, 0, 1],
                                 primitives=[("polylist", None, [("VERTEX", 0), ("NORMAL", 1), ("TEXCOORD", 2, 0)], p, [4, 5, 6])]))
    d.scene_nodes.append('<node id="n" name="Ngons"><instance_geometry url="#ngons"/></node>')
    write("polylist_ngons.dae", d.text())

    # Polygons, one with a hole (<ph>): the outer ring is kept with a warning.
    d = Dae()
    pos = QUAD + [0.25, 0.25, 0, 0.75, 0.25, 0, 0.75, 0.75, 0, 0.25, 0.75, 0, 2, 0, 0, 3, 0, 0, 2.5, 1, 0]
    d.geometries.append(geometry("holed", positions=pos, primitives=[
        ("polygons", None, [("VERTEX", 0)], None, None,
         '<p>8 9 10</p><ph><p>0 1 2 3</p><h>7 6 5 4</h></ph>')]))
    d.scene_nodes.append('<node id="n" name="Holed"><instance_geometry url="#holed"/></node>')
    write("polygons_holes.dae", d.text())

    # Triangle strips and fans.
    d = Dae()
    pos = [0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 2, 0, 0, 2, 1, 0, 5, 0, 0, 6, 0, 0, 6, 1, 0, 5, 1, 0, 4, 1, 0]
    d.geometries.append(geometry("strips", positions=pos, primitives=[
        ("tristrips", None, [("VERTEX", 0)], None, None, "<p>0 1 2 3 4 5</p>"),
        ("trifans", None, [("VERTEX", 0)], None, None, "<p>6 7 8 9 10</p>")]))
    d.scene_nodes.append('<node id="n" name="Strips"><instance_geometry url="#strips"/></node>')
    write("tristrips_trifans.dae", d.text())

    # Lines next to triangles in one geometry: a mesh and a two-point curve, the curve's far end a
    # point no face uses.
    d = Dae()
    d.geometries.append(geometry("mixed", positions=QUAD + [5, 5, 5], primitives=[
        ("triangles", None, [("VERTEX", 0)], [0, 1, 2], None),
        ("lines", None, [("VERTEX", 0)], [0, 4], None)]))
    d.scene_nodes.append('<node id="n" name="Mixed"><instance_geometry url="#mixed"/></node>')
    write("lines_beside_triangles.dae", d.text())

    # Nested nodes with every plain transform, applied in document order.
    d = Dae()
    d.geometries.append(geometry("quad", positions=QUAD, primitives=[("polylist", None, [("VERTEX", 0)], [0, 1, 2, 3], [4])]))
    d.scene_nodes.append('''<node id="outer" name="Outer">
        <translate sid="t">10 0 0</translate>
        <rotate sid="r">0 0 2 90</rotate>
        <scale sid="s">2 2 2</scale>
        <instance_geometry url="#quad"/>
        <node id="inner" name="Inner">
          <matrix sid="m">1 0 0 5  0 1 0 0  0 0 1 -3  0 0 0 1</matrix>
          <rotate>1 0 0 45</rotate>
          <instance_geometry url="#quad"/>
        </node>
      </node>''')
    write("transforms.dae", d.text())

    # lookat and skew, checked against hand-computed values (pycollada gets both wrong).
    d = Dae()
    d.geometries.append(geometry("quad", positions=QUAD, primitives=[("polylist", None, [("VERTEX", 0)], [0, 1, 2, 3], [4])]))
    d.scene_nodes.append('''<node id="aimed" name="Aimed"><lookat>0 0 5  0 0 0  0 1 0</lookat><instance_geometry url="#quad"/></node>
      <node id="sheared" name="Sheared"><translate>0 10 0</translate><skew>45 0 1 0  1 0 0</skew><instance_geometry url="#quad"/></node>''')
    write("lookat_skew.dae", d.text())

    # Two materials on two primitives, two texcoord sets, vertex colours, textures through
    # sampler2D -> surface -> image with a URL-encoded path, phong with transparency.
    d = Dae()
    pos = QUAD + [2, 0, 0, 3, 0, 0, 3, 1, 0, 2, 1, 0]
    d.geometries.append(geometry("wall", positions=pos, texcoords=[0, 0, 1, 0, 1, 1, 0, 1], texcoords2=[0, 0, 2, 0, 2, 2, 0, 2],
                                 colors=[1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1],
                                 primitives=[
                                     ("polylist", "brickSymbol", [("VERTEX", 0), ("TEXCOORD", 1, 0), ("TEXCOORD", 1, 1), ("COLOR", 1, 0)],
                                      [0, 0, 1, 1, 2, 2, 3, 3], [4]),
                                     ("triangles", "glassSymbol", [("VERTEX", 0), ("TEXCOORD", 1, 0), ("TEXCOORD", 1, 1), ("COLOR", 1, 0)],
                                      [4, 0, 5, 1, 6, 2, 4, 0, 6, 2, 7, 3], None)]))
    d.images.append('<image id="bricks-img" name="bricks"><init_from>textures/bricks%2001.png</init_from></image>')
    d.effects.append('''<effect id="brick-fx"><profile_COMMON>
        <newparam sid="bricks-surface"><surface type="2D"><init_from>bricks-img</init_from></surface></newparam>
        <newparam sid="bricks-sampler"><sampler2D><source>bricks-surface</source></sampler2D></newparam>
        <technique sid="common"><lambert>
          <diffuse><texture texture="bricks-sampler" texcoord="UVA"/></diffuse>
        </lambert></technique></profile_COMMON></effect>''')
    d.effects.append('''<effect id="glass-fx"><profile_COMMON><technique sid="common"><phong>
          <emission><color>0 0 0.1 1</color></emission>
          <diffuse><color>0.2 0.4 0.8 1</color></diffuse>
          <specular><color>1 1 1 1</color></specular>
          <shininess><float>50</float></shininess>
          <transparent opaque="A_ONE"><color>1 1 1 0.5</color></transparent>
          <transparency><float>0.8</float></transparency>
        </phong></technique></profile_COMMON></effect>''')
    d.materials.append('<material id="brick-mat" name="Brick"><instance_effect url="#brick-fx"/></material>')
    d.materials.append('<material id="glass-mat" name="Glass"><instance_effect url="#glass-fx"/></material>')
    d.scene_nodes.append('''<node id="wall" name="Wall"><instance_geometry url="#wall"><bind_material><technique_common>
          <instance_material symbol="brickSymbol" target="#brick-mat"><bind_vertex_input semantic="UVA" input_semantic="TEXCOORD" input_set="1"/></instance_material>
          <instance_material symbol="glassSymbol" target="#glass-mat"/>
        </technique_common></bind_material></instance_geometry></node>''')
    write("materials_textures.dae", d.text())

    # library_nodes instanced twice.
    d = Dae()
    d.geometries.append(geometry("quad", positions=QUAD, primitives=[("polylist", None, [("VERTEX", 0)], [0, 1, 2, 3], [4])]))
    d.library_nodes.append('<node id="tile" name="Tile"><scale>2 2 1</scale><instance_geometry url="#quad"/></node>')
    d.scene_nodes.append('''<node id="a" name="A"><instance_node url="#tile"/></node>
      <node id="b" name="B"><translate>0 0 7</translate><instance_node url="#tile"/></node>''')
    write("instance_nodes.dae", d.text())

    # A skin: the bind pose is the source geometry under the bind shape matrix.
    d = Dae()
    d.geometries.append(geometry("body", positions=QUAD, primitives=[("polylist", None, [("VERTEX", 0)], [0, 1, 2, 3], [4])]))
    d.extra_libraries.append('''<library_controllers><controller id="skin" name="Skin"><skin source="#body">
        <bind_shape_matrix>1 0 0 0  0 1 0 0  0 0 1 3  0 0 0 1</bind_shape_matrix>
        <source id="joints"><Name_array id="joints-array" count="1">Root</Name_array>
          <technique_common><accessor source="#joints-array" count="1" stride="1"><param name="JOINT" type="name"/></accessor></technique_common></source>
        <source id="inverse-binds"><float_array id="inverse-binds-array" count="16">1 0 0 0  0 1 0 0  0 0 1 0  0 0 0 1</float_array>
          <technique_common><accessor source="#inverse-binds-array" count="1" stride="16"><param name="TRANSFORM" type="float4x4"/></accessor></technique_common></source>
        <source id="weights"><float_array id="weights-array" count="1">1</float_array>
          <technique_common><accessor source="#weights-array" count="1" stride="1"><param name="WEIGHT" type="float"/></accessor></technique_common></source>
        <joints><input semantic="JOINT" source="#joints"/><input semantic="INV_BIND_MATRIX" source="#inverse-binds"/></joints>
        <vertex_weights count="4"><input semantic="JOINT" source="#joints" offset="0"/><input semantic="WEIGHT" source="#weights" offset="1"/>
          <vcount>1 1 1 1</vcount><v>0 0 0 0 0 0 0 0</v></vertex_weights>
      </skin></controller></library_controllers>''')
    d.scene_nodes.append('''<node id="root" name="Root" type="JOINT"/>
      <node id="skinned" name="Skinned"><instance_controller url="#skin"><skeleton>#root</skeleton></instance_controller></node>''')
    write("skin_bind_pose.dae", d.text())

    # A camera and two lights.
    d = Dae()
    d.geometries.append(geometry("quad", positions=QUAD, primitives=[("polylist", None, [("VERTEX", 0)], [0, 1, 2, 3], [4])]))
    d.extra_libraries.append('''<library_cameras><camera id="cam" name="Camera"><optics><technique_common>
        <perspective><yfov>45</yfov><aspect_ratio>1.5</aspect_ratio><znear>0.1</znear><zfar>100</zfar></perspective>
      </technique_common></optics></camera></library_cameras>
      <library_lights><light id="sun" name="Sun"><technique_common><directional><color>1 0.9 0.8</color></directional></technique_common></light>
      <light id="fill" name="Fill"><technique_common><point><color>0.2 0.2 0.2</color></point></technique_common></light></library_lights>''')
    d.scene_nodes.append('''<node id="q" name="Quad"><instance_geometry url="#quad"/></node>
      <node id="c" name="CameraNode"><lookat>3 3 3  0 0 0  0 1 0</lookat><instance_camera url="#cam"/></node>
      <node id="s" name="SunNode"><rotate>1 0 0 -60</rotate><instance_light url="#sun"/></node>
      <node id="f" name="FillNode"><translate>0 5 0</translate><instance_light url="#fill"/></node>''')
    write("camera_light.dae", d.text())

    # Z up, inches.
    d = Dae(up="Z_UP", meter="0.0254", unit="inch")
    d.geometries.append(geometry("post", positions=[0, 0, 0, 1, 0, 0, 0, 0, 72], primitives=[("triangles", None, [("VERTEX", 0)], [0, 1, 2], None)]))
    d.scene_nodes.append('<node id="p" name="Post"><instance_geometry url="#post"/></node>')
    write("zup_inches.dae", d.text())

    # Accessor with stride 4, an offset and an unnamed (skipped) param.
    d = Dae()
    d.geometries.append('''<geometry id="strided" name="Strided"><mesh>
        <source id="strided-pos"><float_array id="strided-arr" count="14">99 99 0 0 0 -1 1 0 0 -1 0 1 0 -1</float_array>
          <technique_common><accessor source="#strided-arr" count="3" stride="4" offset="2">
            <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/><param type="float"/>
          </accessor></technique_common></source>
        <vertices id="strided-vtx"><input semantic="POSITION" source="#strided-pos"/></vertices>
        <triangles count="1"><input semantic="VERTEX" source="#strided-vtx" offset="0"/><p>0 1 2</p></triangles>
      </mesh></geometry>''')
    d.scene_nodes.append('<node id="s" name="Strided"><instance_geometry url="#strided"/></node>')
    write("accessor_stride.dae", d.text())

    fail_cases()


def fail_cases():
    good = open(os.path.join(HERE, "minimal_triangles.dae"), encoding="utf-8").read()
    write("truncated.dae", good[: len(good) * 2 // 3], FAIL)
    write("xxe.dae", '<?xml version="1.0"?>\n<!DOCTYPE COLLADA [\n  <!ENTITY secret SYSTEM "file:///etc/passwd">\n]>\n'
          '<COLLADA version="1.4.1"><asset><contributor><author>&secret;</author></contributor></asset></COLLADA>\n', FAIL)
    lol = '<!ENTITY lol "lol">\n' + "".join(f'  <!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">\n' for i in range(1, 10))
    write("billion_laughs.dae", f'<?xml version="1.0"?>\n<!DOCTYPE COLLADA [\n  {lol}]>\n<COLLADA version="1.4.1"><asset><title>&lol9;</title></asset></COLLADA>\n', FAIL)
    write("index_out_of_range.dae", good.replace("<p>0 1 2 0 2 3</p>", "<p>0 1 2 0 2 9</p>"), FAIL)
    write("count_larger_than_data.dae", good.replace('accessor source="#tri-positions-array" count="4"', 'accessor source="#tri-positions-array" count="400"'), FAIL)
    write("not_collada.dae", '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>\n', FAIL)
    with open(os.path.join(FAIL, "utf16.dae"), "wb") as f:
        f.write(good.replace('encoding="utf-8"', 'encoding="UTF-16"').encode("utf-16"))
    cycle = Dae()
    cycle.geometries.append(geometry("quad", positions=QUAD, primitives=[("polylist", None, [("VERTEX", 0)], [0, 1, 2, 3], [4])]))
    cycle.library_nodes.append('<node id="ping" name="Ping"><instance_geometry url="#quad"/><instance_node url="#pong"/></node>')
    cycle.library_nodes.append('<node id="pong" name="Pong"><translate>1 0 0</translate><instance_node url="#ping"/></node>')
    cycle.scene_nodes.append('<node id="top" name="Top"><instance_node url="#ping"/></node>')
    write("instance_node_cycle.dae", cycle.text(), FAIL)
    depth = 20000
    write("deep_nesting.dae", '<?xml version="1.0"?>\n<COLLADA version="1.4.1"><library_visual_scenes><visual_scene id="s">'
          + "".join(f'<node id="n{i}">' for i in range(depth)) + "</node>" * depth
          + '</visual_scene></library_visual_scenes></COLLADA>\n', FAIL)
    write("nan_positions.dae", good.replace("0 0 0 2 0 0 0 3 0 0 0 4", "0 0 0 NaN 0 0 0 3 0 0 0 4"), FAIL)
    write("unresolved_reference.dae", good.replace('<instance_geometry url="#tri"/>', '<instance_geometry url="#missing"/>'), FAIL)
    write("bad_number.dae", good.replace("0 0 0 2 0 0 0 3 0 0 0 4", "0 0 0 2 0 0 0 3x 0 0 0 4"), FAIL)
    # Sizes whose products overflow 64 bits: each must be a warning, never an arithmetic trap.
    positions = 'accessor source="#tri-positions-array" count="4" stride="3"'
    write("accessor_huge_stride.dae", good.replace(positions, 'accessor source="#tri-positions-array" count="4" stride="4611686018427387904"'), FAIL)
    write("accessor_huge_offset.dae", good.replace(positions, 'accessor source="#tri-positions-array" count="4" stride="3" offset="9223372036854775807"'), FAIL)
    write("accessor_huge_count.dae", good.replace(positions, 'accessor source="#tri-positions-array" count="4611686018427387904" stride="3"'), FAIL)
    write("input_huge_offset.dae", good.replace('<input semantic="NORMAL" source="#tri-normals" offset="0"/>',
                                                '<input semantic="NORMAL" source="#tri-normals" offset="9223372036854775807"/>'), FAIL)


if __name__ == "__main__":
    main()

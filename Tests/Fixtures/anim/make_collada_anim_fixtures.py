#!/usr/bin/env python3
"""Writes the animated Collada fixtures beside this file, by hand, so each holds what it is named
for: a skinned arm (skin controller with Name_array joints, inverse bind matrices, a bind shape
matrix, two influences per vertex; joints animated through rotate ANGLE members with LINEAR keys,
a STEP translate, two animation clips), and a morphed, skinned sheet (a RELATIVE morph under a
skin, weights animated through `weights(i)` targets, and a BEZIER rotation).
Deterministic. Run: python3 Tests/Fixtures/anim/make_collada_anim_fixtures.py"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def floats(values):
    return " ".join(f"{v:g}" for v in values)


def source(id_, values, params, kind="float"):
    stride = len(params)
    count = len(values) // stride
    array = (f'<float_array id="{id_}-array" count="{len(values)}">{floats(values)}</float_array>' if kind == "float"
             else f'<Name_array id="{id_}-array" count="{len(values)}">{" ".join(values)}</Name_array>')
    ptype = "float" if kind == "float" else "name"
    ps = "".join(f'<param name="{p}" type="{ptype}"/>' if p else f'<param type="{ptype}"/>' for p in params)
    return (f'<source id="{id_}">{array}<technique_common><accessor source="#{id_}-array" count="{count}" stride="{stride}">{ps}'
            f'</accessor></technique_common></source>')


def box_column(length, segments, half=0.25):
    points, polys = [], []
    for s in range(segments + 1):
        x = length * s / segments
        points += [(x, -half, -half), (x, half, -half), (x, half, half), (x, -half, half)]
    for s in range(segments):
        a, b = 4 * s, 4 * (s + 1)
        for k in range(4):
            polys.append([a + k, a + (k + 1) % 4, b + (k + 1) % 4, b + k])
    last = 4 * segments
    polys += [[3, 2, 1, 0], [last, last + 1, last + 2, last + 3]]
    return points, polys


def geometry(id_, points, polys):
    flat = [c for p in points for c in p]
    return (f'<geometry id="{id_}" name="{id_}"><mesh>{source(id_ + "-positions", flat, ["X", "Y", "Z"])}'
            f'<vertices id="{id_}-vertices"><input semantic="POSITION" source="#{id_}-positions"/></vertices>'
            f'<polylist count="{len(polys)}"><input semantic="VERTEX" source="#{id_}-vertices" offset="0"/>'
            f'<vcount>{" ".join(str(len(p)) for p in polys)}</vcount><p>{" ".join(str(i) for p in polys for i in p)}</p></polylist>'
            f'</mesh></geometry>')


def translation(x, y, z):
    return [1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z, 0, 0, 0, 1]  # row-major, as Collada writes


def document(libraries, scene_nodes):
    return ('<?xml version="1.0" encoding="utf-8"?>\n'
            '<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">'
            '<asset><contributor><authoring_tool>assetc fixture writer</authoring_tool></contributor>'
            '<unit name="meter" meter="1"/><up_axis>Y_UP</up_axis></asset>'
            + libraries +
            f'<library_visual_scenes><visual_scene id="Scene">{scene_nodes}</visual_scene></library_visual_scenes>'
            '<scene><instance_visual_scene url="#Scene"/></scene></COLLADA>\n')


def animation(id_, target, times, values, params, interpolation="LINEAR", tangents=None):
    parts = source(f"{id_}-input", times, ["TIME"]) + source(f"{id_}-output", values, params)
    parts += source(f"{id_}-interpolation", [interpolation] * len(times), ["INTERPOLATION"], kind="name")
    inputs = (f'<input semantic="INPUT" source="#{id_}-input"/><input semantic="OUTPUT" source="#{id_}-output"/>'
              f'<input semantic="INTERPOLATION" source="#{id_}-interpolation"/>')
    if tangents:
        parts += source(f"{id_}-in", tangents[0], ["X", "Y"]) + source(f"{id_}-out", tangents[1], ["X", "Y"])
        inputs += f'<input semantic="IN_TANGENT" source="#{id_}-in"/><input semantic="OUT_TANGENT" source="#{id_}-out"/>'
    return (f'<animation id="{id_}">{parts}<sampler id="{id_}-sampler">{inputs}</sampler>'
            f'<channel source="#{id_}-sampler" target="{target}"/></animation>')


def skinned_arm():
    points, polys = box_column(3.0, 6)
    joints = ["Shoulder", "Elbow", "Wrist"]
    inverse_binds = [translation(-x, 0, 0) for x in (0, 1, 2)]
    weights, vcount, v = [], [], []
    for p in points:
        x = p[0]
        pair, w = ((0, 1), max(0.0, x - 0.5) * 0.5 * 2 * 0.5) if x <= 1 else (((1, 2), max(0.0, x - 1.5) * 0.5) if x <= 2 else ((1, 2), 1.0))
        vcount.append(2)
        for joint, weight in ((pair[0], 1 - w), (pair[1], w)):
            v += [joint, len(weights)]
            weights.append(weight)
    skin = (f'<controller id="ArmSkin"><skin source="#Sleeve"><bind_shape_matrix>{floats(translation(0, 0.1, 0))}</bind_shape_matrix>'
            + source("ArmSkin-joints", joints, ["JOINT"], kind="name")
            + source("ArmSkin-binds", [c for m in inverse_binds for c in m], ["TRANSFORM"])
            + source("ArmSkin-weights", weights, ["WEIGHT"])
            + '<joints><input semantic="JOINT" source="#ArmSkin-joints"/><input semantic="INV_BIND_MATRIX" source="#ArmSkin-binds"/></joints>'
            + f'<vertex_weights count="{len(points)}"><input semantic="JOINT" source="#ArmSkin-joints" offset="0"/>'
              f'<input semantic="WEIGHT" source="#ArmSkin-weights" offset="1"/><vcount>{" ".join(map(str, vcount))}</vcount>'
              f'<v>{" ".join(map(str, v))}</v></vertex_weights></skin></controller>')
    anims = (animation("Lift", "Shoulder/rotateZ.ANGLE", [0, 1, 2], [0, 20, 30], ["ANGLE"])
             + animation("Bend", "Elbow/rotateZ.ANGLE", [0, 1, 2], [0, 70, 0], ["ANGLE"])
             + animation("Hop", "Rig/translate", [0, 0.5, 1.5], [0, 0, 0, 0, 0.5, 0, 0, 0, 0], ["X", "Y", "Z"], interpolation="STEP"))
    clips = ('<library_animation_clips><animation_clip id="Wave" start="0" end="2"><instance_animation url="#Lift"/>'
             '<instance_animation url="#Bend"/></animation_clip><animation_clip id="Jump" start="0" end="1.5">'
             '<instance_animation url="#Hop"/></animation_clip></library_animation_clips>')

    def joint(name, x, child=""):
        return (f'<node id="{name}" name="{name}" sid="{name}" type="JOINT"><translate sid="translate">{x} 0 0</translate>'
                f'<rotate sid="rotateZ">0 0 1 0</rotate>{child}</node>')
    nodes = (f'<node id="Rig" name="Rig"><translate sid="translate">0 1 0</translate>'
             + joint("Shoulder", 0, joint("Elbow", 1, joint("Wrist", 1))) + '</node>'
             + '<node id="Arm" name="Arm"><instance_controller url="#ArmSkin"><skeleton>#Shoulder</skeleton></instance_controller></node>')
    text = document(f'<library_geometries>{geometry("Sleeve", points, polys)}</library_geometries>'
                    f'<library_controllers>{skin}</library_controllers><library_animations>{anims}</library_animations>{clips}', nodes)
    open(os.path.join(HERE, "skinned_arm.dae"), "w").write(text)


def rigid_skin(id_, source_id, joint, point_count):
    """A skin controller binding every point wholly to one joint, identity bind matrices."""
    return (f'<controller id="{id_}"><skin source="#{source_id}"><bind_shape_matrix>{floats(translation(0, 0, 0))}</bind_shape_matrix>'
            + source(f"{id_}-joints", [joint], ["JOINT"], kind="name")
            + source(f"{id_}-binds", translation(0, 0, 0), ["TRANSFORM"])
            + source(f"{id_}-weights", [1], ["WEIGHT"])
            + f'<joints><input semantic="JOINT" source="#{id_}-joints"/><input semantic="INV_BIND_MATRIX" source="#{id_}-binds"/></joints>'
            + f'<vertex_weights count="{point_count}"><input semantic="JOINT" source="#{id_}-joints" offset="0"/>'
              f'<input semantic="WEIGHT" source="#{id_}-weights" offset="1"/><vcount>{" ".join(["1"] * point_count)}</vcount>'
              f'<v>{" ".join(["0 0"] * point_count)}</v></vertex_weights></skin></controller>')


def morphed_sheet():
    grid = 4
    points = [(x - 1.5, y - 1.5, 0) for y in range(grid) for x in range(grid)]
    polys = [[y * grid + x, y * grid + x + 1, (y + 1) * grid + x + 1, (y + 1) * grid + x] for y in range(grid - 1) for x in range(grid - 1)]
    lift = [(0, 0, 1 if abs(p[0]) > 1 else 0) for p in points]
    pinch = [(-0.25 * p[0], 0, 0) for p in points]
    morph = ('<controller id="SheetMorph"><morph source="#Sheet" method="RELATIVE">'
             + source("SheetMorph-targets", ["Lift", "Pinch"], ["MORPH_TARGET"], kind="name").replace("Name_array", "IDREF_array")
             + source("SheetMorph-weights", [0, 0], ["MORPH_WEIGHT"])
             + '<targets><input semantic="MORPH_TARGET" source="#SheetMorph-targets"/><input semantic="MORPH_WEIGHT" source="#SheetMorph-weights"/>'
               '</targets></morph></controller>')
    skin = rigid_skin("SheetSkin", "SheetMorph", "Hinge", len(points))
    # BEZIER with 2D control points a third of the way along each span (time, angle).
    times, angles = [0, 1, 3], [0, 45, 90]
    tangents_in = [0, 0, 2 / 3, 30, 7 / 3, 90]
    tangents_out = [1 / 3, 0, 5 / 3, 60, 3, 90]
    anims = (animation("Turn", "Hinge/rotateY.ANGLE", times, angles, ["ANGLE"], interpolation="BEZIER", tangents=(tangents_in, tangents_out))
             + animation("Rise", "SheetMorph-weights(0)", [0, 1, 2], [0, 1, 0.5], [""])
             + animation("Squeeze", "SheetMorph-weights(1)", [0.5, 2.5], [0, 1], [""]))
    nodes = ('<node id="Hinge" name="Hinge" sid="Hinge" type="JOINT"><rotate sid="rotateY">0 1 0 0</rotate></node>'
             '<node id="Cloth" name="Cloth"><instance_controller url="#SheetSkin"><skeleton>#Hinge</skeleton></instance_controller></node>')
    geometries = geometry("Sheet", points, polys) + geometry("Lift", [tuple(o) for o in lift], polys) + geometry("Pinch", [tuple(o) for o in pinch], polys)
    text = document(f'<library_geometries>{geometries}</library_geometries><library_controllers>{morph}{skin}</library_controllers>'
                    f'<library_animations>{anims}</library_animations>', nodes)
    open(os.path.join(HERE, "morphed_sheet.dae"), "w").write(text)


if __name__ == "__main__":
    skinned_arm()
    morphed_sheet()

#!/usr/bin/env python3
"""Writes the sample assets in Assets/, laid out as an app that uses them keeps them, so the
catalog's ids end in the paths SceneKit code passes to `SCNScene(named:)`:

- Art.scnassets/ship.dae (with textures/planks.png): a ship as Collada, hull, deck, cabin, and a
  mast carrying a sail, two materials, Z up as Blender writes it;
- SceneKitAssetCatalog.scnassets/LoomisHead.usdz, packaged from LoomisHead/LoomisHead.usda and its
  paper texture: a Loomis-style head (cranium with flattened sides, a jaw, and the hair, brow,
  nose and centre guide lines as separate meshes) under an Xform hierarchy, with a
  UsdPreviewSurface material. Every mesh is closed and wound outward, uses every point, and has
  its extent, vertex normals and `subdivisionScheme = "none"`, so NVIDIA's asset validator
  passes it (`Tests/CrossCheck/test_sample_assets.py`);
- Assets.xcassets with a Planks image set (Contents.json and the PNG), as Xcode writes one.

Deterministic: the same bytes on every run.

    python3 Scripts/make-sample-assets.py
"""
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Scripts", "lib"))
from assetc_files import write_png, write_usdz  # noqa: E402
from dae_builder import Dae, geometry  # noqa: E402

R = 9.0          # cranium radius in centimetres
CHIN = -1.45 * R  # chin height below the cranium's centre
SIDE = 0.78 * R   # Loomis' side planes cut the ball here


def num(v):
    text = format(v, ".6g")
    return "0" if text == "-0" else text


def vec(values):
    return "(" + ", ".join(num(v) for v in values) + ")"


def array(items, per_line=4):
    rows = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[\n            " + ",\n            ".join(rows) + "\n        ]"


def cranium():
    """A closed ball with flattened sides: one point at each pole, rings of `slices` points between,
    every face wound outward; the texture seam lives in face-varying coordinates, not in the points."""
    slices, stacks = 32, 16

    def at(i, j):
        polar, azimuth = math.pi * i / stacks, 2 * math.pi * j / slices
        x = R * math.sin(polar) * math.sin(azimuth)
        return (max(-SIDE, min(SIDE, x)), R * math.cos(polar), R * math.sin(polar) * math.cos(azimuth))

    points = [at(0, 0)] + [at(i, j) for i in range(1, stacks) for j in range(slices)] + [at(stacks, 0)]

    def index(i, j):
        if i == 0:
            return 0
        if i == stacks:
            return len(points) - 1
        return 1 + (i - 1) * slices + j % slices

    def uv(i, j):
        # A pole's corner takes the middle of its face's column.
        return ((j + 0.5) / slices if i in (0, stacks) else j / slices, 1 - i / stacks)

    counts, indices, st = [], [], []
    for i in range(stacks):
        for j in range(slices):
            corners = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)]
            if i == 0:
                corners = corners[:3]
            elif i == stacks - 1:
                corners = [corners[0], corners[1], corners[3]]
            counts.append(len(corners))
            for c in corners:
                indices.append(index(*c))
                st.append(uv(c[0], c[1] if c[0] not in (0, stacks) else j))
    # Corners share their coordinates where faces meet: each value once, and an index per corner.
    values = sorted(set(st))
    number = {value: k for k, value in enumerate(values)}
    return points, counts, indices, (values, [number[value] for value in st])


def jaw():
    """Rings lofted from inside the cranium down to the chin, closed at both ends by 24-sided caps."""
    sides, rings = 24, 8
    points, counts, indices = [], [], []
    for k in range(rings):
        t = k / (rings - 1)
        y = -0.25 * R + (CHIN + 0.25 * R) * t
        half_width = 0.72 * R * (1 - 0.6 * t)
        depth = 0.78 * R * (1 - 0.5 * t)
        forward = 0.28 * R * t
        for s in range(sides):
            a = 2 * math.pi * s / sides
            points.append((half_width * math.sin(a), y, forward + depth * math.cos(a)))
    counts.append(sides)
    indices += list(range(sides))  # the top cap, facing up
    for k in range(rings - 1):
        for s in range(sides):
            n = (s + 1) % sides
            counts.append(4)
            indices += [k * sides + s, (k + 1) * sides + s, (k + 1) * sides + n, k * sides + n]
    last = (rings - 1) * sides
    counts.append(sides)
    indices += [last + s for s in reversed(range(sides))]  # the chin's cap, facing down
    return points, counts, indices


def tube(path, radius=0.12, sides=8):
    """A thin closed tube along a polyline: the guide lines drawn on the head."""
    points, counts, indices = [], [], []
    for i, p in enumerate(path):
        q = path[min(i + 1, len(path) - 1)]
        o = path[max(i - 1, 0)]
        tangent = [q[k] - o[k] for k in range(3)]
        length = math.sqrt(sum(c * c for c in tangent)) or 1
        tangent = [c / length for c in tangent]
        helper = (0, 1, 0) if abs(tangent[1]) < 0.9 else (1, 0, 0)
        u = [tangent[1] * helper[2] - tangent[2] * helper[1], tangent[2] * helper[0] - tangent[0] * helper[2],
             tangent[0] * helper[1] - tangent[1] * helper[0]]
        ul = math.sqrt(sum(c * c for c in u))
        u = [c / ul for c in u]
        v = [tangent[1] * u[2] - tangent[2] * u[1], tangent[2] * u[0] - tangent[0] * u[2], tangent[0] * u[1] - tangent[1] * u[0]]
        for s in range(sides):
            a = 2 * math.pi * s / sides
            points.append(tuple(p[k] + radius * (math.cos(a) * u[k] + math.sin(a) * v[k]) for k in range(3)))
    counts.append(sides)
    indices += list(reversed(range(sides)))  # closed at the start, facing back along the path
    for i in range(len(path) - 1):
        for s in range(sides):
            n = (s + 1) % sides
            counts.append(4)
            indices += [i * sides + s, i * sides + n, (i + 1) * sides + n, (i + 1) * sides + s]
    end = (len(path) - 1) * sides
    counts.append(sides)
    indices += [end + s for s in range(sides)]  # and at the end
    return points, counts, indices


def arc_at_height(y, half_angle_deg, lift=1.012, steps=24):
    ring = math.sqrt(max(R * R - y * y, 0))
    path = []
    for i in range(steps + 1):
        a = math.radians(-half_angle_deg + 2 * half_angle_deg * i / steps)
        x = ring * math.sin(a) * lift
        path.append((max(-SIDE * lift, min(SIDE * lift, x)), y, ring * math.cos(a) * lift))
    return path


def centre_line():
    path = []
    for i in range(21):  # over the top of the ball, from behind the crown to the brow line and below
        polar = math.radians(-25 + (25 + 112) * i / 20)
        path.append((0, R * math.cos(polar) * 1.012, R * math.sin(polar) * 1.012))
    chin_front = 0.28 * R + 0.78 * R * 0.5
    path.append((0, (path[-1][1] + CHIN) / 2, (path[-1][2] + chin_front) / 2 + 0.35))
    path.append((0, CHIN + 0.2, chin_front + 0.15))
    return path


def nose_line():
    y = -0.62 * R
    t = (y + 0.25 * R) / (CHIN + 0.25 * R)
    half_width, depth, forward = 0.72 * R * (1 - 0.6 * t), 0.78 * R * (1 - 0.5 * t), 0.28 * R * t
    return [(half_width * 1.02 * math.sin(a), y, forward + depth * 1.02 * math.cos(a))
            for a in (math.radians(-45 + 90 * i / 16) for i in range(17))]


def vertex_normals(points, counts, indices):
    """Each point's normal: the sum of its faces' area-weighted normals (Newell's method), unit length."""
    sums = [[0.0, 0.0, 0.0] for _ in points]
    start = 0
    for count in counts:
        face = indices[start:start + count]
        start += count
        n = [0.0, 0.0, 0.0]
        for k in range(count):
            p, q = points[face[k]], points[face[(k + 1) % count]]
            n[0] += (p[1] - q[1]) * (p[2] + q[2])
            n[1] += (p[2] - q[2]) * (p[0] + q[0])
            n[2] += (p[0] - q[0]) * (p[1] + q[1])
        for v in face:
            for c in range(3):
                sums[v][c] += n[c]
    out = []
    for n in sums:
        length = math.sqrt(sum(c * c for c in n)) or 1
        out.append(tuple(c / length for c in n))
    return out


def mesh_prim(name, points, counts, indices, indent, extra=""):
    """A polygonal mesh as renderers should take it: its extent, its normals, and
    `subdivisionScheme = "none"` (USD's default subdivides a mesh without normals into a smooth one)."""
    pad = " " * indent
    low = [min(p[c] for p in points) for c in range(3)]
    high = [max(p[c] for p in points) for c in range(3)]
    normals = vertex_normals(points, counts, indices)
    body = f'''{pad}def Mesh "{name}"
{pad}{{
{pad}    uniform bool doubleSided = 0
{pad}    float3[] extent = [{vec(low)}, {vec(high)}]
{pad}    int[] faceVertexCounts = {array([str(c) for c in counts], 24)}
{pad}    int[] faceVertexIndices = {array([str(i) for i in indices], 24)}
{pad}    normal3f[] normals = {array([vec(n) for n in normals])} (
{pad}        interpolation = "vertex"
{pad}    )
{pad}    point3f[] points = {array([vec(p) for p in points])}
{pad}    uniform token subdivisionScheme = "none"
{extra}{pad}}}
'''
    return body.replace("\n        ]", "\n" + pad + "    ]").replace("[\n            ", "[\n" + pad + "        ").replace(",\n            ", ",\n" + pad + "        ")


def material(name, body):
    return f'''        def Material "{name}"
        {{
            token outputs:surface.connect = </LoomisHead/Looks/{name}/Surface.outputs:surface>
{body}        }}
'''


def head_layer():
    cp, cc, ci, cst = cranium()
    jp, jc, ji = jaw()
    st_attr = f'''            texCoord2f[] primvars:st = {array([vec(t) for t in cst[0]])} (
                interpolation = "faceVarying"
            )
            int[] primvars:st:indices = {array([str(k) for k in cst[1]], 24)}
'''.replace("[\n            ", "[\n                ").replace(",\n            ", ",\n                ").replace("\n        ]", "\n            ]")
    guides = {
        "HairLine": arc_at_height(0.6 * R, 62),
        "BrowLine": arc_at_height(0.0, 70),
        "NoseLine": nose_line(),
        "CentreLine": centre_line(),
    }
    guide_prims = "\n".join(mesh_prim(name, *tube(path), 8) for name, path in guides.items())
    clay = material("Clay", '''            string inputs:frame:stPrimvarName = "st"

            def Shader "Surface"
            {
                uniform token info:id = "UsdPreviewSurface"
                color3f inputs:diffuseColor.connect = </LoomisHead/Looks/Clay/Paper.outputs:rgb>
                float inputs:roughness = 0.85
                float inputs:metallic = 0
                token outputs:surface
            }

            def Shader "Paper"
            {
                uniform token info:id = "UsdUVTexture"
                asset inputs:file = @textures/paper.png@
                float2 inputs:st.connect = </LoomisHead/Looks/Clay/StReader.outputs:result>
                token inputs:wrapS = "repeat"
                token inputs:wrapT = "repeat"
                float4 inputs:fallback = (0.86, 0.8, 0.7, 1)
                float3 outputs:rgb
            }

            def Shader "StReader"
            {
                uniform token info:id = "UsdPrimvarReader_float2"
                string inputs:varname.connect = </LoomisHead/Looks/Clay.inputs:frame:stPrimvarName>
                float2 outputs:result
            }
''')
    ink = material("Ink", '''            def Shader "Surface"
            {
                uniform token info:id = "UsdPreviewSurface"
                color3f inputs:diffuseColor = (0.55, 0.12, 0.08)
                float inputs:roughness = 0.5
                token outputs:surface
            }
''')
    return f'''#usda 1.0
(
    customLayerData = {{
        string creator = "assetc Scripts/make-sample-assets.py"
    }}
    defaultPrim = "LoomisHead"
    doc = "A Loomis-style construction head: a ball with flattened sides, a jaw, and the guide lines artists draw first."
    metersPerUnit = 0.01
    upAxis = "Y"
)

def Xform "LoomisHead" (
    kind = "component"
)
{{
    double3 xformOp:translate = (0, {num(-CHIN)}, 0)
    uniform token[] xformOpOrder = ["xformOp:translate"]

    def Xform "Skull" (
        prepend apiSchemas = ["MaterialBindingAPI"]
    )
    {{
        rel material:binding = </LoomisHead/Looks/Clay>

{mesh_prim("Cranium", cp, cc, ci, 8, st_attr)}
{mesh_prim("Jaw", jp, jc, ji, 8)}    }}

    def Xform "Guides" (
        prepend apiSchemas = ["MaterialBindingAPI"]
    )
    {{
        rel material:binding = </LoomisHead/Looks/Ink>

{guide_prims}    }}

    def Scope "Looks"
    {{
{clay}
{ink}    }}
}}
'''


def paper(x, y):
    grain = ((x * 7919 + y * 104729) % 23) - 11
    line = x % 32 == 0 or y % 32 == 0
    base = (214, 200, 176) if not line else (176, 160, 140)
    return tuple(max(0, min(255, c + grain)) for c in base)


def planks(x, y):
    board = y // 16
    seam = y % 16 == 0 or (x + board * 37) % 64 == 0
    grain = ((x * 13 + y * 7 + board * 101) % 17) - 8
    base = (120, 78, 44) if seam else (168 + board % 3 * 8, 118 + board % 2 * 6, 70)
    return tuple(max(0, min(255, c + grain)) for c in base)


def hull_section(y):
    """Half-width and depth of the hull at position y along its length (bow at +3)."""
    t = (y + 3) / 6
    width = 1.1 * (1 - max(0.0, t - 0.55) ** 2 / 0.2025) if t > 0.55 else 1.1 - 0.25 * (0.55 - t)
    return max(width, 0.0), 0.9 * (1 - 0.3 * abs(t - 0.45))


def ship():
    sections = [-3 + 6 * i / 12 for i in range(13)]
    deck_z = 0.6
    positions, uv, p, vcount = [], [], [], []
    for y in sections:
        w, d = hull_section(y)
        for k, (x, z) in enumerate([(-w, deck_z), (-0.85 * w, 0), (0, -d), (0.85 * w, 0), (w, deck_z)]):
            positions += [x, y, z]
            uv += [(y + 3) / 6 * 3, k / 4]
    ring = 5
    for i in range(len(sections) - 1):
        for k in range(ring - 1):
            a, b = i * ring + k, i * ring + k + 1
            p += [a, b, b + ring, a + ring]
            vcount.append(4)
    p += [4, 3, 2, 1, 0]  # the stern transom, one pentagon
    vcount.append(5)
    hull = geometry("hull", positions=positions, texcoords=uv,
                    primitives=[("polylist", "wood", [("VERTEX", 0), ("TEXCOORD", 0, 0)], p, vcount)], name="Hull")

    # The deck: one n-gon following the gunwale, starboard side forward then port side back.
    outline = [(hull_section(y)[0], y) for y in sections] + [(-hull_section(y)[0], y) for y in reversed(sections)]
    outline = [pt for i, pt in enumerate(outline) if i == 0 or pt != outline[i - 1]]
    deck_positions = [c for x, y in outline for c in (x, y, deck_z)]
    deck_uv = [c for x, y in outline for c in ((x + 1.1) / 2.2, (y + 3) / 6 * 3)]
    deck = geometry("deck", positions=deck_positions, texcoords=deck_uv,
                    primitives=[("polylist", "wood", [("VERTEX", 0), ("TEXCOORD", 0, 0)], list(range(len(outline))), [len(outline)])],
                    name="Deck")

    def box(gid, name, x0, x1, y0, y1, z0, z1, symbol):
        corners = [(x, y, z) for z in (z0, z1) for y in (y0, y1) for x in (x0, x1)]
        faces = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]]
        box_uv = [c for x, y, z in corners for c in ((x - x0 + y - y0) / max(x1 - x0, 0.01), (z - z0) / max(z1 - z0, 0.01))]
        return geometry(gid, positions=[c for pt in corners for c in pt], texcoords=box_uv,
                        primitives=[("polylist", symbol, [("VERTEX", 0), ("TEXCOORD", 0, 0)], [i for f in faces for i in f], [4] * 6)],
                        name=name)

    cabin = box("cabin", "Cabin", -0.6, 0.6, -2.4, -1.0, deck_z, deck_z + 0.9, "wood")
    mast = box("mast", "Mast", -0.06, 0.06, -0.06, 0.06, 0, 4.2, "wood")
    sail_positions = [0, 0.1, 0.5, 0, 0.1, 4.0, 0, 2.2, 0.9]
    sail = geometry("sail", positions=sail_positions, texcoords=[0, 0, 0, 1, 1, 0],
                    primitives=[("triangles", "canvas", [("VERTEX", 0), ("TEXCOORD", 0, 0)], [0, 2, 1], None)], name="Sail")

    d = Dae(up="Z_UP", meter="1", unit="meter", tool="assetc Scripts/make-sample-assets.py")
    d.geometries += [hull, deck, cabin, mast, sail]
    d.images.append('<image id="planks-image" name="planks"><init_from>textures/planks.png</init_from></image>')
    d.effects.append('''<effect id="wood-effect"><profile_COMMON>
        <newparam sid="planks-surface"><surface type="2D"><init_from>planks-image</init_from></surface></newparam>
        <newparam sid="planks-sampler"><sampler2D><source>planks-surface</source></sampler2D></newparam>
        <technique sid="common"><phong>
          <diffuse><texture texture="planks-sampler" texcoord="UVMap"/></diffuse>
          <specular><color>0.2 0.2 0.2 1</color></specular>
          <shininess><float>12</float></shininess>
        </phong></technique></profile_COMMON></effect>''')
    d.effects.append('''<effect id="canvas-effect"><profile_COMMON><technique sid="common"><lambert>
          <diffuse><color>0.93 0.9 0.82 1</color></diffuse>
        </lambert></technique>
        <extra><technique profile="GOOGLEEARTH"><double_sided>1</double_sided></technique></extra>
        </profile_COMMON></effect>''')
    d.materials.append('<material id="wood-material" name="Wood"><instance_effect url="#wood-effect"/></material>')
    d.materials.append('<material id="canvas-material" name="Canvas"><instance_effect url="#canvas-effect"/></material>')

    def instance(url, symbol, material):
        return (f'<instance_geometry url="#{url}"><bind_material><technique_common>'
                f'<instance_material symbol="{symbol}" target="#{material}">'
                f'<bind_vertex_input semantic="UVMap" input_semantic="TEXCOORD" input_set="0"/>'
                f'</instance_material></technique_common></bind_material></instance_geometry>')

    d.scene_nodes.append(f'''<node id="Ship" name="Ship">
        <translate sid="location">0 0 0.35</translate>
        <rotate sid="rotationZ">0 0 1 -20</rotate>
        <node id="Hull" name="Hull">{instance("hull", "wood", "wood-material")}</node>
        <node id="Deck" name="Deck">{instance("deck", "wood", "wood-material")}</node>
        <node id="Cabin" name="Cabin">{instance("cabin", "wood", "wood-material")}</node>
        <node id="Mast" name="Mast">
          <translate sid="location">0 0.4 {deck_z}</translate>
          {instance("mast", "wood", "wood-material")}
          <node id="Sail" name="Sail">{instance("sail", "canvas", "canvas-material")}</node>
        </node>
      </node>''')
    folder = os.path.join(ROOT, "Assets", "Art.scnassets")
    os.makedirs(os.path.join(folder, "textures"), exist_ok=True)
    write_png(os.path.join(folder, "textures", "planks.png"), 128, 128, planks)
    with open(os.path.join(folder, "ship.dae"), "w") as f:
        f.write(d.text())
    image_set(os.path.join(ROOT, "Assets", "Assets.xcassets"), "Planks", "planks.png",
              os.path.join(folder, "textures", "planks.png"))


def image_set(catalog, name, file_name, source):
    """An Xcode asset catalog holding one universal image set, with the Contents.json files Xcode writes."""
    info = {"info": {"author": "xcode", "version": 1}}
    folder = os.path.join(catalog, name + ".imageset")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(catalog, "Contents.json"), "w") as f:
        f.write(json.dumps(info, indent=2) + "\n")
    contents = {"images": [{"filename": file_name, "idiom": "universal", "scale": "1x"},
                           {"idiom": "universal", "scale": "2x"}, {"idiom": "universal", "scale": "3x"}], **info}
    with open(os.path.join(folder, "Contents.json"), "w") as f:
        f.write(json.dumps(contents, indent=2) + "\n")
    with open(source, "rb") as f, open(os.path.join(folder, file_name), "wb") as out:
        out.write(f.read())


def main():
    ship()
    catalog = os.path.join(ROOT, "Assets", "SceneKitAssetCatalog.scnassets")
    folder = os.path.join(catalog, "LoomisHead")
    os.makedirs(os.path.join(folder, "textures"), exist_ok=True)
    png_path = os.path.join(folder, "textures", "paper.png")
    write_png(png_path, 128, 128, paper)
    layer = head_layer()
    with open(os.path.join(folder, "LoomisHead.usda"), "w") as f:
        f.write(layer)
    with open(png_path, "rb") as f:
        png = f.read()
    write_usdz(os.path.join(catalog, "LoomisHead.usdz"),
               [("LoomisHead.usda", layer.encode()), ("textures/paper.png", png)])


if __name__ == "__main__":
    main()

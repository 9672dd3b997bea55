#!/usr/bin/env python3
"""Writes the sample assets in Assets/: a Loomis-style head (cranium with flattened sides, a jaw, and
the hair, brow, nose and centre guide lines as separate meshes) under an Xform hierarchy, with a
UsdPreviewSurface material and its paper texture, as Assets/LoomisHead/LoomisHead.usda and packaged as
Assets/LoomisHead.usdz. Deterministic: the same bytes on every run.

    python3 Scripts/make-sample-assets.py
"""
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Scripts", "lib"))
from assetc_files import write_png, write_usdz  # noqa: E402

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
    slices, stacks = 32, 16
    points, st, counts, indices = [], [], [], []
    for i in range(stacks + 1):
        polar = math.pi * i / stacks
        for j in range(slices + 1):  # one extra column so the texture seam has its own uvs
            azimuth = 2 * math.pi * j / slices
            x = R * math.sin(polar) * math.sin(azimuth)
            y = R * math.cos(polar)
            z = R * math.sin(polar) * math.cos(azimuth)
            points.append((max(-SIDE, min(SIDE, x)), y, z))
            st.append((j / slices, 1 - i / stacks))
    row = slices + 1
    for i in range(stacks):
        for j in range(slices):
            a, b, c, d = i * row + j, i * row + j + 1, (i + 1) * row + j + 1, (i + 1) * row + j
            if i == 0:
                counts.append(3); indices += [a, c, d]
            elif i == stacks - 1:
                counts.append(3); indices += [a, b, d]
            else:
                counts.append(4); indices += [a, d, c, b]
    return points, counts, indices, st


def jaw():
    """Rings lofted from inside the cranium down to the chin, closed by a 24-sided cap."""
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
    for k in range(rings - 1):
        for s in range(sides):
            n = (s + 1) % sides
            counts.append(4)
            indices += [k * sides + s, (k + 1) * sides + s, (k + 1) * sides + n, k * sides + n]
    last = (rings - 1) * sides
    counts.append(sides)
    indices += [last + s for s in range(sides)]
    return points, counts, indices


def tube(path, radius=0.12, sides=8):
    """A thin tube along a polyline: the guide lines drawn on the head."""
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
    for i in range(len(path) - 1):
        for s in range(sides):
            n = (s + 1) % sides
            counts.append(4)
            indices += [i * sides + s, i * sides + n, (i + 1) * sides + n, (i + 1) * sides + s]
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


def mesh_prim(name, points, counts, indices, indent, extra=""):
    pad = " " * indent
    body = f'''{pad}def Mesh "{name}"
{pad}{{
{pad}    uniform bool doubleSided = 0
{pad}    int[] faceVertexCounts = {array([str(c) for c in counts], 24)}
{pad}    int[] faceVertexIndices = {array([str(i) for i in indices], 24)}
{pad}    point3f[] points = {array([vec(p) for p in points])}
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
    st_attr = f'''            texCoord2f[] primvars:st = {array([vec(t) for t in cst])} (
                interpolation = "vertex"
            )
'''.replace("[\n            ", "[\n                ").replace(",\n            ", ",\n                ").replace("\n        ]", "\n            ]")
    guides = {
        "HairLine": arc_at_height(0.6 * R, 62),
        "BrowLine": arc_at_height(0.0, 70),
        "NoseLine": nose_line(),
        "CentreLine": centre_line(),
    }
    guide_prims = "\n".join(mesh_prim(name, *tube(path), 8) for name, path in guides.items())
    clay = material("Clay", '''            token inputs:frame:stPrimvarName = "st"

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
                token inputs:varname.connect = </LoomisHead/Looks/Clay.inputs:frame:stPrimvarName>
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


def main():
    folder = os.path.join(ROOT, "Assets", "LoomisHead")
    os.makedirs(os.path.join(folder, "textures"), exist_ok=True)
    png_path = os.path.join(folder, "textures", "paper.png")
    write_png(png_path, 128, 128, paper)
    layer = head_layer()
    with open(os.path.join(folder, "LoomisHead.usda"), "w") as f:
        f.write(layer)
    with open(png_path, "rb") as f:
        png = f.read()
    write_usdz(os.path.join(ROOT, "Assets", "LoomisHead.usdz"),
               [("LoomisHead.usda", layer.encode()), ("textures/paper.png", png)])


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the binary and generated USD fixtures (packages, textures, fail-cases) beside this file.

The outputs are committed; run this again only to change them:  python3 Tests/Fixtures/usd/make_fixtures.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "Scripts", "lib"))
from assetc_files import change_last_byte, patch_claimed_size, patch_crc, write_png, write_usdz  # noqa: E402

FAIL = os.path.join(HERE, "fail-case")


def checker(x, y):
    on = (x // 2 + y // 2) % 2 == 0
    return (230, 230, 230, 255) if on else (40, 40, 40, 255)


def read(name):
    with open(os.path.join(HERE, name), "rb") as f:
        return f.read()


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


PACKAGE_ROOT = b'''#usda 1.0
(
    defaultPrim = "Packaged"
    metersPerUnit = 1
    subLayers = [@layers/extra.usda@]
)

def Xform "Packaged"
{
    def "Part" (
        references = @geom/part.usda@
    )
    {
        double3 xformOp:translate = (0, 0, 2)
        uniform token[] xformOpOrder = ["xformOp:translate"]
    }
}
'''

PACKAGE_PART = b'''#usda 1.0
(
    defaultPrim = "Part"
)

def Mesh "Part" (
    prepend apiSchemas = ["MaterialBindingAPI"]
)
{
    int[] faceVertexCounts = [4]
    int[] faceVertexIndices = [0, 1, 2, 3]
    point3f[] points = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
    texCoord2f[] primvars:st = [(0, 0), (1, 0), (1, 1), (0, 1)] (
        interpolation = "vertex"
    )
    rel material:binding = </Part/Look>

    def Material "Look"
    {
        token outputs:surface.connect = </Part/Look/Surface.outputs:surface>
        def Shader "Surface"
        {
            uniform token info:id = "UsdPreviewSurface"
            color3f inputs:diffuseColor.connect = </Part/Look/Image.outputs:rgb>
            token outputs:surface
        }
        def Shader "Image"
        {
            uniform token info:id = "UsdUVTexture"
            asset inputs:file = @../textures/checker.png@
            float3 outputs:rgb
        }
    }
}
'''

PACKAGE_EXTRA = b'''#usda 1.0

def Xform "Packaged"
{
    def Mesh "FromSublayer"
    {
        int[] faceVertexCounts = [3]
        int[] faceVertexIndices = [0, 1, 2]
        point3f[] points = [(-1, 0, 0), (-2, 0, 0), (-1, -1, 0)]
    }
}
'''

NESTED_ROOT = b'''#usda 1.0
(
    defaultPrim = "Outer"
    metersPerUnit = 1
)

def "Outer" (
    references = @inner.usdz@
)
{
}
'''

INNER_ROOT = b'''#usda 1.0
(
    defaultPrim = "Inner"
)

def Mesh "Inner"
{
    int[] faceVertexCounts = [3]
    int[] faceVertexIndices = [0, 1, 2]
    point3f[] points = [(0, 0, 0), (3, 0, 0), (0, 3, 0)]
}
'''


def main():
    os.makedirs(os.path.join(HERE, "textures"), exist_ok=True)
    os.makedirs(FAIL, exist_ok=True)
    write_png(os.path.join(HERE, "textures", "checker.png"), 8, 8, checker)
    checker_png = read("textures/checker.png")

    write_usdz(os.path.join(HERE, "package.usdz"), [
        ("scene.usda", PACKAGE_ROOT),
        ("geom/part.usda", PACKAGE_PART),
        ("layers/extra.usda", PACKAGE_EXTRA),
        ("textures/checker.png", checker_png),
    ])
    inner = os.path.join(HERE, "inner.tmp.usdz")
    write_usdz(inner, [("inner.usda", INNER_ROOT)])
    inner_bytes = open(inner, "rb").read()
    os.remove(inner)
    write_usdz(os.path.join(HERE, "nested_package.usdz"), [("main.usda", NESTED_ROOT), ("inner.usdz", inner_bytes)])

    # Fail cases: each must give a non-zero exit with one located error, or exit 0 with a warning.
    minimal = read("minimal_mesh.usda")
    write(os.path.join(FAIL, "truncated.usda"), minimal[: len(minimal) * 2 // 3].decode())
    write(os.path.join(FAIL, "unclosed_string.usda"), '#usda 1.0\n(\n    doc = "never closed\n)\n')
    write(os.path.join(FAIL, "not_usda.usda"), "hello, this is not a layer\n")
    write(os.path.join(FAIL, "bad_version.usda"), "#usda 2.0\n")
    # Numbers outside the usda grammar: located errors, never an attribute silently emptied.
    for name, number in [("malformed_hex_number.usda", "0x1p3"), ("malformed_exponent.usda", "1e"), ("malformed_nan.usda", "nanx")]:
        write(os.path.join(FAIL, name), '#usda 1.0\ndef Mesh "M"\n{\n    int[] faceVertexCounts = [3]\n'
              '    int[] faceVertexIndices = [0, 1, 2]\n    point3f[] points = [(0, 0, 0), (%s, 0, 0), (0, 1, 0)]\n}\n' % number)
    depth = 20000
    write(os.path.join(FAIL, "deep_nesting.usda"),
          "#usda 1.0\n" + "".join('def Xform "n%d" {\n' % i for i in range(depth)) + "}\n" * depth)
    with open(os.path.join(FAIL, "crate_header_only.usdc"), "wb") as f:
        f.write(b"PXR-USDC" + bytes([0, 8, 0, 0, 0, 0, 0, 0]) + bytes(80))
    package = read("package.usdz")
    with open(os.path.join(FAIL, "truncated.usdz"), "wb") as f:
        f.write(package[: len(package) * 3 // 5])
    write_usdz(os.path.join(FAIL, "deflated.usdz"), [("scene.usda", minimal)], compress=True)
    write_usdz(os.path.join(FAIL, "dotdot_root.usdz"), [("../evil.usda", minimal)])
    write_usdz(os.path.join(FAIL, "absolute_entry.usdz"), [("scene.usda", minimal), ("/etc/evil.usda", minimal)])
    huge = os.path.join(FAIL, "huge_claimed_size.usdz")
    write_usdz(huge, [("scene.usda", minimal)])
    patch_claimed_size(huge, "scene.usda", 0xFFFFFFF0)
    # Damage a CRC would catch: a wrong CRC on intact bytes, and changed bytes under the old CRC.
    bad_crc = os.path.join(FAIL, "bad_crc.usdz")
    write_usdz(bad_crc, [("scene.usda", minimal)])
    patch_crc(bad_crc, "scene.usda", 0x12345678)
    changed = os.path.join(FAIL, "changed_under_crc.usdz")
    write_usdz(changed, [("scene.usda", minimal)])
    change_last_byte(changed, "scene.usda", ord(" "))
    write(os.path.join(FAIL, "refers_outside.usda"), '''#usda 1.0
(
    metersPerUnit = 1
)

def Xform "Inside"
{
    def "Escapes" (
        references = [@../outside.usda@, @/etc/passwd@]
    )
    {
    }

    def Mesh "Kept" (
        prepend apiSchemas = ["MaterialBindingAPI"]
    )
    {
        int[] faceVertexCounts = [3]
        int[] faceVertexIndices = [0, 1, 2]
        point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
        rel material:binding = </Inside/Look>
    }

    def Material "Look"
    {
        token outputs:surface.connect = </Inside/Look/Surface.outputs:surface>
        def Shader "Surface"
        {
            uniform token info:id = "UsdPreviewSurface"
            color3f inputs:diffuseColor.connect = </Inside/Look/Image.outputs:rgb>
            token outputs:surface
        }
        def Shader "Image"
        {
            uniform token info:id = "UsdUVTexture"
            asset inputs:file = @../../../../../etc/hostname@
            float3 outputs:rgb
        }
    }
}
''')
    write(os.path.join(FAIL, "bad_indices.usda"), '''#usda 1.0
(
    metersPerUnit = 1
)

def Xform "Parts"
{
    def Mesh "Good"
    {
        int[] faceVertexCounts = [3]
        int[] faceVertexIndices = [0, 1, 2]
        point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
    }

    def Mesh "Broken"
    {
        int[] faceVertexCounts = [3]
        int[] faceVertexIndices = [0, 1, 7]
        point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
    }
}
''')


if __name__ == "__main__":
    main()

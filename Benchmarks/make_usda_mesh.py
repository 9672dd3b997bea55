#!/usr/bin/env python3
"""Writes a ~1,000,000-triangle .usda for the reader benchmarks: a wavy grid of triangles with
6-decimal coordinates, the way exporters print them.

    python3 Benchmarks/make_usda_mesh.py OUT.usda [TRIANGLES] [--shape shared|export]

`shared` (the default, about 30 MB): points and topology only.
`export`: shaped like DCC exports: faceVarying normals and faceVarying `st`, each indexed
(`primvars:normals:indices`, `primvars:st:indices`) in an order of its own.
"""
import argparse
import math


def write_list(f, items):
    first = True
    for row in items:
        f.write(("" if first else ", ") + ", ".join(row))
        first = False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("triangles", nargs="?", type=int, default=1_000_000)
    parser.add_argument("--shape", choices=["shared", "export"], default="shared")
    args = parser.parse_args()
    side = int(math.sqrt(args.triangles / 2)) + 1  # quads per side; two triangles each
    n = side + 1
    count = n * n

    def corners(y):
        for x in range(side):
            a = y * n + x
            yield (a, a + 1, a + n, a + 1, a + n + 1, a + n)

    with open(args.out, "w") as f:
        f.write('#usda 1.0\n(\n    defaultPrim = "Terrain"\n    metersPerUnit = 1\n    upAxis = "Y"\n)\n\n')
        f.write('def Xform "Terrain"\n{\n    def Mesh "Grid"\n    {\n')
        f.write("        int[] faceVertexCounts = [" + ", ".join(["3"] * (side * side * 2)) + "]\n")
        f.write("        int[] faceVertexIndices = [")
        write_list(f, ([", ".join(map(str, c)) for c in corners(y)] for y in range(side)))
        f.write("]\n        point3f[] points = [")
        write_list(f, ([f"({x / side:.6f}, {0.25 * math.sin(x * 0.05) * math.cos(y * 0.07):.6f}, {y / side:.6f})"
                        for x in range(n)] for y in range(n)))
        f.write("]\n")
        if args.shape == "export":
            last = count - 1
            # Normals stored last point first; texture coordinates column-major: two index orders.
            f.write('        normal3f[] primvars:normals = [')
            write_list(f, ([f"({0.0125 * math.cos(x * 0.05) * math.cos(y * 0.07):.6f}, 0.999800, {-0.0175 * math.sin(x * 0.05) * math.sin(y * 0.07):.6f})"
                            for x in range(n - 1, -1, -1)] for y in range(n - 1, -1, -1)))
            f.write('] (\n            interpolation = "faceVarying"\n        )\n')
            f.write("        int[] primvars:normals:indices = [")
            write_list(f, ([", ".join(str(last - i) for i in c) for c in corners(y)] for y in range(side)))
            f.write("]\n")
            f.write('        texCoord2f[] primvars:st = [')
            write_list(f, ([f"({x / side:.6f}, {y / side:.6f})" for y in range(n)] for x in range(n)))
            f.write('] (\n            interpolation = "faceVarying"\n        )\n')
            f.write("        int[] primvars:st:indices = [")
            write_list(f, ([", ".join(str((i % n) * n + i // n) for i in c) for c in corners(y)] for y in range(side)))
            f.write("]\n")
        f.write("    }\n}\n")


if __name__ == "__main__":
    main()

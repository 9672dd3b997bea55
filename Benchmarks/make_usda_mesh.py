#!/usr/bin/env python3
"""Writes a ~1,000,000-triangle .usda (about 30 MB) for the reader benchmark: a wavy grid of
triangles with 6-decimal coordinates, the way exporters print them.

    python3 Benchmarks/make_usda_mesh.py OUT.usda [TRIANGLES]
"""
import math
import sys


def main():
    out = sys.argv[1]
    triangles = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    side = int(math.sqrt(triangles / 2)) + 1  # quads per side; two triangles each
    n = side + 1
    with open(out, "w") as f:
        f.write('#usda 1.0\n(\n    defaultPrim = "Terrain"\n    metersPerUnit = 1\n    upAxis = "Y"\n)\n\n')
        f.write('def Xform "Terrain"\n{\n    def Mesh "Grid"\n    {\n')
        f.write("        int[] faceVertexCounts = [" + ", ".join(["3"] * (side * side * 2)) + "]\n")
        f.write("        int[] faceVertexIndices = [")
        first = True
        for y in range(side):
            row = []
            for x in range(side):
                a = y * n + x
                row.append(f"{a}, {a + 1}, {a + n}, {a + 1}, {a + n + 1}, {a + n}")
            f.write(("" if first else ", ") + ", ".join(row))
            first = False
        f.write("]\n        point3f[] points = [")
        first = True
        for y in range(n):
            row = []
            for x in range(n):
                h = 0.25 * math.sin(x * 0.05) * math.cos(y * 0.07)
                row.append(f"({x / side:.6f}, {h:.6f}, {y / side:.6f})")
            f.write(("" if first else ", ") + ", ".join(row))
            first = False
        f.write("]\n    }\n}\n")


if __name__ == "__main__":
    main()

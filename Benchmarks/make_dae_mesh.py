#!/usr/bin/env python3
"""Writes a ~1,000,000-triangle Collada file (about 50 MB) for the reader benchmark: a wavy grid of
triangles with per-vertex normals, positions and normals sharing one index offset, floats printed
with 6 decimals the way exporters print them.

    python3 Benchmarks/make_dae_mesh.py OUT.dae [TRIANGLES]
"""
import math
import sys


def main():
    out = sys.argv[1]
    triangles = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    side = int(math.sqrt(triangles / 2)) + 1
    n = side + 1
    count = n * n
    with open(out, "w") as f:
        f.write('<?xml version="1.0" encoding="utf-8"?>\n<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">\n')
        f.write('<asset><unit name="meter" meter="1"/><up_axis>Z_UP</up_axis></asset>\n<library_geometries><geometry id="g" name="Terrain"><mesh>\n')
        f.write(f'<source id="p"><float_array id="pa" count="{3 * count}">')
        for y in range(n):
            f.write(" ".join(f"{x / side:.6f} {y / side:.6f} {0.25 * math.sin(x * 0.05) * math.cos(y * 0.07):.6f}" for x in range(n)))
            f.write("\n")
        f.write(f'</float_array><technique_common><accessor source="#pa" count="{count}" stride="3">'
                '<param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>\n')
        f.write(f'<source id="n"><float_array id="na" count="{3 * count}">')
        for y in range(n):
            f.write(" ".join(f"{-0.0125 * math.cos(x * 0.05) * math.cos(y * 0.07):.6f} {0.0175 * math.sin(x * 0.05) * math.sin(y * 0.07):.6f} 0.999800" for x in range(n)))
            f.write("\n")
        f.write(f'</float_array><technique_common><accessor source="#na" count="{count}" stride="3">'
                '<param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>\n')
        f.write('<vertices id="v"><input semantic="POSITION" source="#p"/><input semantic="NORMAL" source="#n"/></vertices>\n')
        f.write(f'<triangles count="{2 * side * side}"><input semantic="VERTEX" source="#v" offset="0"/><p>')
        for y in range(side):
            f.write(" ".join(f"{y * n + x} {y * n + x + 1} {y * n + x + n} {y * n + x + 1} {y * n + x + n + 1} {y * n + x + n}" for x in range(side)))
            f.write("\n")
        f.write('</p></triangles>\n</mesh></geometry></library_geometries>\n')
        f.write('<library_visual_scenes><visual_scene id="s"><node id="t" name="Terrain"><instance_geometry url="#g"/></node></visual_scene></library_visual_scenes>\n')
        f.write('<scene><instance_visual_scene url="#s"/></scene>\n</COLLADA>\n')


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes a ~1,000,000-triangle Collada file for the reader benchmarks: a wavy grid of triangles with
normals, floats printed with 6 decimals the way exporters print them.

    python3 Benchmarks/make_dae_mesh.py OUT.dae [TRIANGLES] [--shape shared|export]

`shared` (the default, about 50 MB): positions and normals share one index through <vertices>.
`export`: shaped like Blender, Maya and 3ds Max exports: positions, normals and texture coordinates
each have their own offset in <p>, and their arrays are in different orders, so no two attributes
share an index.
"""
import argparse
import math


def write_source(f, name, rows, count, params):
    """One <source> with its float_array (one text row per grid row) and accessor."""
    f.write(f'<source id="{name}"><float_array id="{name}a" count="{len(params) * count}">')
    for row in rows:
        f.write(row)
        f.write("\n")
    f.write(f'</float_array><technique_common><accessor source="#{name}a" count="{count}" stride="{len(params)}">'
            + "".join(f'<param name="{p}" type="float"/>' for p in params) + '</accessor></technique_common></source>\n')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("triangles", nargs="?", type=int, default=1_000_000)
    parser.add_argument("--shape", choices=["shared", "export"], default="shared")
    args = parser.parse_args()
    side = int(math.sqrt(args.triangles / 2)) + 1
    n = side + 1
    count = n * n
    export = args.shape == "export"
    with open(args.out, "w") as f:
        f.write('<?xml version="1.0" encoding="utf-8"?>\n<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">\n')
        f.write('<asset><unit name="meter" meter="1"/><up_axis>Z_UP</up_axis></asset>\n<library_geometries><geometry id="g" name="Terrain"><mesh>\n')
        write_source(f, "p", (" ".join(f"{x / side:.6f} {y / side:.6f} {0.25 * math.sin(x * 0.05) * math.cos(y * 0.07):.6f}"
                                       for x in range(n)) for y in range(n)), count, "XYZ")
        # In the export shape the normals are stored last point first, so normal index != position index.
        order = range(n - 1, -1, -1) if export else range(n)
        write_source(f, "n", (" ".join(f"{-0.0125 * math.cos(x * 0.05) * math.cos(y * 0.07):.6f} {0.0175 * math.sin(x * 0.05) * math.sin(y * 0.07):.6f} 0.999800"
                                       for x in order) for y in order), count, "XYZ")
        if export:
            # One texture coordinate per grid cell corner in column-major order: a third index order.
            write_source(f, "t", (" ".join(f"{x / side:.6f} {y / side:.6f}" for y in range(n)) for x in range(n)), count, "ST")
            f.write('<vertices id="v"><input semantic="POSITION" source="#p"/></vertices>\n')
            f.write(f'<triangles count="{2 * side * side}"><input semantic="VERTEX" source="#v" offset="0"/>'
                    '<input semantic="NORMAL" source="#n" offset="1"/><input semantic="TEXCOORD" source="#t" offset="2" set="0"/><p>')
            last = count - 1

            def corner(i):
                x, y = i % n, i // n
                return f"{i} {last - i} {x * n + y}"
            for y in range(side):
                f.write(" ".join(" ".join(corner(c) for c in (a, a + 1, a + n, a + 1, a + n + 1, a + n))
                                 for a in (y * n + x for x in range(side))))
                f.write("\n")
        else:
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

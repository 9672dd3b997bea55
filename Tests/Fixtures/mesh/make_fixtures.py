#!/usr/bin/env python3
"""Writes the OBJ, STL and PLY fixtures by hand, each holding exactly the features it is named for,
and their fail-cases. Deterministic. Run: python3 Tests/Fixtures/mesh/make_fixtures.py"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
FAIL = os.path.join(HERE, "fail-case")


def write(name, data, folder=HERE):
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(os.path.join(folder, name), mode) as f:
        f.write(data)


def obj_fixtures():
    # Two objects, n-gons, relative (negative) and absolute indices mixed, v/vt/vn and v//vn
    # corners, two materials in one object, vertex colours on the positions.
    write("groups_ngons_negative.obj", """# assetc fixture
mtllib groups.mtl
o Box
v 0 0 0 1 0 0
v 2 0 0 0 1 0
v 2 2 0 0 0 1
v 0 2 0 1 1 1
v 1 3 0 0.5 0.5 0.5
vt 0 0
vt 1 0
vt 1 1
vt 0 1
vt 0.5 1
vn 0 0 1
usemtl Red
f 1/1/1 2/2/1 3/3/1 5/5/1 4/4/1
usemtl Textured
f -5/-5/-1 -4/-4/-1 -3/-3/-1
o Floor
g FloorGroup
v -1 -1 -1 1 1 1
v 3 -1 -1 1 1 1
v 3 -1 3 1 1 1
v -1 -1 3 1 1 1
usemtl Textured
f 6//1 7//1 8//1 9//1
""")
    write("groups.mtl", """# assetc fixture
newmtl Red
Kd 1 0 0
Ns 100
d 0.5
illum 2
newmtl Textured
Kd 1 1 1
Pr 0.25
Pm 0.75
Ke 0.1 0.2 0.3
map_Kd -bm 1.0 -s 1 1 1 textures/checker.png
map_Bump -bm 2 textures/checker.png
""")
    # Triangles only, no materials, positions only: the plainest file there is.
    write("plain_triangles.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 3 4\nf 1 4 2\n")


def stl_fixtures():
    tris = [((0, 0, 1), [(0, 0, 0), (1, 0, 0), (0, 1, 0)]), ((0, 0, 1), [(1, 0, 0), (1, 1, 0), (0, 1, 0)]),
            ((1, 0, 0), [(1, 0, 0), (1, 0, 2), (1, 1, 0)])]
    text = "solid first\n"
    for n, vs in tris[:2]:
        text += "  facet normal %g %g %g\n    outer loop\n" % n + "".join("      vertex %g %g %g\n" % v for v in vs) + "    endloop\n  endfacet\n"
    text += "endsolid first\nsolid second\n"
    n, vs = tris[2]
    text += "facet normal %g %g %g\nouter loop\n" % n + "".join("vertex %.6e %.6e %.6e\n" % v for v in vs) + "endloop\nendfacet\nendsolid second\n"
    write("two_solids_ascii.stl", text)
    # A binary file whose header starts with "solid", as many exporters write it.
    header = b"solid but binary, as SolidWorks writes it".ljust(80, b" ")
    body = b"".join(struct.pack("<12fH", *n, *[c for v in vs for c in v], 0) for n, vs in tris)
    write("binary_solid_header.stl", header + struct.pack("<I", len(tris)) + body)


def ply_fixtures():
    vertices = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0.5, 1.5, 0.5)]
    colors = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (128, 128, 128)]
    faces = [[0, 1, 2, 4, 3], [0, 3, 4]]
    head = "ply\nformat {}\ncomment assetc fixture\nelement vertex 5\nproperty float x\nproperty float y\nproperty float z\n" \
           "property uchar red\nproperty uchar green\nproperty uchar blue\nproperty float s\nproperty float t\n" \
           "element face 2\nproperty list uchar int vertex_indices\nelement edge 1\nproperty int vertex1\nproperty int vertex2\nend_header\n"
    text = head.format("ascii 1.0")
    for v, c in zip(vertices, colors):
        text += "%g %g %g %d %d %d %g %g\n" % (*v, *c, v[0], v[1])
    for f in faces:
        text += "%d %s\n" % (len(f), " ".join(map(str, f)))
    text += "0 1\n"
    write("ngons_colours_ascii.ply", text)
    for endian, name in (("<", "binary_little_endian"), (">", "binary_big_endian")):
        body = b"".join(struct.pack(endian + "3f3B2f", *v, *c, v[0], v[1]) for v, c in zip(vertices, colors))
        body += b"".join(struct.pack(endian + "B%di" % len(f), len(f), *f) for f in faces)
        body += struct.pack(endian + "2i", 0, 1)
        write("ngons_colours_%s.ply" % ("le" if endian == "<" else "be"), head.format(name + " 1.0").encode() + body)


def fail_cases():
    write("obj_index_out_of_range.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n", FAIL)
    write("obj_bad_number.obj", "v 0 0 0\nv 1 zero 0\n", FAIL)
    write("stl_truncated_binary.stl", b"\0" * 80 + struct.pack("<I", 1000) + b"\0" * 50, FAIL)
    write("stl_ascii_ends_inside.stl", "solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\n", FAIL)
    write("ply_count_past_end.ply", b"ply\nformat binary_little_endian 1.0\nelement vertex 4000000000\nproperty float x\n"
          b"property float y\nproperty float z\nend_header\n" + b"\0" * 12, FAIL)
    write("ply_face_index_out_of_range.ply", "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
          "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 5\n", FAIL)
    write("ply_no_end_header.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n", FAIL)
    write("obj_mtl_outside.obj", "mtllib ../../../../../../../../../../secret.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", FAIL)


if __name__ == "__main__":
    os.makedirs(FAIL, exist_ok=True)
    obj_fixtures()
    stl_fixtures()
    ply_fixtures()
    fail_cases()

#!/usr/bin/env python3
"""Writes the compressed glTF fixtures from one source mesh, grid.obj (a bumpy 16 x 16 grid with
texture coordinates, written here): grid_meshopt.glb and grid_quantized.glb by gltfpack (meshopt
compression with KHR_mesh_quantization and KHR_texture_transform, and the same quantized without
compression), grid_draco.gltf around draco_encoder's encoding of it. The tests read each and compare
with grid.obj. Needs Debian's gltfpack and draco packages; the outputs are committed."""
import base64
import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
N = 16


def grid_obj(name="grid.obj", flip_v=False):
    """The grid; glTF's texture coordinates start at the top left, so the copy draco_encoder packs
    for glTF has V flipped (the reader flips it back)."""
    lines = ["# assetc fixture: the source of the compressed grids", "mtllib grid.mtl", "usemtl Checker"]
    for j in range(N + 1):
        for i in range(N + 1):
            lines.append("v %g %g %g" % (i / N, j / N, 0.1 * ((i * j) % 3)))
    for j in range(N + 1):
        for i in range(N + 1):
            lines.append("vt %g %g" % (i / N, 1 - j / N if flip_v else j / N))
    for j in range(N):
        for i in range(N):
            a = j * (N + 1) + i + 1
            b, c, d = a + 1, a + N + 2, a + N + 1
            lines.append("f %d/%d %d/%d %d/%d" % (a, a, b, b, c, c))
            lines.append("f %d/%d %d/%d %d/%d" % (a, a, c, c, d, d))
    path = os.path.join(HERE, name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(HERE, "grid.mtl"), "w") as f:
        f.write("newmtl Checker\nKd 1 1 1\nmap_Kd checker.png\n")  # a texture, so gltfpack keeps the coordinates
    return path


def main():
    source = grid_obj()
    subprocess.run(["gltfpack", "-i", source, "-o", os.path.join(HERE, "grid_meshopt.glb"), "-cc"], check=True)
    subprocess.run(["gltfpack", "-i", source, "-o", os.path.join(HERE, "grid_quantized.glb")], check=True)
    drc, flipped = os.path.join(HERE, "grid.drc"), grid_obj("grid_flipped.obj", flip_v=True)
    subprocess.run(["draco_encoder", "-i", flipped, "-o", drc, "-cl", "7"], check=True, capture_output=True)
    payload = open(drc, "rb").read()
    os.remove(drc)
    os.remove(flipped)
    points, triangles = (N + 1) ** 2, 2 * N * N
    doc = {
        "asset": {"version": "2.0", "generator": "assetc fixture writer (draco_encoder payload)"},
        "extensionsUsed": ["KHR_draco_mesh_compression"], "extensionsRequired": ["KHR_draco_mesh_compression"],
        "buffers": [{"byteLength": len(payload), "uri": "data:application/octet-stream;base64," + base64.b64encode(payload).decode()}],
        "bufferViews": [{"buffer": 0, "byteLength": len(payload)}],
        "accessors": [
            {"componentType": 5126, "count": points, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0.2]},
            {"componentType": 5126, "count": points, "type": "VEC2"},
            {"componentType": 5125, "count": 3 * triangles, "type": "SCALAR"},
        ],
        "meshes": [{"name": "Grid", "primitives": [{
            "attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "indices": 2,
            "extensions": {"KHR_draco_mesh_compression": {"bufferView": 0, "attributes": {"POSITION": 0, "TEXCOORD_0": 1}}}}]}],
        "nodes": [{"name": "Grid", "mesh": 0}],
        "scenes": [{"nodes": [0]}],
    }
    with open(os.path.join(HERE, "grid_draco.gltf"), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the PBR fixtures beside this script: sphere_grid.glb, two rows of five UV spheres (a
dielectric row and a metal row, roughness 0 to 1 left to right) in glTF's metal-roughness model.
Plain numpy and the GLB layout, so it runs anywhere the tests do."""
import json
import math
import os
import struct

import numpy as np


def sphere(segments=48, rings=24):
    points, normals, uvs = [], [], []
    for r in range(rings + 1):
        theta = math.pi * r / rings
        for s in range(segments + 1):
            phi = 2 * math.pi * s / segments
            n = (math.sin(theta) * math.cos(phi), math.cos(theta), -math.sin(theta) * math.sin(phi))
            points.append(n)
            normals.append(n)
            uvs.append((s / segments, r / rings))
    indices = []
    row = segments + 1
    for r in range(rings):
        for s in range(segments):
            a, b = r * row + s, (r + 1) * row + s
            indices += [a, b, b + 1, a, b + 1, a + 1]
    return np.array(points, np.float32), np.array(normals, np.float32), np.array(uvs, np.float32), np.array(indices, np.uint16)


def glb(path, nodes, meshes, materials, blobs):
    """blobs: list of (bytes, target, componentType, type, count, min, max) appended as accessors."""
    binary = b""
    views, accessors = [], []
    for data, target, ctype, atype, count, lo, hi in blobs:
        while len(binary) % 4:
            binary += b"\0"
        view = {"buffer": 0, "byteOffset": len(binary), "byteLength": len(data), "target": target}
        views.append(view)
        accessor = {"bufferView": len(views) - 1, "componentType": ctype, "type": atype, "count": count}
        if lo is not None:
            accessor["min"], accessor["max"] = lo, hi
        accessors.append(accessor)
        binary += data
    while len(binary) % 4:
        binary += b"\0"
    document = {"asset": {"version": "2.0", "generator": "assetc make_pbr_fixtures.py"}, "scene": 0,
                "scenes": [{"nodes": list(range(len(nodes)))}], "nodes": nodes, "meshes": meshes, "materials": materials,
                "buffers": [{"byteLength": len(binary)}], "bufferViews": views, "accessors": accessors}
    text = json.dumps(document, separators=(",", ":")).encode()
    while len(text) % 4:
        text += b" "
    with open(path, "wb") as f:
        f.write(struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + 8 + len(binary)))
        f.write(struct.pack("<II", len(text), 0x4E4F534A) + text)
        f.write(struct.pack("<II", len(binary), 0x004E4942) + binary)


def sphere_grid(path):
    points, normals, uvs, indices = sphere()
    blobs = [(points.tobytes(), 34962, 5126, "VEC3", len(points), points.min(0).tolist(), points.max(0).tolist()),
             (normals.tobytes(), 34962, 5126, "VEC3", len(normals), None, None),
             (uvs.tobytes(), 34962, 5126, "VEC2", len(uvs), None, None),
             (indices.tobytes(), 34963, 5123, "SCALAR", len(indices), None, None)]
    materials, meshes, nodes = [], [], []
    for row, metallic in enumerate([0.0, 1.0]):
        for column in range(5):
            roughness = column / 4
            materials.append({"name": f"m{metallic:g}_r{roughness:g}",
                              "pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.3, 0.1, 1] if metallic == 0 else [0.95, 0.8, 0.5, 1],
                                                       "metallicFactor": metallic, "roughnessFactor": roughness}})
            meshes.append({"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 3,
                                           "material": len(materials) - 1}]})
            nodes.append({"mesh": len(meshes) - 1, "translation": [column * 2.2 - 4.4, 1.1 - row * 2.2, 0]})
    glb(path, nodes, meshes, materials, blobs)


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    sphere_grid(os.path.join(here, "sphere_grid.glb"))

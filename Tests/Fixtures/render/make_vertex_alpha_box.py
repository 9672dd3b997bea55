#!/usr/bin/env python3
"""Writes vertex_alpha_box.glb with pygltflib: a cube whose COLOR_0 is VEC4 float with alpha near 0
on most corners, under a white OPAQUE material, the form of glTF-Transform's BoxVertexColors.glb.
Under OPAQUE the alpha is ignored and the colours are drawn. Deterministic.
Run from anywhere: python3 Tests/Fixtures/render/make_vertex_alpha_box.py"""
import os

import numpy as np
import pygltflib as g

HERE = os.path.dirname(os.path.abspath(__file__))


def cube():
    points, normals, colors, indices = [], [], [], []
    for axis in range(3):
        for sign in (1, -1):
            n = np.zeros(3)
            n[axis] = sign
            u, v = np.eye(3)[(axis + 1) % 3], np.eye(3)[(axis + 2) % 3]
            if sign < 0:
                u, v = v, u
            base = len(points)
            for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                p = 0.5 * (n + a * u + b * v)
                points.append(p)
                normals.append(n)
                # Each corner's colour from its position; alpha 0 except on the top face's corners.
                colors.append([p[0] + 0.5, p[1] + 0.5, p[2] + 0.5, 1.0 if (axis == 1 and sign > 0) else 0.02])
            indices += [base, base + 1, base + 2, base, base + 2, base + 3]
    return (np.array(points, np.float32), np.array(normals, np.float32), np.array(colors, np.float32), np.array(indices, np.uint16))


def main():
    points, normals, colors, indices = cube()
    blob = b""
    views, accessors = [], []
    for array, kind, component, target in ((points, "VEC3", g.FLOAT, g.ARRAY_BUFFER), (normals, "VEC3", g.FLOAT, g.ARRAY_BUFFER),
                                           (colors, "VEC4", g.FLOAT, g.ARRAY_BUFFER), (indices, "SCALAR", g.UNSIGNED_SHORT, g.ELEMENT_ARRAY_BUFFER)):
        data = array.tobytes()
        views.append(g.BufferView(buffer=0, byteOffset=len(blob), byteLength=len(data), target=target))
        accessor = g.Accessor(bufferView=len(views) - 1, componentType=component, count=len(array), type=kind)
        if array is points:
            accessor.min, accessor.max = points.min(0).tolist(), points.max(0).tolist()
        accessors.append(accessor)
        blob += data + b"\0" * (-len(data) % 4)
    turn = np.array([0.25, 0.35, 0.05, 0.9])
    gltf = g.GLTF2(
        asset=g.Asset(version="2.0", generator="pygltflib (assetc fixture)"),
        scene=0, scenes=[g.Scene(nodes=[0])],
        nodes=[g.Node(name="Box", mesh=0, rotation=(turn / np.linalg.norm(turn)).tolist())],
        meshes=[g.Mesh(name="Box", primitives=[g.Primitive(attributes=g.Attributes(POSITION=0, NORMAL=1, COLOR_0=2), indices=3, material=0)])],
        materials=[g.Material(name="White", alphaMode="OPAQUE",
                              pbrMetallicRoughness=g.PbrMetallicRoughness(baseColorFactor=[1, 1, 1, 1], metallicFactor=0, roughnessFactor=0.5))],
        accessors=accessors, bufferViews=views, buffers=[g.Buffer(byteLength=len(blob))])
    gltf.set_binary_blob(blob)
    gltf.save_binary(os.path.join(HERE, "vertex_alpha_box.glb"))


if __name__ == "__main__":
    main()

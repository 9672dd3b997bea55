#!/usr/bin/env python3
"""Writes the animated glTF fixtures beside this file, with the glTF fixture writer's Asset class:
a two-joint skinned strip (Khronos' SimpleSkin shape), a cube with two clips over translation,
rotation and scale (LINEAR, STEP, CUBICSPLINE), and a quad with two morph targets (one sparse)
whose weights are animated. Deterministic. Run: python3 Tests/Fixtures/anim/make_gltf_anim_fixtures.py"""
import math
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "gltf"))
import make_fixtures  # noqa: E402
from make_fixtures import Asset  # noqa: E402

make_fixtures.HERE = HERE  # Asset writes beside the module's HERE; these belong here


def matrices(a, mats):
    view = a.view(struct.pack("<%df" % (16 * len(mats)), *[x for m in mats for x in m]))
    return a.accessor(view, 5126, len(mats), "MAT4")


def translation_matrix(x, y, z):
    return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]


def z_rotation(degrees):
    h = math.radians(degrees) / 2
    return [0, 0, math.sin(h), math.cos(h)]


def simple_skin():
    a = Asset()
    points, indices, joints, weights = [], [], [], []
    rows = 5
    for r in range(rows):
        y = r * 0.5
        points += [-0.5, y, 0, 0.5, y, 0]
        w = min(1.0, max(0.0, (y - 0.5) / 1.0))
        for _ in range(2):
            joints += [0, 1, 0, 0]
            weights += [1 - w, w, 0, 0]
    for r in range(rows - 1):
        b = 2 * r
        indices += [b, b + 1, b + 3, b, b + 3, b + 2]
    pos = a.floats(points, "VEC3")
    jnt = a.accessor(a.view(bytes(joints)), 5121, len(joints) // 4, "VEC4")
    wgt = a.floats(weights, "VEC4")
    idx = a.accessor(a.view(struct.pack("<%dH" % len(indices), *indices) + b"\0" * (len(indices) % 2 * 2)), 5123, len(indices), "SCALAR")
    a.add("meshes", {"name": "Strip", "primitives": [{"attributes": {"POSITION": pos, "JOINTS_0": jnt, "WEIGHTS_0": wgt}, "indices": idx}]})
    ibm = matrices(a, [translation_matrix(0, 0, 0), translation_matrix(0, -1, 0)])
    a.add("nodes", {"name": "Strip", "mesh": 0, "skin": 0})
    a.add("nodes", {"name": "Root", "children": [2], "translation": [0, 0, 0]})
    a.add("nodes", {"name": "Bend", "translation": [0, 1, 0]})
    a.add("skins", {"name": "Rig", "inverseBindMatrices": ibm, "joints": [1, 2]})
    times = a.floats([0, 1, 2, 3], "SCALAR")
    rotations = a.floats(z_rotation(0) + z_rotation(60) + z_rotation(0) + z_rotation(-60), "VEC4")
    a.add("animations", {"name": "Bend", "samplers": [{"input": times, "output": rotations}],
                         "channels": [{"sampler": 0, "target": {"node": 2, "path": "rotation"}}]})
    a.doc["scenes"] = [{"nodes": [0, 1]}]
    a.doc["scene"] = 0
    a.write_gltf("simple_skin.gltf")


def animated_cube():
    a = Asset()
    c = [-0.5, 0.5]
    points = [x for z in c for y in c for x_ in c for x in (x_, y, z)]
    faces = [0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5]
    pos = a.floats(points, "VEC3")
    idx = a.accessor(a.view(bytes(faces)), 5121, len(faces), "SCALAR")
    a.add("meshes", {"name": "Cube", "primitives": [{"attributes": {"POSITION": pos}, "indices": idx}]})
    a.add("nodes", {"name": "Cube", "mesh": 0})
    a.add("nodes", {"name": "Pivot", "children": [0]})
    move_t = a.floats([0, 1, 2], "SCALAR")
    move_v = a.floats([0, 0, 0, 2, 0, 0, 2, 1, 0], "VEC3")
    spin_t = a.floats([0.5, 1.5], "SCALAR")
    spin_v = a.floats(z_rotation(0) + z_rotation(90), "VEC4")
    # CUBICSPLINE: in-tangent, value, out-tangent per key.
    grow_t = a.floats([0, 1.25], "SCALAR")
    grow_v = a.floats([0, 0, 0, 1, 1, 1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 2, 2, 2, 0, 0, 0], "VEC3")
    a.add("animations", {"name": "Move", "samplers": [{"input": move_t, "output": move_v},
                                                      {"input": spin_t, "output": spin_v, "interpolation": "STEP"}],
                         "channels": [{"sampler": 0, "target": {"node": 1, "path": "translation"}},
                                      {"sampler": 1, "target": {"node": 0, "path": "rotation"}}]})
    a.add("animations", {"name": "Grow", "samplers": [{"input": grow_t, "output": grow_v, "interpolation": "CUBICSPLINE"}],
                         "channels": [{"sampler": 0, "target": {"node": 0, "path": "scale"}}]})
    a.doc["scenes"] = [{"nodes": [1]}]
    a.write_glb("animated_cube.glb")


def morph_quad():
    a = Asset()
    quad = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]
    pos = a.floats(quad, "VEC3")
    lift = a.floats([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1], "VEC3")
    sparse = {"count": 1, "indices": {"bufferView": a.view(struct.pack("<4B", 2, 0, 0, 0)), "componentType": 5121},
              "values": {"bufferView": a.view(struct.pack("<3f", 1, 1, 0))}}
    # glTF asks min and max of a morph target's POSITION too: zeros, and (1, 1, 0) at element 2.
    stretch = a.accessor(None, 5126, 4, "VEC3", sparse=sparse, minmax=([0, 0, 0], [1, 1, 0]))
    idx = a.accessor(a.view(bytes([0, 1, 2, 0, 2, 3])), 5121, 6, "SCALAR")
    a.add("meshes", {"name": "Quad", "weights": [0.5, 0], "extras": {"targetNames": ["Lift", "Stretch"]},
                     "primitives": [{"attributes": {"POSITION": pos}, "indices": idx, "targets": [{"POSITION": lift}, {"POSITION": stretch}]}]})
    a.add("nodes", {"name": "Quad", "mesh": 0})
    times = a.floats([0, 1, 2], "SCALAR")
    weights = a.floats([0, 0, 1, 0.5, 0.25, 1], "SCALAR")
    a.add("animations", {"name": "Breathe", "samplers": [{"input": times, "output": weights}],
                         "channels": [{"sampler": 0, "target": {"node": 0, "path": "weights"}}]})
    a.doc["scenes"] = [{"nodes": [0]}]
    a.write_gltf("morph_quad.gltf")


if __name__ == "__main__":
    simple_skin()
    animated_cube()
    morph_quad()

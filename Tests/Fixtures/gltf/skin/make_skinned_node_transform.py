#!/usr/bin/env python3
"""Writes skinned_node_transform.gltf with pygltflib: a skinned mesh whose node has a transform of
its own (translation 1 2 3, scale 2) under a parent with another (translation 5 0 0, a quarter turn
about Y), which glTF says are ignored ("only the joint transforms are applied"). Its two joints
stand under a rig node moved to z = -4 while their inverse bind matrices leave that move out, so the
joints put the mesh 4 down the z axis at rest; a clip bends the second joint. Deterministic.
Run from anywhere: python3 Tests/Fixtures/gltf/skin/make_skinned_node_transform.py"""
import math
import os
import struct

import numpy as np
import pygltflib as g

HERE = os.path.dirname(os.path.abspath(__file__))

POINTS = [(-0.5, 0, 0), (0.5, 0, 0), (-0.5, 1, 0), (0.5, 1, 0), (-0.5, 2, 0), (0.5, 2, 0)]
FACES = [0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4]
JOINTS = [(0, 0, 0, 0), (0, 0, 0, 0), (0, 1, 0, 0), (0, 1, 0, 0), (1, 0, 0, 0), (1, 0, 0, 0)]
WEIGHTS = [(1, 0, 0, 0), (1, 0, 0, 0), (0.5, 0.5, 0, 0), (0.5, 0.5, 0, 0), (1, 0, 0, 0), (1, 0, 0, 0)]
# The joints' bind-pose world matrices without the rig's move: Hip at y=0, Knee at y=1.
BIND_WORLDS = [np.eye(4), np.eye(4)]
BIND_WORLDS[1][1, 3] = 1.0
TIMES = [0.0, 1.0]
# A quarter turn about X at 1 s, (x, y, z, w).
KNEE_TURNS = [(0, 0, 0, 1), (math.sin(math.pi / 4), 0, 0, math.cos(math.pi / 4))]


def main():
    blob = bytearray()
    views, accessors = [], []

    def add(data, kind, component, count, minmax=None, fmt="f"):
        while len(blob) % 4:
            blob.append(0)
        views.append(g.BufferView(buffer=0, byteOffset=len(blob), byteLength=len(data)))
        blob.extend(data)
        accessor = g.Accessor(bufferView=len(views) - 1, componentType=component, count=count, type=kind)
        if minmax:
            accessor.min, accessor.max = minmax
        accessors.append(accessor)
        return len(accessors) - 1

    flat = [c for p in POINTS for c in p]
    position = add(struct.pack("<%df" % len(flat), *flat), "VEC3", g.FLOAT, len(POINTS),
                   ([min(p[k] for p in POINTS) for k in range(3)], [max(p[k] for p in POINTS) for k in range(3)]))
    indices = add(struct.pack("<%dH" % len(FACES), *FACES), "SCALAR", g.UNSIGNED_SHORT, len(FACES))
    joints = add(struct.pack("<%dB" % (4 * len(JOINTS)), *[c for j in JOINTS for c in j]), "VEC4", g.UNSIGNED_BYTE, len(JOINTS))
    weights = add(struct.pack("<%df" % (4 * len(WEIGHTS)), *[c for w in WEIGHTS for c in w]), "VEC4", g.FLOAT, len(WEIGHTS))
    inverse = [np.linalg.inv(m) for m in BIND_WORLDS]
    matrices = [float(v) for m in inverse for v in m.T.flatten()]  # column-major
    inverse_binds = add(struct.pack("<32f", *matrices), "MAT4", g.FLOAT, 2)
    times = add(struct.pack("<2f", *TIMES), "SCALAR", g.FLOAT, 2, ([0.0], [1.0]))
    turns = add(struct.pack("<8f", *[c for q in KNEE_TURNS for c in q]), "VEC4", g.FLOAT, 2)

    quarter_y = [0, math.sin(math.pi / 4), 0, math.cos(math.pi / 4)]
    gltf = g.GLTF2(
        asset=g.Asset(version="2.0", generator="pygltflib (assetc fixture)"),
        scene=0,
        scenes=[g.Scene(nodes=[0, 2])],
        nodes=[
            g.Node(name="Stage", translation=[5, 0, 0], rotation=quarter_y, children=[1]),
            g.Node(name="Body", mesh=0, skin=0, translation=[1, 2, 3], scale=[2, 2, 2]),
            g.Node(name="Rig", translation=[0, 0, -4], children=[3]),
            g.Node(name="Hip", children=[4]),
            g.Node(name="Knee", translation=[0, 1, 0]),
        ],
        meshes=[g.Mesh(name="Strip", primitives=[g.Primitive(
            attributes=g.Attributes(POSITION=position, JOINTS_0=joints, WEIGHTS_0=weights), indices=indices)])],
        skins=[g.Skin(name="Legs", joints=[3, 4], inverseBindMatrices=inverse_binds, skeleton=3)],
        animations=[g.Animation(name="Bend", samplers=[g.AnimationSampler(input=times, output=turns)],
                                channels=[g.AnimationChannel(sampler=0, target=g.AnimationChannelTarget(node=4, path="rotation"))])],
        accessors=accessors,
        bufferViews=views,
        buffers=[g.Buffer(byteLength=len(blob))],
    )
    gltf.set_binary_blob(bytes(blob))
    gltf.convert_buffers(g.BufferFormat.DATAURI)
    gltf.save(os.path.join(HERE, "skinned_node_transform.gltf"))


if __name__ == "__main__":
    main()

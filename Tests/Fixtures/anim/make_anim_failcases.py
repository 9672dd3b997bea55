#!/usr/bin/env python3
"""Writes the animation fail-cases into fail-case/ beside this file: each breaks one rule of a
skeleton, a skin or an animation, and assetc must answer with one located warning or error.
Deterministic. Run: python3 Tests/Fixtures/anim/make_anim_failcases.py"""
import json
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fail-case")

RIG = '''#usda 1.0
(
    defaultPrim = "Rig"
    startTimeCode = 0
    endTimeCode = 10
)

def SkelRoot "Rig"
{{
    def Skeleton "Skel" (
        prepend apiSchemas = ["SkelBindingAPI"]
    )
    {{
        uniform token[] joints = {joints}
        uniform matrix4d[] bindTransforms = [{identity}, {identity}]
        uniform matrix4d[] restTransforms = [{identity}, {identity}]
        rel skel:animationSource = {source}
    }}

    def SkelAnimation "Anim"
    {{
        uniform token[] joints = {anim_joints}
        float3[] translations.timeSamples = {{
            0: [(0, 0, 0), (0, 0, 0)],
            10: {last_translations},
        }}
    }}

    def Mesh "Tri" (
        prepend apiSchemas = ["SkelBindingAPI"]
    )
    {{
        int[] faceVertexCounts = [3]
        int[] faceVertexIndices = [0, 1, 2]
        point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
        int[] primvars:skel:jointIndices = {indices} (
            elementSize = 1
            interpolation = "vertex"
        )
        float[] primvars:skel:jointWeights = {weights} (
            elementSize = 1
            interpolation = "vertex"
        )
        rel skel:skeleton = </Rig/Skel>
    }}
}}
'''

GOOD = dict(joints='["A", "A/B"]', identity="( (1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1) )", source="</Rig/Anim>",
            anim_joints='["A", "A/B"]', last_translations="[(1, 0, 0), (0, 1, 0)]", indices="[0, 1, 1]", weights="[1, 1, 1]")


def rig(name, **changes):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(RIG.format(**{**GOOD, **changes}))


def gltf(name, mutate):
    """A one-triangle scene with a node animation; `mutate` breaks it."""
    blob = bytearray()
    views, accessors = [], []

    def add(data, component, count, kind):
        while len(blob) % 4:
            blob.append(0)
        views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(data)})
        blob.extend(data)
        accessors.append({"bufferView": len(views) - 1, "componentType": component, "count": count, "type": kind})
        return len(accessors) - 1

    pos = add(struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0), 5126, 3, "VEC3")
    times = add(struct.pack("<3f", 0, 1, 2), 5126, 3, "SCALAR")
    moves = add(struct.pack("<9f", 0, 0, 0, 1, 0, 0, 2, 0, 0), 5126, 3, "VEC3")
    doc = {"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "scene": 0,
           "nodes": [{"name": "Tri", "mesh": 0}], "meshes": [{"primitives": [{"attributes": {"POSITION": pos}}]}],
           "accessors": accessors, "bufferViews": views,
           "animations": [{"name": "Move", "samplers": [{"input": times, "output": moves}],
                           "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}]}
    mutate(doc, blob)
    import base64
    doc["buffers"] = [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(bytes(blob)).decode()}]
    with open(os.path.join(OUT, name), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


def channel_to_missing_node(doc, blob):
    doc["animations"][0]["channels"][0]["target"]["node"] = 5
    doc["nodes"] += [{"name": "Elsewhere"}] * 5  # nodes 1-5 exist but are in no scene


def nan_key_time(doc, blob):
    start = doc["bufferViews"][1]["byteOffset"]
    blob[start + 4:start + 8] = struct.pack("<f", math.nan)


def keys_claimed(doc, blob):
    doc["accessors"][1]["count"] = 100_000_000


def joints_out_of_range(doc, blob):
    while len(blob) % 4:
        blob.append(0)
    start = len(blob)
    blob.extend(bytes([0, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0]) + struct.pack("<12f", *([1, 0, 0, 0] * 3)))
    doc["bufferViews"] += [{"buffer": 0, "byteOffset": start, "byteLength": 12}, {"buffer": 0, "byteOffset": start + 12, "byteLength": 48}]
    doc["accessors"] += [{"bufferView": len(doc["bufferViews"]) - 2, "componentType": 5121, "count": 3, "type": "VEC4"},
                         {"bufferView": len(doc["bufferViews"]) - 1, "componentType": 5126, "count": 3, "type": "VEC4"}]
    attributes = doc["meshes"][0]["primitives"][0]["attributes"]
    attributes["JOINTS_0"], attributes["WEIGHTS_0"] = len(doc["accessors"]) - 2, len(doc["accessors"]) - 1
    doc["nodes"][0]["skin"] = 0
    doc["nodes"].append({"name": "Bone"})
    doc["scenes"][0]["nodes"].append(1)
    doc["skins"] = [{"joints": [1]}]


def collada(name, *replacements):
    """The skinned arm Collada fixture with one thing broken."""
    text = open(os.path.join(HERE, "skinned_arm.dae")).read()
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new, 1)
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text)


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    rig("weights_do_not_sum.usda", weights="[1, 0.25, 1]")
    rig("joint_index_out_of_range.usda", indices="[0, 1, 7]")
    rig("joint_parent_missing.usda", joints='["A", "Missing/B"]')
    rig("animation_source_missing.usda", source="</Rig/Nowhere>")
    rig("animation_joint_missing.usda", anim_joints='["A", "A/Ghost"]')
    rig("animation_keys_short.usda", last_translations="[(1, 0, 0)]")
    gltf("channel_to_missing_node.gltf", channel_to_missing_node)
    gltf("nan_key_time.gltf", nan_key_time)
    gltf("keys_claimed_1e8.gltf", keys_claimed)
    gltf("joints_out_of_range.gltf", joints_out_of_range)
    collada("channel_to_missing_sid.dae", ('target="Elbow/rotateZ.ANGLE"', 'target="Elbow/twist.ANGLE"'))
    collada("joint_names_no_node.dae", (">Shoulder Elbow Wrist<", ">Shoulder Elbow Pinky<"))
    collada("influences_overrun.dae", ("<vcount>2 2 2", "<vcount>200 2 2"))
    collada("key_times_backwards.dae", ('count="3">0 1 2</float_array>', 'count="3">0 2 1</float_array>'))

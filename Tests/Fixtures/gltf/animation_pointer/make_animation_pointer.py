#!/usr/bin/env python3
"""Writes animation_pointer.gltf: ../../anim/morph_quad.gltf with a translation animation added, every channel targeting
through KHR_animation_pointer (`/meshes/0/weights`, `/nodes/0/translation`) plus one pointer at a material
colour, which assetc's scene does not animate; and animation_pointer_plain.gltf, the same channels as plain
node targets, which the cross-check holds the pointer file to. Run: python3 make_animation_pointer.py"""
import base64
import copy
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    doc = json.load(open(os.path.join(HERE, "..", "..", "anim", "morph_quad.gltf")))
    data = bytearray(base64.b64decode(doc["buffers"][0]["uri"].split(",", 1)[1]))
    while len(data) % 4:
        data.append(0)
    times, moves = [0.0, 1.0, 2.0], [0, 0, 0, 0, 1, 0, 1, 1, 0]
    colours = [1, 1, 1, 1, 1, 0, 0, 1]
    for values, kind, count in ((times, "SCALAR", 3), (moves, "VEC3", 3), ([0.0, 2.0], "SCALAR", 2), (colours, "VEC4", 2)):
        doc["bufferViews"].append({"buffer": 0, "byteOffset": len(data), "byteLength": 4 * len(values)})
        data += b"".join(struct.pack("<f", v) for v in values)
        width = len(values) // count
        # min and max, which glTF requires of key times (and which cost nothing on the rest).
        doc["accessors"].append({"bufferView": len(doc["bufferViews"]) - 1, "componentType": 5126, "count": count, "type": kind,
                                 "min": [min(values[c::width]) for c in range(width)], "max": [max(values[c::width]) for c in range(width)]})
    n = len(doc["accessors"])
    doc["buffers"][0] = {"byteLength": len(data), "uri": "data:application/octet-stream;base64," + base64.b64encode(bytes(data)).decode()}
    doc["materials"] = [{"name": "Paint", "pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1]}}]
    doc["meshes"][0]["primitives"][0]["material"] = 0
    animation = doc["animations"][0]
    animation["samplers"] += [{"input": n - 4, "output": n - 3}, {"input": n - 2, "output": n - 1}]
    plain = copy.deepcopy(doc)
    plain["animations"][0]["channels"].append({"sampler": 1, "target": {"node": 0, "path": "translation"}})
    plain["animations"][0]["samplers"].pop()
    plain["asset"]["generator"] = "assetc fixture writer (make_animation_pointer.py)"
    animation["channels"] = [
        {"sampler": 0, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/meshes/0/weights"}}}},
        {"sampler": 1, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/nodes/0/translation"}}}},
        {"sampler": 2, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/materials/0/pbrMetallicRoughness/baseColorFactor"}}}},
    ]
    doc["extensionsUsed"] = ["KHR_animation_pointer"]
    doc["asset"]["generator"] = "assetc fixture writer (make_animation_pointer.py)"
    for name, content in (("animation_pointer.gltf", doc), ("animation_pointer_plain.gltf", plain)):
        with open(os.path.join(HERE, name), "w") as f:
            json.dump(content, f, indent=1, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()

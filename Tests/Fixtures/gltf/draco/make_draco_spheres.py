#!/usr/bin/env python3
"""Writes Draco-compressed glTF spheres (radius 0.92, centred at CENTRE) beside their uncompressed source:

- sphere.gltf: the source, float positions and normals in plain accessors.
- sphere_draco_q8.gltf, sphere_draco_q14.gltf: float positions that Draco quantizes to 8 and 14 bits
  itself (normals to 10), encoded by draco_pack.cpp through Debian's libdraco.
- sphere_draco_int16.gltf: the shape glTF-Transform writes for `quantize` then `draco`: positions already
  quantized to normalized SHORT and normals to normalized BYTE (KHR_mesh_quantization), the node's
  translation and scale bringing them back; Draco stores the integers as they are.
- sphere_draco_encoder.gltf: Debian's draco_encoder (-qp 11) on sphere.ply, positions only.
- sphere_draco_wrong_range.gltf: the int16 sphere whose accessor declares half its real range, so a
  reader that checks decoded data against min/max has something to say.

Needs g++, libdraco-dev and Debian's draco package; the outputs are committed."""
import base64
import json
import math
import os
import struct
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RADIUS, CENTRE, RINGS, SEGMENTS = 0.92, (0.5, 1.2, -0.3), 12, 24


def sphere():
    points, normals, faces = [], [], []
    for r in range(RINGS + 1):
        theta = math.pi * r / RINGS
        for s in range(SEGMENTS):
            phi = 2 * math.pi * s / SEGMENTS
            n = (math.sin(theta) * math.cos(phi), math.cos(theta), math.sin(theta) * math.sin(phi))
            normals.append(n)
            points.append(tuple(CENTRE[k] + RADIUS * n[k] for k in range(3)))
    for r in range(RINGS):
        for s in range(SEGMENTS):
            a, b = r * SEGMENTS + s, r * SEGMENTS + (s + 1) % SEGMENTS
            c, d = a + SEGMENTS, b + SEGMENTS
            faces += [(a, b, d), (a, d, c)]
    # Poles repeat one point per segment; their degenerate triangles are left out.
    faces = [f for f in faces if len({points[i] for i in f}) == 3]
    return points, normals, faces


def document(buffers_payload, accessors, primitive, node=None, used=(), required=()):
    doc = {
        "asset": {"version": "2.0", "generator": "assetc fixture writer (make_draco_spheres.py)"},
        "buffers": [{"byteLength": len(buffers_payload),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(buffers_payload).decode()}],
        "bufferViews": [{"buffer": 0, "byteLength": len(buffers_payload)}],
        "accessors": accessors,
        "meshes": [{"name": "Sphere", "primitives": [primitive]}],
        "nodes": [dict({"name": "Sphere", "mesh": 0}, **(node or {}))],
        "scenes": [{"nodes": [0]}],
    }
    if used:
        doc["extensionsUsed"] = list(used)
    if required:
        doc["extensionsRequired"] = list(required)
    return doc


def write(name, doc):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


def bounds(values):
    return [min(v[k] for v in values) for k in range(3)], [max(v[k] for v in values) for k in range(3)]


def pack(pack_tool, lines, *mode):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "mesh.drc")
        subprocess.run([pack_tool, out, *mode], input="\n".join(lines) + "\n", text=True, check=True)
        return open(out, "rb").read()


def draco_primitive(points, triangles, attributes, accessors):
    return {"attributes": attributes, "indices": len(accessors) - 1,
            "extensions": {"KHR_draco_mesh_compression": {"bufferView": 0, "attributes": {"POSITION": 0, "NORMAL": 1}}}}


def main():
    points, normals, faces = sphere()
    count, low_high = len(points), bounds(points)
    raw = b"".join(struct.pack("<3f", *p) for p in points) + b"".join(struct.pack("<3f", *n) for n in normals) + \
        b"".join(struct.pack("<3I", *f) for f in faces)
    source = document(raw, [
        {"bufferView": 0, "componentType": 5126, "count": count, "type": "VEC3", "min": low_high[0], "max": low_high[1]},
        {"bufferView": 0, "componentType": 5126, "count": count, "type": "VEC3", "byteOffset": 12 * count},
        {"bufferView": 0, "componentType": 5125, "count": 3 * len(faces), "type": "SCALAR", "byteOffset": 24 * count},
    ], {"attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2})
    write("sphere.gltf", source)

    with tempfile.TemporaryDirectory() as tmp:
        tool = os.path.join(tmp, "draco_pack")
        subprocess.run(["g++", "-O1", "-std=c++17", os.path.join(HERE, "draco_pack.cpp"), "-ldraco", "-o", tool], check=True)
        float_lines = ["p %.9g %.9g %.9g" % p for p in points] + ["n %.9g %.9g %.9g" % n for n in normals] + \
            ["f %d %d %d" % f for f in faces]
        for bits in (8, 14):
            payload = pack(tool, float_lines, "float", str(bits))
            accessors = [{"componentType": 5126, "count": count, "type": "VEC3", "min": low_high[0], "max": low_high[1]},
                         {"componentType": 5126, "count": count, "type": "VEC3"},
                         {"componentType": 5125, "count": 3 * len(faces), "type": "SCALAR"}]
            write("sphere_draco_q%d.gltf" % bits, document(payload, accessors, draco_primitive(points, faces, {"POSITION": 0, "NORMAL": 1}, accessors),
                                                          used=["KHR_draco_mesh_compression"], required=["KHR_draco_mesh_compression"]))

        quantized = [tuple(round((p[k] - CENTRE[k]) / RADIUS * 32767) for k in range(3)) for p in points]
        quantized_normals = [tuple(round(n[k] * 127) for k in range(3)) for n in normals]
        int_lines = ["p %d %d %d" % p for p in quantized] + ["n %d %d %d" % n for n in quantized_normals] + \
            ["f %d %d %d" % f for f in faces]
        payload = pack(tool, int_lines, "int16")
        q_low, q_high = bounds(quantized)
        for name, declared in (("sphere_draco_int16.gltf", (q_low, q_high)),
                               ("sphere_draco_wrong_range.gltf", ([v // 2 for v in q_low], [v // 2 for v in q_high]))):
            accessors = [{"componentType": 5122, "normalized": True, "count": count, "type": "VEC3", "min": declared[0], "max": declared[1]},
                         {"componentType": 5120, "normalized": True, "count": count, "type": "VEC3"},
                         {"componentType": 5125, "count": 3 * len(faces), "type": "SCALAR"}]
            used = ["KHR_draco_mesh_compression", "KHR_mesh_quantization"]
            write(name, document(payload, accessors, draco_primitive(points, faces, {"POSITION": 0, "NORMAL": 1}, accessors),
                                 node={"translation": list(CENTRE), "scale": [RADIUS] * 3}, used=used, required=used))

        ply = os.path.join(tmp, "sphere.ply")
        with open(ply, "w") as f:
            f.write("ply\nformat ascii 1.0\nelement vertex %d\nproperty float x\nproperty float y\nproperty float z\n"
                    "element face %d\nproperty list uchar int vertex_indices\nend_header\n" % (count, len(faces)))
            f.writelines("%.9g %.9g %.9g\n" % p for p in points)
            f.writelines("3 %d %d %d\n" % face for face in faces)
        drc = os.path.join(tmp, "sphere.drc")
        subprocess.run(["draco_encoder", "-i", ply, "-o", drc, "-qp", "11"], check=True, capture_output=True)
        payload = open(drc, "rb").read()
        accessors = [{"componentType": 5126, "count": count, "type": "VEC3", "min": low_high[0], "max": low_high[1]},
                     {"componentType": 5125, "count": 3 * len(faces), "type": "SCALAR"}]
        primitive = {"attributes": {"POSITION": 0}, "indices": 1,
                     "extensions": {"KHR_draco_mesh_compression": {"bufferView": 0, "attributes": {"POSITION": 0}}}}
        write("sphere_draco_encoder.gltf", document(payload, accessors, primitive,
                                                    used=["KHR_draco_mesh_compression"], required=["KHR_draco_mesh_compression"]))


if __name__ == "__main__":
    main()

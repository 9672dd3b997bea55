#!/usr/bin/env python3
"""Writes the KHR_materials_pbrSpecularGlossiness fixtures by hand (Blender reads the extension but does
not write it; the files are shaped like the older Sketchfab downloads that use it): a quad whose file
requires the extension, with factors only (spec_gloss.gltf) and with a diffuse texture and a
specular-glossiness texture whose alpha is the glossiness (spec_gloss_textured.gltf, textures written
here with Pillow). Run: python3 make_spec_gloss.py; the outputs are committed."""
import base64
import json
import os
import struct

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))


def quad_buffer():
    points = [(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)]
    normals = [(0, 0, 1)] * 4
    uvs = [(0, 1), (1, 1), (1, 0), (0, 0)]
    indices = [0, 1, 2, 0, 2, 3]
    data = b"".join(struct.pack("<3f", *p) for p in points) + b"".join(struct.pack("<3f", *n) for n in normals)
    data += b"".join(struct.pack("<2f", *t) for t in uvs) + b"".join(struct.pack("<H", i) for i in indices)
    return data


def document(extension, textures=None):
    data = quad_buffer()
    doc = {
        "asset": {"version": "2.0", "generator": "assetc fixture writer (make_spec_gloss.py)"},
        "extensionsUsed": ["KHR_materials_pbrSpecularGlossiness"],
        "extensionsRequired": ["KHR_materials_pbrSpecularGlossiness"],
        "buffers": [{"byteLength": len(data), "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 96}, {"buffer": 0, "byteOffset": 96, "byteLength": 32},
                        {"buffer": 0, "byteOffset": 128, "byteLength": 12}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [-1, -1, 0], "max": [1, 1, 0]},
            {"bufferView": 0, "byteOffset": 48, "componentType": 5126, "count": 4, "type": "VEC3"},
            {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC2"},
            {"bufferView": 2, "componentType": 5123, "count": 6, "type": "SCALAR"},
        ],
        "materials": [{"name": "Lacquer", "extensions": {"KHR_materials_pbrSpecularGlossiness": extension}}],
        "meshes": [{"name": "Quad", "primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 3, "material": 0}]}],
        "nodes": [{"name": "Quad", "mesh": 0}],
        "scenes": [{"nodes": [0]}],
    }
    if textures:
        doc["images"] = [{"uri": name} for name in textures]
        doc["textures"] = [{"source": k} for k in range(len(textures))]
    return doc


def write(name, doc):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


def main():
    write("spec_gloss.gltf", document({"diffuseFactor": [0.6, 0.1, 0.1, 1], "specularFactor": [0.9, 0.8, 0.3], "glossinessFactor": 0.7}))
    diffuse = Image.new("RGB", (8, 8))
    diffuse.putdata([(200, 40, 40) if (x + y) % 2 else (40, 40, 200) for y in range(8) for x in range(8)])
    diffuse.save(os.path.join(HERE, "spec_gloss_diffuse.png"))
    glossy = Image.new("RGBA", (8, 8))
    glossy.putdata([(230, 200, 60, 40 + 24 * x) for y in range(8) for x in range(8)])
    glossy.save(os.path.join(HERE, "spec_gloss_specular.png"))
    write("spec_gloss_textured.gltf", document({
        "diffuseFactor": [1, 1, 1, 1], "diffuseTexture": {"index": 0},
        "specularFactor": [1, 1, 1], "glossinessFactor": 0.8, "specularGlossinessTexture": {"index": 1}},
        textures=["spec_gloss_diffuse.png", "spec_gloss_specular.png"]))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the glTF fixtures by hand (struct-packed buffers, JSON), so each holds exactly the feature
it is named for: interleaved strided views, normalized integer attributes, sparse accessors,
strips, fans and lines, node transforms with instancing, cameras and lights, and every material
input. Deterministic. Run from anywhere: python3 Tests/Fixtures/gltf/make_fixtures.py"""
import base64
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = open(os.path.join(HERE, "textures", "checker.png"), "rb").read()


class Asset:
    def __init__(self):
        self.doc = {"asset": {"version": "2.0", "generator": "assetc fixture writer"}}
        self.blob = bytearray()

    def view(self, data, stride=None, target=None):
        while len(self.blob) % 4:
            self.blob.append(0)
        view = {"buffer": 0, "byteOffset": len(self.blob), "byteLength": len(data)}
        if stride:
            view["byteStride"] = stride
        if target:
            view["target"] = target
        self.blob += data
        self.doc.setdefault("bufferViews", []).append(view)
        return len(self.doc["bufferViews"]) - 1

    def accessor(self, view, component, count, kind, offset=0, normalized=False, minmax=None, sparse=None):
        accessor = {"componentType": component, "count": count, "type": kind}
        if view is not None:
            accessor["bufferView"] = view
            if offset:
                accessor["byteOffset"] = offset
        if normalized:
            accessor["normalized"] = True
        if minmax:
            accessor["min"], accessor["max"] = minmax
        if sparse:
            accessor["sparse"] = sparse
        self.doc.setdefault("accessors", []).append(accessor)
        return len(self.doc["accessors"]) - 1

    def floats(self, values, kind):
        """A float accessor with its min and max, which glTF requires of positions and key times."""
        width = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}[kind]
        view = self.view(struct.pack("<%df" % len(values), *values))
        stored = struct.unpack("<%df" % len(values), struct.pack("<%df" % len(values), *values))  # as float32 holds them
        bounds = ([min(stored[c::width]) for c in range(width)], [max(stored[c::width]) for c in range(width)])
        return self.accessor(view, 5126, len(values) // width, kind, minmax=bounds)

    def add(self, key, value):
        self.doc.setdefault(key, []).append(value)
        return len(self.doc[key]) - 1

    def write_gltf(self, name, data_uri=True):
        self.doc["buffers"] = [{"byteLength": len(self.blob),
                                "uri": ("data:application/octet-stream;base64," + base64.b64encode(bytes(self.blob)).decode())
                                if data_uri else name.replace(".gltf", ".bin")}]
        if not data_uri:
            open(os.path.join(HERE, name.replace(".gltf", ".bin")), "wb").write(self.blob)
        with open(os.path.join(HERE, name), "w") as f:
            json.dump(self.doc, f, indent=1, sort_keys=True)
            f.write("\n")

    def write_glb(self, name):
        while len(self.blob) % 4:
            self.blob.append(0)
        self.doc["buffers"] = [{"byteLength": len(self.blob)}]
        text = json.dumps(self.doc, sort_keys=True).encode()
        text += b" " * (-len(text) % 4)
        out = struct.pack("<4sII", b"glTF", 2, 12 + 8 + len(text) + 8 + len(self.blob))
        out += struct.pack("<II", len(text), 0x4E4F534A) + text + struct.pack("<II", len(self.blob), 0x004E4942) + bytes(self.blob)
        open(os.path.join(HERE, name), "wb").write(out)


QUAD = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]


def interleaved_strided():
    """One view holds position, normal and texcoord per vertex, 32 bytes apart; indices are shorts."""
    a = Asset()
    uv = [0, 1, 1, 1, 1, 0, 0, 0]
    vertices = b"".join(struct.pack("<8f", *QUAD[3 * i:3 * i + 3], 0, 0, 1, *uv[2 * i:2 * i + 2]) for i in range(4))
    view = a.view(vertices, stride=32, target=34962)
    pos = a.accessor(view, 5126, 4, "VEC3", 0, minmax=([0, 0, 0], [1, 1, 0]))
    nor = a.accessor(view, 5126, 4, "VEC3", 12)
    tex = a.accessor(view, 5126, 4, "VEC2", 24)
    idx = a.accessor(a.view(struct.pack("<6H", 0, 1, 2, 0, 2, 3) + b"\0\0"), 5123, 6, "SCALAR")
    a.add("meshes", {"name": "Quad", "primitives": [{"attributes": {"POSITION": pos, "NORMAL": nor, "TEXCOORD_0": tex}, "indices": idx}]})
    a.add("nodes", {"name": "Quad", "mesh": 0})
    a.doc["scenes"] = [{"nodes": [0]}]
    a.doc["scene"] = 0
    a.write_gltf("interleaved_strided.gltf")


def normalized_attributes():
    """Texcoords as normalized unsigned bytes and shorts, colours as normalized shorts, an image in a buffer view."""
    a = Asset()
    pos = a.floats(QUAD, "VEC3")
    uv0 = a.accessor(a.view(bytes([0, 255, 255, 255, 255, 0, 0, 0])), 5121, 4, "VEC2", normalized=True)
    uv1 = a.accessor(a.view(struct.pack("<8H", 0, 0, 65535, 0, 65535, 65535, 0, 65535)), 5123, 4, "VEC2", normalized=True)
    col = a.accessor(a.view(struct.pack("<16H", *([65535, 0, 0, 65535] * 2 + [0, 65535, 0, 32768] * 2))), 5123, 4, "VEC4", normalized=True)
    idx = a.accessor(a.view(bytes([0, 1, 2, 0, 2, 3])), 5121, 6, "SCALAR")
    image = a.add("images", {"bufferView": a.view(CHECKER), "mimeType": "image/png", "name": "checker"})
    a.add("textures", {"source": image})
    a.add("materials", {"name": "Checker", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0, "texCoord": 1}}})
    a.add("meshes", {"name": "Quad", "primitives": [{"attributes": {"POSITION": pos, "TEXCOORD_0": uv0, "TEXCOORD_1": uv1, "COLOR_0": col},
                                                     "indices": idx, "material": 0}]})
    a.add("nodes", {"name": "Quad", "mesh": 0})
    a.doc["scenes"] = [{"nodes": [0]}]
    a.write_glb("normalized_attributes.glb")


def sparse_accessors():
    """Positions with two vertices replaced sparsely; a second mesh's positions all from sparse values over zeros."""
    a = Asset()
    base = a.view(struct.pack("<12f", *QUAD))
    sparse = {"count": 2, "indices": {"bufferView": a.view(struct.pack("<2H", 1, 2)), "componentType": 5123},
              "values": {"bufferView": a.view(struct.pack("<6f", 3, 0, 0, 3, 2, 0))}}
    pos = a.accessor(base, 5126, 4, "VEC3", sparse=sparse, minmax=([0, 0, 0], [3, 2, 0]))  # bounds after the substitution
    zeros_sparse = {"count": 2, "indices": {"bufferView": a.view(bytes([1, 2, 0, 0])), "componentType": 5121},
                    "values": {"bufferView": a.view(struct.pack("<6f", 0, 0, 5, 0, 4, 5))}}
    pos2 = a.accessor(None, 5126, 3, "VEC3", sparse=zeros_sparse, minmax=([0, 0, 0], [0, 4, 5]))
    a.add("meshes", {"name": "Stretched", "primitives": [{"attributes": {"POSITION": pos}, "indices": a.accessor(
        a.view(struct.pack("<6I", 0, 1, 2, 0, 2, 3)), 5125, 6, "SCALAR")}]})
    a.add("meshes", {"name": "FromZeros", "primitives": [{"attributes": {"POSITION": pos2}}]})
    a.add("nodes", {"name": "Stretched", "mesh": 0})
    a.add("nodes", {"name": "FromZeros", "mesh": 1})
    a.doc["scenes"] = [{"nodes": [0, 1]}]
    a.write_gltf("sparse_accessors.gltf")


def strips_fans_lines():
    """A strip of 4 triangles and a fan of 3, unindexed; lines, a line strip and a loop beside them."""
    a = Asset()
    strip = a.floats([0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 2, 0, 0, 2, 1, 0], "VEC3")
    fan = a.floats([5, 0, 0, 6, 0, 0, 6, 1, 0, 5, 1, 0, 4, 1, 0], "VEC3")
    lines = a.floats([0, 3, 0, 1, 3, 0, 2, 3, 0, 3, 3, 0], "VEC3")
    strip_lines = a.floats([0, 4, 0, 1, 5, 0, 2, 4, 0], "VEC3")
    loop = a.floats([0, 6, 0, 1, 6, 0, 1, 7, 0], "VEC3")
    a.add("meshes", {"name": "Surfaces", "primitives": [{"attributes": {"POSITION": strip}, "mode": 5},
                                                        {"attributes": {"POSITION": fan}, "mode": 6}]})
    a.add("meshes", {"name": "Wires", "primitives": [{"attributes": {"POSITION": lines}, "mode": 1},
                                                     {"attributes": {"POSITION": strip_lines}, "mode": 3},
                                                     {"attributes": {"POSITION": loop}, "mode": 2}]})
    a.add("nodes", {"name": "Surfaces", "mesh": 0})
    a.add("nodes", {"name": "Wires", "mesh": 1})
    a.doc["scenes"] = [{"nodes": [0, 1]}]
    a.write_glb("strips_fans_lines.glb")


def nodes_instancing():
    """TRS and matrix nodes, one mesh placed three times, a camera and a light; scene 1 is the default."""
    a = Asset()
    pos = a.floats([0, 0, 0, 1, 0, 0, 0, 1, 0], "VEC3")
    a.add("meshes", {"name": "Tri", "primitives": [{"attributes": {"POSITION": pos}}]})
    a.add("cameras", {"name": "Cam", "type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1, "zfar": 100}})
    a.doc["extensionsUsed"] = ["KHR_lights_punctual"]
    a.doc["extensions"] = {"KHR_lights_punctual": {"lights": [{"name": "Sun", "type": "directional", "color": [1, 0.9, 0.8], "intensity": 3}]}}
    a.add("nodes", {"name": "Root", "children": [1, 2, 3], "translation": [0, 0, -2]})
    a.add("nodes", {"name": "Moved", "mesh": 0, "translation": [10, 0, 0], "rotation": [0, 0, 0.7071068, 0.7071068], "scale": [2, 2, 2]})
    a.add("nodes", {"name": "Matrix", "mesh": 0, "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -5, 3, 0, 1]})
    a.add("nodes", {"name": "Plain", "mesh": 0, "children": [4, 5]})
    a.add("nodes", {"name": "Camera", "camera": 0, "translation": [0, 1, 5]})
    a.add("nodes", {"name": "Sun", "extensions": {"KHR_lights_punctual": {"light": 0}}})
    a.add("nodes", {"name": "NotInTheScene", "mesh": 0, "translation": [100, 100, 100]})
    a.doc["scenes"] = [{"name": "Other", "nodes": [6]}, {"name": "Main", "nodes": [0]}]
    a.doc["scene"] = 1
    a.write_gltf("nodes_instancing.gltf", data_uri=False)


def materials():
    """Every material input, a sampler, an external PNG, alpha modes, emissive strength and unlit."""
    a = Asset()
    pos = a.floats(QUAD, "VEC3")
    uv = a.floats([0, 1, 1, 1, 1, 0, 0, 0], "VEC2")
    idx = a.accessor(a.view(struct.pack("<6H", 0, 1, 2, 0, 2, 3)), 5123, 6, "SCALAR")
    a.add("images", {"uri": "textures/checker.png"})
    a.add("images", {"uri": "data:image/png;base64," + base64.b64encode(CHECKER).decode()})
    a.add("samplers", {"wrapS": 33071, "wrapT": 33648})
    a.add("textures", {"source": 0, "sampler": 0})
    a.add("textures", {"source": 1})
    a.doc["extensionsUsed"] = ["KHR_materials_emissive_strength", "KHR_materials_unlit", "KHR_texture_transform"]
    a.add("materials", {"name": "Full", "doubleSided": True, "alphaMode": "MASK", "alphaCutoff": 0.3,
                        "pbrMetallicRoughness": {"baseColorFactor": [1, 0.5, 0.25, 0.8], "baseColorTexture": {"index": 0, "extensions": {
                                                     "KHR_texture_transform": {"offset": [0.1, 0.2], "rotation": 0.5, "scale": [2, 3]}}},
                                                 "metallicFactor": 0.2, "roughnessFactor": 0.7, "metallicRoughnessTexture": {"index": 1}},
                        "normalTexture": {"index": 1, "scale": 0.5}, "occlusionTexture": {"index": 1, "strength": 0.8},
                        "emissiveFactor": [1, 1, 0], "emissiveTexture": {"index": 1},
                        "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": 2}}})
    a.add("materials", {"name": "Glass", "alphaMode": "BLEND", "pbrMetallicRoughness": {"baseColorFactor": [0.2, 0.4, 1, 0.5]}})
    a.add("materials", {"name": "Flat", "pbrMetallicRoughness": {"baseColorFactor": [0, 1, 0, 1]}, "extensions": {"KHR_materials_unlit": {}}})
    for k, name in enumerate(["Full", "Glass", "Flat"]):
        a.add("meshes", {"name": name, "primitives": [{"attributes": {"POSITION": pos, "TEXCOORD_0": uv}, "indices": idx, "material": k}]})
        a.add("nodes", {"name": name, "mesh": k, "translation": [2 * k, 0, 0]})
    a.doc["scenes"] = [{"nodes": [0, 1, 2]}]
    a.write_gltf("materials.gltf", data_uri=False)


def main():
    interleaved_strided()
    normalized_attributes()
    sparse_accessors()
    strips_fans_lines()
    nodes_instancing()
    materials()
    webp_textures()
    fail_cases()


def webp_textures():
    """The same textured quad three ways: a PNG checker; a lossless WebP checker (EXT_texture_webp,
    required) whose PNG fallback is plain red, so a reader that draws red ignored the WebP."""
    import io
    from PIL import Image
    checker = Image.open(io.BytesIO(CHECKER)).convert("RGBA")
    webp, red = io.BytesIO(), io.BytesIO()
    checker.save(webp, "WEBP", lossless=True)
    Image.new("RGBA", checker.size, (255, 0, 0, 255)).save(red, "PNG")
    for name, images, texture, required in (
            ("checker_png.gltf", [("image/png", CHECKER)], {"source": 0}, False),
            ("checker_webp.gltf", [("image/png", red.getvalue()), ("image/webp", webp.getvalue())],
             {"source": 0, "extensions": {"EXT_texture_webp": {"source": 1}}}, True)):
        a = Asset()
        pos = a.floats(QUAD, "VEC3")
        uv = a.floats([0, 1, 1, 1, 1, 0, 0, 0], "VEC2")
        idx = a.accessor(a.view(struct.pack("<6H", 0, 1, 2, 0, 2, 3)), 5123, 6, "SCALAR")
        for mime, data in images:
            a.add("images", {"uri": "data:%s;base64,%s" % (mime, base64.b64encode(data).decode()), "name": "checker"})
        a.add("textures", texture)
        a.add("materials", {"name": "Checker", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}})
        a.add("meshes", {"name": "Quad", "primitives": [{"attributes": {"POSITION": pos, "TEXCOORD_0": uv}, "indices": idx, "material": 0}]})
        a.add("nodes", {"name": "Quad", "mesh": 0})
        a.doc["scenes"] = [{"nodes": [0]}]
        if required:
            a.doc["extensionsUsed"] = a.doc["extensionsRequired"] = ["EXT_texture_webp"]
        a.write_gltf(name)


def fail_cases():
    """Broken and hostile files, each expected to give one located error or a named warning
    (fail-case.json says which)."""
    folder = os.path.join(HERE, "fail-case")
    os.makedirs(folder, exist_ok=True)

    def triangle_asset():
        a = Asset()
        pos = a.floats([0, 0, 0, 1, 0, 0, 0, 1, 0], "VEC3")
        a.add("meshes", {"primitives": [{"attributes": {"POSITION": pos}}]})
        a.add("nodes", {"mesh": 0})
        a.doc["scenes"] = [{"nodes": [0]}]
        return a

    def save(name, doc):
        with open(os.path.join(folder, name), "w") as f:
            json.dump(doc, f, sort_keys=True)

    def embedded(a):
        a.doc["buffers"] = [{"byteLength": len(a.blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(bytes(a.blob)).decode()}]
        return a.doc

    # A GLB whose BIN chunk claims far more bytes than follow.
    a = triangle_asset()
    a.write_glb("fail-case/glb_chunk_length_lies.glb")
    data = bytearray(open(os.path.join(folder, "glb_chunk_length_lies.glb"), "rb").read())
    json_length = struct.unpack_from("<I", data, 12)[0]
    struct.pack_into("<I", data, 20 + json_length, 0x7FFFFFF0)
    open(os.path.join(folder, "glb_chunk_length_lies.glb"), "wb").write(data)

    a = triangle_asset()
    a.doc["accessors"][0]["count"] = 1000
    save("accessor_past_buffer.gltf", embedded(a))

    a = triangle_asset()
    a.doc["accessors"][0]["count"] = 1 << 61
    save("count_overflows.gltf", embedded(a))

    a = triangle_asset()
    idx = a.accessor(a.view(struct.pack("<3I", 0, 1, 7)), 5125, 3, "SCALAR")
    a.doc["meshes"][0]["primitives"][0]["indices"] = idx
    save("index_out_of_range.gltf", embedded(a))

    with open(os.path.join(folder, "bad_json.gltf"), "w") as f:
        f.write('{"asset": {"version": "2.0"}, "nodes": [ {"name": "A",, } ] }\n')

    a = triangle_asset()
    doc = embedded(a)
    doc["buffers"][0]["byteLength"] = 4_000_000_000
    save("data_uri_claims_gigabytes.gltf", doc)

    a = triangle_asset()
    a.doc["buffers"] = [{"byteLength": len(a.blob), "uri": "../../../../../../../../../../secret.bin"}]
    save("buffer_uri_climbs_out.gltf", a.doc)

    a = triangle_asset()
    embedded(a)
    a.add("images", {"uri": "/etc/hostname"})
    a.add("textures", {"source": 0})
    a.add("materials", {"name": "M", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}})
    a.doc["meshes"][0]["primitives"][0]["material"] = 0
    save("image_uri_absolute.gltf", a.doc)

    a = triangle_asset()
    doc = embedded(a)
    doc["extensionsUsed"] = doc["extensionsRequired"] = ["EXT_made_up_compression"]
    save("requires_unknown_extension.gltf", doc)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the per-code glTF validation fixtures: base.gltf and base.glb, a valid triangle with
every check's inputs present, and one file per Khronos issue code, each the base with one thing
broken, into this folder; expected.json names each file's code and JSON pointer (or, for GLB
structure, the chunk). Run it again after changing it; the files are committed beside it.
Hand-written on purpose: each case is a fact of the glTF 2.0 specification or the Khronos
validator's ISSUES.md, not the output of a tool whose reading we share."""
import base64
import copy
import json
import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent

POSITIONS = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)]
NORMALS = [(0.0, 0.0, 1.0)] * 3
INDICES = [0, 1, 2]


def pack(positions=POSITIONS, normals=NORMALS, indices=INDICES):
    data = b"".join(struct.pack("<3f", *p) for p in positions)
    data += b"".join(struct.pack("<3f", *n) for n in normals)
    data += struct.pack(f"<{len(indices)}H", *indices)
    return data + b"\0" * (-len(data) % 4)


def base(data=None):
    data = pack() if data is None else data
    return {
        "asset": {"version": "2.0", "generator": "make_validation_fixtures.py"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2, "material": 0}]}],
        "materials": [{"pbrMetallicRoughness": {"baseColorFactor": [1, 0, 0, 1]}}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3"},
            {"bufferView": 2, "componentType": 5123, "count": 3, "type": "SCALAR"},
        ],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 36, "target": 34962},
            {"buffer": 0, "byteOffset": 36, "byteLength": 36, "target": 34962},
            {"buffer": 0, "byteOffset": 72, "byteLength": 6, "target": 34963},
        ],
        "buffers": [{"byteLength": len(data), "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}],
    }


def with_data(doc, data):
    doc["buffers"][0] = {"byteLength": len(data), "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}
    return doc


def glb(doc, data, json_type=0x4E4F534A, bin_type=0x004E4942, version=2, magic=b"glTF", length_delta=0, extra=b"", buffer_length=None):
    doc = copy.deepcopy(doc)
    doc["buffers"] = [{"byteLength": buffer_length or len(data)}]
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    body = struct.pack("<II", len(text), json_type) + text + struct.pack("<II", len(data), bin_type) + data
    return magic + struct.pack("<II", version, 12 + len(body) + length_delta) + body + extra


CASES = {}


def case(code, pointer):
    def register(make):
        CASES[code] = (make, pointer)
        return make
    return register


def mutate(change):
    doc = base()
    change(doc)
    return doc


# Schema
case("UNDEFINED_PROPERTY", "/accessors/0")(lambda: mutate(lambda d: d["accessors"][0].pop("count")))
case("TYPE_MISMATCH", "/accessors/0/count")(lambda: mutate(lambda d: d["accessors"][0].__setitem__("count", "3")))
case("UNEXPECTED_PROPERTY", "/nodes/0/meshes")(lambda: mutate(lambda d: d["nodes"][0].__setitem__("meshes", 0)))
case("VALUE_NOT_IN_LIST", "/accessors/0/type")(lambda: mutate(lambda d: d["accessors"][0].__setitem__("type", "VEC5")))
case("VALUE_NOT_IN_RANGE", "/materials/0/pbrMetallicRoughness/metallicFactor")(
    lambda: mutate(lambda d: d["materials"][0]["pbrMetallicRoughness"].__setitem__("metallicFactor", 1.5)))
case("INVALID_INDEX", "/nodes/0/mesh")(lambda: mutate(lambda d: d["nodes"][0].__setitem__("mesh", -1)))
case("UNRESOLVED_REFERENCE", "/meshes/0/primitives/0/material")(
    lambda: mutate(lambda d: d["meshes"][0]["primitives"][0].__setitem__("material", 7)))
case("ARRAY_LENGTH_NOT_IN_LIST", "/materials/0/pbrMetallicRoughness/baseColorFactor")(
    lambda: mutate(lambda d: d["materials"][0]["pbrMetallicRoughness"].__setitem__("baseColorFactor", [1, 0, 0])))
case("ARRAY_TYPE_MISMATCH", "/nodes/0/translation/1")(lambda: mutate(lambda d: d["nodes"][0].__setitem__("translation", [0, "1", 0])))
case("EMPTY_ENTITY", "/scenes/0/nodes")(lambda: mutate(lambda d: d["scenes"][0].__setitem__("nodes", [])))
case("DUPLICATE_ELEMENTS", "/scenes/0/nodes/1")(lambda: mutate(lambda d: d["scenes"][0].__setitem__("nodes", [0, 0])))
case("UNSATISFIED_DEPENDENCY", "/accessors/0/byteOffset")(
    lambda: mutate(lambda d: (d["accessors"][0].pop("bufferView"), d["accessors"][0].__setitem__("byteOffset", 0))))
case("VALUE_MULTIPLE_OF", "/bufferViews/0/byteStride")(lambda: mutate(lambda d: d["bufferViews"][0].__setitem__("byteStride", 13)))
case("PATTERN_MISMATCH", "/asset/version")(lambda: mutate(lambda d: d["asset"].__setitem__("version", "2")))
case("ONE_OF_MISMATCH", "/images/0")(lambda: mutate(lambda d: d.__setitem__("images", [{"name": "neither uri nor bufferView"}])))
case("INVALID_URI", "/images/0/uri")(lambda: mutate(lambda d: d.__setitem__("images", [{"uri": "bad%zzname.png"}])))
case("NON_RELATIVE_URI", "/images/0/uri")(lambda: mutate(lambda d: d.__setitem__("images", [{"uri": "https://example.com/a.png"}])))
case("NON_OBJECT_EXTRAS", "/nodes/0/extras")(lambda: mutate(lambda d: d["nodes"][0].__setitem__("extras", 5)))

# Semantics
case("UNKNOWN_ASSET_MAJOR_VERSION", "/asset/version")(lambda: mutate(lambda d: d["asset"].__setitem__("version", "3.0")))
case("UNKNOWN_ASSET_MINOR_VERSION", "/asset/version")(lambda: mutate(lambda d: d["asset"].__setitem__("version", "2.1")))
case("ASSET_MIN_VERSION_GREATER_THAN_VERSION", "/asset/minVersion")(lambda: mutate(lambda d: d["asset"].__setitem__("minVersion", "2.1")))
case("ACCESSOR_NORMALIZED_INVALID", "/accessors/0/normalized")(lambda: mutate(lambda d: d["accessors"][0].__setitem__("normalized", True)))
case("ACCESSOR_OFFSET_ALIGNMENT", "/accessors/2/byteOffset")(
    lambda: mutate(lambda d: (d["accessors"][2].__setitem__("byteOffset", 1), d["accessors"][2].__setitem__("count", 2),
                              d["meshes"][0]["primitives"][0].__setitem__("mode", 0))))
case("ACCESSOR_TOO_LONG", "/accessors/0")(lambda: mutate(lambda d: d["accessors"][0].__setitem__("count", 4)))
case("ACCESSOR_TOTAL_OFFSET_ALIGNMENT", "/accessors/1")(
    lambda: mutate(lambda d: (d["bufferViews"][1].__setitem__("byteOffset", 38), d["bufferViews"][1].__setitem__("byteLength", 34),
                              d["accessors"][1].__setitem__("componentType", 5126))))
case("BUFFER_VIEW_TOO_LONG", "/bufferViews/2")(lambda: mutate(lambda d: d["bufferViews"][2].__setitem__("byteLength", 60)))
case("BUFFER_VIEW_TOO_BIG_BYTE_STRIDE", "/bufferViews/0/byteStride")(lambda: mutate(lambda d: d["bufferViews"][0].__setitem__("byteStride", 40)))
case("CAMERA_ZFAR_LEQUAL_ZNEAR", "/cameras/0/perspective/zfar")(
    lambda: mutate(lambda d: d.__setitem__("cameras", [{"type": "perspective", "perspective": {"yfov": 1, "znear": 2, "zfar": 1}}])))
case("CAMERA_XMAG_YMAG_ZERO", "/cameras/0/orthographic/xmag")(
    lambda: mutate(lambda d: d.__setitem__("cameras", [{"type": "orthographic", "orthographic": {"xmag": 0, "ymag": 1, "znear": 0, "zfar": 1}}])))
case("CAMERA_YFOV_GEQUAL_PI", "/cameras/0/perspective/yfov")(
    lambda: mutate(lambda d: d.__setitem__("cameras", [{"type": "perspective", "perspective": {"yfov": 3.5, "znear": 0.1}}])))
case("MATERIAL_ALPHA_CUTOFF_INVALID_MODE", "/materials/0/alphaCutoff")(lambda: mutate(lambda d: d["materials"][0].__setitem__("alphaCutoff", 0.5)))
case("MESH_PRIMITIVE_NO_POSITION", "/meshes/0/primitives/0/attributes")(
    lambda: mutate(lambda d: d["meshes"][0]["primitives"][0]["attributes"].pop("POSITION")))
case("MESH_PRIMITIVE_INVALID_ATTRIBUTE", "/meshes/0/primitives/0/attributes/COLOUR")(
    lambda: mutate(lambda d: d["meshes"][0]["primitives"][0]["attributes"].__setitem__("COLOUR", 1)))
case("MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY", "/meshes/0/primitives/0/attributes")(
    lambda: mutate(lambda d: d["meshes"][0]["primitives"][0]["attributes"].__setitem__("COLOR_1", 1)))
case("MESH_PRIMITIVE_TANGENT_WITHOUT_NORMAL", "/meshes/0/primitives/0/attributes/TANGENT")(
    lambda: mutate(lambda d: (d["meshes"][0]["primitives"][0]["attributes"].pop("NORMAL"),
                              d["meshes"][0]["primitives"][0]["attributes"].__setitem__("TANGENT", 1))))
case("MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT", "/meshes/0/primitives/0/attributes/TEXCOORD_0")(
    lambda: mutate(lambda d: d["meshes"][0]["primitives"][0]["attributes"].__setitem__("TEXCOORD_0", 1)))
case("MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT", "/meshes/0/primitives/0/indices")(
    lambda: mutate(lambda d: d["accessors"][2].__setitem__("componentType", 5122)))
case("MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", "/meshes/0/primitives/0/attributes/POSITION")(
    lambda: mutate(lambda d: (d["accessors"][0].pop("min"), d["accessors"][0].pop("max"))))
case("MESH_PRIMITIVE_INCOMPATIBLE_MODE", "/meshes/0/primitives/0")(
    lambda: mutate(lambda d: d["meshes"][0]["primitives"][0].__setitem__("mode", 1)))
case("MESH_PRIMITIVE_TOO_FEW_TEXCOORDS", "/meshes/0/primitives/0/material")(
    lambda: mutate(lambda d: (d["materials"][0]["pbrMetallicRoughness"].__setitem__("baseColorTexture", {"index": 0}),
                              d.__setitem__("textures", [{}]))))
case("MESH_PRIMITIVE_MORPH_TARGET_NO_BASE_ACCESSOR", "/meshes/0/primitives/0/targets/0/TANGENT")(
    lambda: mutate(lambda d: d["meshes"][0]["primitives"][0].__setitem__("targets", [{"TANGENT": 1}])))
case("MESH_INVALID_WEIGHTS_COUNT", "/meshes/0/weights")(
    lambda: mutate(lambda d: (d["meshes"][0]["primitives"][0].__setitem__("targets", [{"NORMAL": 1}]), d["meshes"][0].__setitem__("weights", [0, 0]))))
case("MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE", "/meshes/0/primitives/0/attributes/NORMAL")(
    lambda: mutate(lambda d: (d["bufferViews"][0].__setitem__("byteLength", 72), d["accessors"][1].__setitem__("bufferView", 0),
                              d["accessors"][1].__setitem__("byteOffset", 36))))
case("NODE_MATRIX_TRS", "/nodes/0/matrix")(
    lambda: mutate(lambda d: d["nodes"][0].update({"matrix": [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1], "translation": [1, 0, 0]})))
case("NODE_MATRIX_DEFAULT", "/nodes/0/matrix")(lambda: mutate(lambda d: d["nodes"][0].__setitem__("matrix", [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])))
case("NODE_MATRIX_NON_TRS", "/nodes/0/matrix")(lambda: mutate(lambda d: d["nodes"][0].__setitem__("matrix", [1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])))
case("ROTATION_NON_UNIT", "/nodes/0/rotation")(lambda: mutate(lambda d: d["nodes"][0].__setitem__("rotation", [0, 0, 0, 0.5])))
case("NODE_EMPTY", "/nodes/1")(lambda: mutate(lambda d: (d["nodes"].append({}), d["scenes"][0]["nodes"].append(1))))
case("NODE_LOOP", "/nodes/1")(lambda: mutate(lambda d: d["nodes"].extend([{"children": [2]}, {"children": [1]}])))
case("NODE_PARENT_OVERRIDE", "/nodes/2/children/0")(
    lambda: mutate(lambda d: (d["nodes"].extend([{"children": [3]}, {"children": [3]}, {}]), d["scenes"][0]["nodes"].extend([1, 2]))))
case("SCENE_NON_ROOT_NODE", "/scenes/0/nodes/1")(
    lambda: mutate(lambda d: (d["nodes"].append({"children": [0]}), d["scenes"][0]["nodes"].insert(0, 1))))
case("UNUSED_OBJECT", "/materials/1")(lambda: mutate(lambda d: d["materials"].append({})))
case("UNDECLARED_EXTENSION", "/materials/0/extensions/KHR_materials_unlit")(
    lambda: mutate(lambda d: d["materials"][0].__setitem__("extensions", {"KHR_materials_unlit": {}})))
case("UNUSED_EXTENSION_REQUIRED", "/extensionsRequired/0")(lambda: mutate(lambda d: d.__setitem__("extensionsRequired", ["KHR_materials_unlit"])))
case("UNSUPPORTED_EXTENSION", "/extensionsUsed/0")(lambda: mutate(lambda d: d.__setitem__("extensionsUsed", ["EXT_made_up"])))
case("INVALID_EXTENSION_NAME_FORMAT", "/nodes/0/extensions/lowercase")(
    lambda: mutate(lambda d: (d.__setitem__("extensionsUsed", ["lowercase"]), d["nodes"][0].__setitem__("extensions", {"lowercase": {}}))))
case("UNEXPECTED_EXTENSION_OBJECT", "/nodes/0/extensions/KHR_materials_unlit")(
    lambda: mutate(lambda d: (d.__setitem__("extensionsUsed", ["KHR_materials_unlit"]), d["nodes"][0].__setitem__("extensions", {"KHR_materials_unlit": {}}))))
case("NON_REQUIRED_EXTENSION", "/extensionsUsed/0")(lambda: mutate(lambda d: d.__setitem__("extensionsUsed", ["KHR_mesh_quantization"])))
case("KHR_MATERIALS_EMISSIVE_STRENGTH_ZERO_FACTOR", "/materials/0/extensions/KHR_materials_emissive_strength")(
    lambda: mutate(lambda d: (d.__setitem__("extensionsUsed", ["KHR_materials_emissive_strength"]),
                              d["materials"][0].__setitem__("extensions", {"KHR_materials_emissive_strength": {"emissiveStrength": 5}}))))
case("IMAGE_NON_ENABLED_MIME_TYPE", "/images/0/mimeType")(
    lambda: mutate(lambda d: d.__setitem__("images", [{"bufferView": 2, "mimeType": "image/webp"}])))
def png(extra_chunk=b""):
    """A 1 x 1 grey PNG, with one more chunk before its pixels when given."""
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)) + extra_chunk
            + chunk(b"IDAT", zlib.compress(b"\0\x80")) + chunk(b"IEND", b""))


def textured_with(image_bytes):
    def change(d):
        d["images"] = [{"uri": "data:image/png;base64," + base64.b64encode(image_bytes).decode()}]
        d["textures"] = [{"source": 0}]
        d["materials"][0]["emissiveTexture"] = {"index": 0}
        d["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"] = 3
        d["bufferViews"].append({"buffer": 0, "byteOffset": 0, "byteLength": 24, "target": 34962})  # the positions' bytes, read as UVs
        d["accessors"].append({"bufferView": 3, "componentType": 5126, "count": 3, "type": "VEC2"})
    return change


case("IMAGE_FEATURES_UNSUPPORTED", "/images/0")(
    lambda: mutate(textured_with(png(struct.pack(">I", 8) + b"acTL" + struct.pack(">II", 1, 0) + b"\0\0\0\0"))))
case("BUFFER_DATA_URI_MIME_TYPE_INVALID", "/buffers/0/uri")(
    lambda: mutate(lambda d: d["buffers"][0].__setitem__("uri", d["buffers"][0]["uri"].replace("application/octet-stream", "text/plain"))))
case("BUFFER_BYTE_LENGTH_MISMATCH", "/buffers/0/byteLength")(lambda: mutate(lambda d: d["buffers"][0].__setitem__("byteLength", 200)))
case("IO_ERROR", "/buffers/1/uri")(lambda: mutate(lambda d: d["buffers"].append({"byteLength": 4, "uri": "missing.bin"})))

case("KHR_LIGHTS_PUNCTUAL_LIGHT_SPOT_ANGLES", "/extensions/KHR_lights_punctual/lights/0/spot")(
    lambda: mutate(lambda d: (d.__setitem__("extensionsUsed", ["KHR_lights_punctual"]),
                              d.__setitem__("extensions", {"KHR_lights_punctual": {"lights": [{"type": "spot", "spot": {"innerConeAngle": 0.5, "outerConeAngle": 0.4}}]}}),
                              d["nodes"][0].__setitem__("extensions", {"KHR_lights_punctual": {"light": 0}}))))
case("BUFFER_VIEW_TARGET_MISSING", "/bufferViews/1")(lambda: mutate(lambda d: d["bufferViews"][1].pop("target")))
case("BUFFER_VIEW_TARGET_OVERRIDE", "/meshes/0/primitives/0/attributes/NORMAL")(lambda: mutate(lambda d: d["bufferViews"][1].__setitem__("target", 34963)))
case("BUFFER_VIEW_INVALID_BYTE_STRIDE", "/bufferViews/2/byteStride")(lambda: mutate(lambda d: d["bufferViews"][2].__setitem__("byteStride", 4)))
case("UNUSED_MESH_WEIGHTS", "/meshes/0/weights")(
    lambda: mutate(lambda d: (d["meshes"][0]["primitives"][0].__setitem__("targets", [{"NORMAL": 1}]), d["meshes"][0].__setitem__("weights", [0]),
                              d["nodes"][0].__setitem__("weights", [1]))))
case("ACCESSOR_MATRIX_ALIGNMENT", "/accessors/3/byteOffset")(
    lambda: mutate(lambda d: (d["accessors"].append({"bufferView": 2, "byteOffset": 2, "componentType": 5121, "count": 1, "type": "MAT2"}),
                              d["nodes"].append({}), d["scenes"][0]["nodes"].append(1))))

# Skins and animations
def skinned(d, joints=(0, 1, 0, 0), weights=(1.0, 0.0, 0.0, 0.0), ibm_count=2):
    data = pack()
    joints_at = len(data)
    data += b"".join(struct.pack("<4B", *joints) for _ in range(3))
    weights_at = len(data)
    data += b"".join(struct.pack("<4f", *weights) for _ in range(3))
    ibm_at = len(data)
    data += b"".join(struct.pack("<16f", 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1) for _ in range(ibm_count))
    with_data(d, data)
    d["bufferViews"] += [{"buffer": 0, "byteOffset": joints_at, "byteLength": 12, "target": 34962},
                         {"buffer": 0, "byteOffset": weights_at, "byteLength": 48, "target": 34962},
                         {"buffer": 0, "byteOffset": ibm_at, "byteLength": 64 * ibm_count}]
    d["accessors"] += [{"bufferView": 3, "componentType": 5121, "count": 3, "type": "VEC4"},
                       {"bufferView": 4, "componentType": 5126, "count": 3, "type": "VEC4"},
                       {"bufferView": 5, "componentType": 5126, "count": ibm_count, "type": "MAT4"}]
    d["meshes"][0]["primitives"][0]["attributes"].update({"JOINTS_0": 3, "WEIGHTS_0": 4})
    d["nodes"] = [{"mesh": 0, "skin": 0}, {"children": [2]}, {}]
    d["scenes"][0]["nodes"] = [0, 1]
    d["skins"] = [{"joints": [1, 2], "inverseBindMatrices": 5}]


case("NODE_SKINNED_MESH_WITHOUT_SKIN", "/nodes/0")(lambda: mutate(lambda d: (skinned(d), d["nodes"][0].pop("skin"))))
case("ACCESSOR_WEIGHTS_NON_NORMALIZED", "/accessors/4")(lambda: mutate(lambda d: skinned(d, weights=(0.5, 0.0, 0.0, 0.0))))
case("ACCESSOR_WEIGHTS_NEGATIVE", "/accessors/4")(lambda: mutate(lambda d: skinned(d, weights=(1.5, -0.5, 0.0, 0.0))))
case("ACCESSOR_JOINTS_INDEX_OOB", "/accessors/3")(lambda: mutate(lambda d: skinned(d, joints=(5, 0, 0, 0))))
case("ACCESSOR_JOINTS_INDEX_DUPLICATE", "/accessors/3")(lambda: mutate(lambda d: skinned(d, joints=(1, 1, 0, 0), weights=(0.5, 0.5, 0, 0))))
case("ACCESSOR_JOINTS_USED_ZERO_WEIGHT", "/accessors/3")(lambda: mutate(lambda d: skinned(d, joints=(0, 1, 0, 0))))
case("INVALID_IBM_ACCESSOR_COUNT", "/skins/0/inverseBindMatrices")(lambda: mutate(lambda d: skinned(d, ibm_count=1)))
case("SKIN_NO_COMMON_ROOT", "/skins/0/joints")(
    lambda: mutate(lambda d: (skinned(d), d["nodes"][1].pop("children"), d["scenes"][0]["nodes"].append(2))))
case("NODE_SKIN_NO_SCENE", "/nodes/0")(lambda: mutate(lambda d: (skinned(d), d["scenes"][0].__setitem__("nodes", [0]))))
case("NODE_SKINNED_MESH_NON_ROOT", "/nodes/0")(
    lambda: mutate(lambda d: (skinned(d), d["nodes"].append({"children": [0]}), d["scenes"][0].__setitem__("nodes", [3, 1]))))


def animated(d, times=(0.0, 1.0), path="translation", values=None, interpolation="LINEAR", bounds=True):
    values = values if values is not None else [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0)]
    data = pack()
    times_at = len(data)
    data += struct.pack(f"<{len(times)}f", *times)
    values_at = len(data)
    width = len(values[0])
    data += b"".join(struct.pack(f"<{width}f", *v) for v in values)
    with_data(d, data)
    d["bufferViews"] += [{"buffer": 0, "byteOffset": times_at, "byteLength": 4 * len(times)},
                         {"buffer": 0, "byteOffset": values_at, "byteLength": 4 * width * len(values)}]
    time_accessor = {"bufferView": 3, "componentType": 5126, "count": len(times), "type": "SCALAR"}
    if bounds:
        time_accessor.update({"min": [min(times)], "max": [max(times)]})
    d["accessors"] += [time_accessor, {"bufferView": 4, "componentType": 5126, "count": len(values), "type": {3: "VEC3", 4: "VEC4"}[width]}]
    d["animations"] = [{"channels": [{"sampler": 0, "target": {"node": 0, "path": path}}],
                        "samplers": [{"input": 3, "output": 4, "interpolation": interpolation}]}]


case("ACCESSOR_ANIMATION_INPUT_NON_INCREASING", "/accessors/3")(lambda: mutate(lambda d: animated(d, times=(1.0, 0.5))))
case("ACCESSOR_ANIMATION_INPUT_NEGATIVE", "/accessors/3")(lambda: mutate(lambda d: animated(d, times=(-1.0, 0.5))))
case("ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", "/animations/0/samplers/0/input")(lambda: mutate(lambda d: animated(d, bounds=False)))
case("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", "/animations/0/samplers/0/output")(
    lambda: mutate(lambda d: animated(d, values=[(0.0, 0.0, 0.0)] * 3)))
case("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", "/animations/0/samplers/0/output")(
    lambda: mutate(lambda d: animated(d, path="rotation")))
case("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", "/accessors/4")(
    lambda: mutate(lambda d: animated(d, path="rotation", values=[(0.0, 0.0, 0.0, 1.0), (0.0, 0.0, 0.0, 2.0)])))
case("ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS", "/animations/0/samplers/0/input")(
    lambda: mutate(lambda d: animated(d, times=(0.0,), values=[(0.0, 0.0, 0.0)] * 3, interpolation="CUBICSPLINE")))
case("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", "/animations/0/channels/0/target/node")(
    lambda: mutate(lambda d: (animated(d), d["nodes"][0].__setitem__("matrix", [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1]))))
case("ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS", "/animations/0/channels/0/target/node")(
    lambda: mutate(lambda d: animated(d, path="weights", values=[(0.0, 0.0, 0.0)] * 2)))
case("ANIMATION_DUPLICATE_TARGETS", "/animations/0/channels/1")(
    lambda: mutate(lambda d: (animated(d), d["animations"][0]["channels"].append({"sampler": 0, "target": {"node": 0, "path": "translation"}}))))

# Data
case("ACCESSOR_MIN_MISMATCH", "/accessors/0/min/0")(lambda: mutate(lambda d: d["accessors"][0].__setitem__("min", [-1, 0, 0])))
case("ACCESSOR_MAX_MISMATCH", "/accessors/0/max/1")(lambda: mutate(lambda d: d["accessors"][0].__setitem__("max", [1, 2, 0])))
case("ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND", "/accessors/0/max/0")(lambda: mutate(lambda d: d["accessors"][0].__setitem__("max", [0.5, 1, 0])))
case("ACCESSOR_INVALID_FLOAT", "/accessors/1")(lambda: with_data(base(), pack(normals=[(0.0, 0.0, float("nan"))] * 3)))
case("ACCESSOR_VECTOR3_NON_UNIT", "/accessors/1")(lambda: with_data(base(), pack(normals=[(0.0, 0.0, 2.0)] * 3)))
case("ACCESSOR_INDEX_OOB", "/accessors/2")(lambda: with_data(base(), pack(indices=[0, 1, 9])))
case("ACCESSOR_INDEX_PRIMITIVE_RESTART", "/accessors/2")(lambda: with_data(base(), pack(indices=[0, 1, 65535])))
case("ACCESSOR_INDEX_TRIANGLE_DEGENERATE", "/accessors/2")(lambda: with_data(base(), pack(indices=[0, 1, 1])))


def glb_case(code, make):
    CASES[code] = (make, "GLB")


BASE_DOC = base()
DATA = pack()
glb_case("GLB_INVALID_MAGIC", lambda: glb(BASE_DOC, DATA, magic=b"glTf"))
glb_case("GLB_INVALID_VERSION", lambda: glb(BASE_DOC, DATA, version=1))
glb_case("GLB_LENGTH_MISMATCH", lambda: glb(BASE_DOC, DATA, length_delta=-4))
glb_case("GLB_EXTRA_DATA", lambda: glb(BASE_DOC, DATA, extra=b"\0\0\0\0"))
glb_case("GLB_UNEXPECTED_FIRST_CHUNK", lambda: glb(BASE_DOC, DATA, json_type=0x12345678))
glb_case("GLB_UNKNOWN_CHUNK_TYPE", lambda: glb(BASE_DOC, DATA) + struct.pack("<II", 4, 0x41424344) + b"abcd")
glb_case("GLB_UNEXPECTED_END_OF_HEADER", lambda: b"glTF\x02\0\0")
glb_case("BUFFER_GLB_CHUNK_TOO_BIG", lambda: glb(BASE_DOC, DATA + b"\0" * 8, buffer_length=len(DATA)))


def main():
    expected = {}
    (HERE / "base.gltf").write_text(json.dumps(base(), indent=1) + "\n")
    (HERE / "base.glb").write_bytes(glb(BASE_DOC, DATA))
    for code, (make, pointer) in CASES.items():
        made = make()
        if isinstance(made, bytes):
            name = code + ".glb"
            if code == "GLB_UNKNOWN_CHUNK_TYPE":  # the header's length must cover the extra chunk
                made = made[:8] + struct.pack("<I", len(made)) + made[12:]
            (HERE / name).write_bytes(made)
        else:
            name = code + ".gltf"
            (HERE / name).write_text(json.dumps(made, indent=1) + "\n")
        expected[name] = {"code": code, "pointer": pointer}
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
    print(f"{len(expected)} fixtures")


if __name__ == "__main__":
    main()

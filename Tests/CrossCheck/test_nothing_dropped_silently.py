"""Every glTF and Collada fixture, walked: whatever the file holds that assetc does not carry is named in a
warning. glTF (pygltflib): extensions used, POINTS primitives (kept as point clouds), attributes beyond the ones kept, materials
referenced, animation channels (node targets and KHR_animation_pointer on nodes, materials and lights), cameras. Collada (the XML): every
channel target either drives a node transform or a morph weight, or is named; every clip is read."""
import xml.etree.ElementTree as ET

import pygltflib
import pytest

from conftest import FIXTURES, assetc_info

# What assetc's glTF reader carries (Docs/FormatSupport.md); any other extension must be named.
CARRIED_EXTENSIONS = {"KHR_lights_punctual", "KHR_materials_emissive_strength", "KHR_materials_unlit", "KHR_texture_transform",
                      "KHR_mesh_quantization", "EXT_meshopt_compression", "KHR_draco_mesh_compression", "EXT_texture_webp",
                      "KHR_materials_pbrSpecularGlossiness", "KHR_materials_transmission", "KHR_materials_clearcoat",
                      "KHR_materials_ior", "KHR_materials_variants", "KHR_animation_pointer", "KHR_gaussian_splatting"}
KEPT_ATTRIBUTES = ("POSITION", "NORMAL", "TANGENT", "TEXCOORD_", "COLOR_0", "JOINTS_", "WEIGHTS_")
ANIMATED_PATHS = {"translation", "rotation", "scale", "weights"}
# KHR_animation_pointer material properties assetc animates (on untextured inputs).
MATERIAL_POINTERS = {"pbrMetallicRoughness/baseColorFactor", "emissiveFactor", "pbrMetallicRoughness/metallicFactor",
                     "pbrMetallicRoughness/roughnessFactor"}
# KHR_lights_punctual light properties assetc animates.
LIGHT_POINTERS = {"color", "intensity"}
LIGHT_PREFIX = "/extensions/KHR_lights_punctual/lights/"
# Collada effect parameters assetc animates; the others must be named.
MAPPED_EFFECT_PARAMETERS = {"diffuse", "emission", "transparent", "transparency", "shininess"}

GLTF = sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".gltf", ".glb") and "fail-case" not in p.parts
              and "validation" not in p.parts)  # validation/ holds broken files on purpose, one per Khronos code
COLLADA = sorted(p for p in FIXTURES.rglob("*.dae") if "fail-case" not in p.parts)


def named(warnings, *words):
    return any(all(w in warning for w in words) for warning in warnings)


@pytest.mark.parametrize("path", GLTF, ids=[str(p.relative_to(FIXTURES)) for p in GLTF])
def test_gltf_loses_nothing_unnamed(path):
    document = pygltflib.GLTF2().load(str(path))
    info = assetc_info(path)
    warnings = info["warnings"]
    for extension in document.extensionsUsed or []:
        assert extension in CARRIED_EXTENSIONS or named(warnings, extension), f"{extension} neither carried nor named"
    referenced = set()
    cloud_points = 0
    for mesh in document.meshes:
        for primitive in mesh.primitives:
            splats = "KHR_gaussian_splatting" in (primitive.extensions or {})
            if primitive.mode == 0 and not splats:
                cloud_points += document.accessors[primitive.attributes.POSITION].count
            attributes = {k: v for k, v in vars(primitive.attributes).items() if v is not None and not k.startswith("_")}
            for name in attributes:
                if not name.startswith(KEPT_ATTRIBUTES) and not (splats and name.startswith("KHR_gaussian_splatting:")):
                    assert named(warnings, name), f"attribute {name} left out without a word"
            if primitive.material is not None:
                referenced.add(primitive.material)
            for mapping in (primitive.extensions or {}).get("KHR_materials_variants", {}).get("mappings", []):
                referenced.add(mapping["material"])
    assert info["points"] >= cloud_points, f"POINTS primitives hold {cloud_points} points, {info['points']} read"
    assert info["materials"] >= len(referenced) or named(warnings, "material"), f"{len(referenced)} materials used, {info['materials']} read"
    clips_with_channels = 0
    animated_materials = set()
    animated_lights = set()
    for k, animation in enumerate(document.animations or []):
        usable = 0
        for channel in animation.channels:
            pointer = ((channel.target.extensions or {}).get("KHR_animation_pointer") or {}).get("pointer")
            if channel.target.node is not None and channel.target.path in ANIMATED_PATHS:
                usable += 1
            elif pointer and pointer.split("/")[1:2] in (["nodes"], ["meshes"]) and pointer.rsplit("/", 1)[-1] in ANIMATED_PATHS:
                usable += 1
            elif pointer and pointer.startswith("/materials/") and pointer.split("/", 3)[-1] in MATERIAL_POINTERS:
                usable += 1
                animated_materials.add(pointer.split("/")[2])
            elif pointer and pointer.startswith(LIGHT_PREFIX) and pointer.rsplit("/", 1)[-1] in LIGHT_POINTERS:
                usable += 1
                animated_lights.add(pointer[len(LIGHT_PREFIX):].split("/")[0])
            else:
                assert named(warnings, pointer or channel.target.path), f"animations[{k}] channel {pointer or channel.target.path} dropped silently"
        clips_with_channels += usable > 0
    assert info["animations"] == clips_with_channels or named(warnings, "channel")
    assert info["animatedMaterials"] == len(animated_materials) or named(warnings, "KHR_animation_pointer"), "a material pointer read as nothing"
    assert info["animatedLights"] == len(animated_lights) or named(warnings, "KHR_animation_pointer"), "a light pointer read as nothing"
    placed_cameras = sum(1 for node in document.nodes if node.camera is not None)
    assert info["cameras"] >= min(placed_cameras, 1) or named(warnings, "camera")


NS = "{http://www.collada.org/2005/11/COLLADASchema}"


@pytest.mark.parametrize("path", COLLADA, ids=[str(p.relative_to(FIXTURES)) for p in COLLADA])
def test_collada_loses_nothing_unnamed(path):
    root = ET.parse(str(path)).getroot()
    info = assetc_info(path)
    warnings = info["warnings"]
    sids = {}
    for node in root.iter(NS + "node"):
        if node.get("id"):
            sids[node.get("id")] = {child.get("sid") for child in node if child.get("sid")}
    morph_weights = {put.get("source")[1:] for put in root.iter(NS + "input") if put.get("semantic") == "MORPH_WEIGHT"}
    # Each effect's sids, as the parameter they sit in (<color sid="diffuse-color"> under <diffuse>).
    effect_sids = {}
    for effect in root.iter(NS + "effect"):
        found = effect_sids.setdefault(effect.get("id"), {})
        for parameter in effect.iter():
            for child in parameter:
                if child.get("sid") and child.tag in (NS + "color", NS + "float"):
                    found[child.get("sid")] = parameter.tag.replace(NS, "")
    animated_effects = set()
    controllers = {c.get("id") for c in root.iter(NS + "controller")}
    for channel in root.iter(NS + "channel"):
        target = channel.get("target")
        head, _, rest = target.partition("/")
        element = rest.split(".")[0].split("(")[0]
        drives_node = head in sids and element in sids[head]
        drives_morph = target.split("(")[0] in morph_weights or head in controllers
        last = target.rsplit("/", 1)[-1].split(".")[0].split("(")[0]
        parameter = effect_sids.get(head, {}).get(last, last)
        drives_material = head in effect_sids and parameter in MAPPED_EFFECT_PARAMETERS
        if drives_material:
            animated_effects.add(head)
        assert drives_node or drives_morph or drives_material or named(warnings, target), f"channel {target} dropped silently"
    assert bool(animated_effects) == (info["animatedMaterials"] > 0) or named(warnings, "effect"), "an effect channel read as nothing"
    clips = len(list(root.iter(NS + "animation_clip")))
    animations = len(list(root.iter(NS + "animation")))
    expected = clips if clips else (1 if animations else 0)
    assert info["animations"] == expected or named(warnings, "clip"), f"{expected} clips in the file, {info['animations']} read"

"""glTF material extensions and variants (Tests/Fixtures/gltf/material_extensions: glbs Blender's exporter
wrote, one extension each, and hand-written KHR_materials_pbrSpecularGlossiness files) as usd-core reads
assetc's usda, as pygltflib reads assetc's glb, and as Blender imports assetc's glb: the values land on the
UsdPreviewSurface inputs and glTF extensions the issue names; what has no place is named in a warning, once;
material variants switch materials in usd-core as the glTF maps them."""
import json
import math
import subprocess

import pygltflib
import pytest
from pxr import Usd, UsdShade

from blender_reference import blender
from conftest import FIXTURES, assetc_binary, assetc_info

FOLDER = FIXTURES / "gltf" / "material_extensions"


def convert(source, out):
    result = subprocess.run([assetc_binary(), "convert", "--force", str(source), str(out)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stderr


def surface_inputs(path):
    """{material name: {input name: value or ('texture', file, output, scale, bias)}} from a usd file, by usd-core."""
    stage = Usd.Stage.Open(str(path))
    found = {}
    for prim in stage.Traverse():
        if not prim.IsA(UsdShade.Material):
            continue
        surface = UsdShade.Material(prim).ComputeSurfaceSource()[0]
        values = {}
        for shader_input in surface.GetInputs():
            name = shader_input.GetBaseName()
            if shader_input.HasConnectedSource():
                source, output, _ = shader_input.GetConnectedSource()
                texture = UsdShade.Shader(source.GetPrim())
                get = lambda n: texture.GetInput(n).Get() if texture.GetInput(n) else None
                values[name] = ("texture", str(get("file").path), output, get("scale"), get("bias"))
            else:
                values[name] = shader_input.Get()
        found[prim.GetName()] = values
    return found


def gltf_json(path):
    return pygltflib.GLTF2().load(str(path))


EXPECTED_USD = {
    "clearcoat.glb": {"clearcoat": 0.8, "clearcoatRoughness": 0.2},
    "ior.glb": {"ior": 1.33, "opacity": 0.5},
    "transmission.glb": {"opacity": 0.25},
    "emissive_strength.glb": {"emissiveColor": (6.0, 3.0, 0.6)},
    "spec_gloss.gltf": {"useSpecularWorkflow": 1, "specularColor": (0.9, 0.8, 0.3), "roughness": 0.3, "diffuseColor": (0.6, 0.1, 0.1)},
}


def close(a, b, tolerance=1e-3):
    if isinstance(b, tuple):
        return len(a) == len(b) and all(abs(x - y) <= tolerance for x, y in zip(a, b))
    return abs(a - b) <= tolerance


@pytest.mark.parametrize("name", sorted(EXPECTED_USD))
def test_usd_core_reads_the_extension_values(name, tmp_path):
    out = tmp_path / "out.usda"
    convert(FOLDER / name, out)
    (inputs,) = surface_inputs(out).values()
    for key, expected in EXPECTED_USD[name].items():
        assert key in inputs, f"{name}: no inputs:{key} in {sorted(inputs)}"
        assert close(tuple(inputs[key]) if isinstance(expected, tuple) else inputs[key], expected), f"{name}: {key} = {inputs[key]}, not {expected}"


def test_specular_glossiness_textures_become_specular_and_one_minus_gloss(tmp_path):
    out = tmp_path / "out.usda"
    convert(FOLDER / "spec_gloss_textured.gltf", out)
    (inputs,) = surface_inputs(out).values()
    assert inputs["useSpecularWorkflow"] == 1
    kind, file, output, scale, bias = inputs["roughness"]
    assert file.endswith("spec_gloss_specular.png") and output == "a"
    assert close(tuple(scale), (-0.8,) * 4) and close(tuple(bias), (1,) * 4), "roughness = 1 - 0.8 * alpha"
    assert inputs["specularColor"][1].endswith("spec_gloss_specular.png") and inputs["specularColor"][2] == "rgb"
    assert inputs["diffuseColor"][1].endswith("spec_gloss_diffuse.png")


def metallic_from_specular(diffuse, specular):
    """The published specular-glossiness to metallic-roughness conversion, written out here in Python."""
    brightness = lambda c: math.sqrt(0.299 * c[0] ** 2 + 0.587 * c[1] ** 2 + 0.114 * c[2] ** 2)
    one_minus = 1 - max(specular)
    d, s = brightness(diffuse), brightness(specular)
    if s < 0.04:
        return 0.0
    b = d * one_minus / 0.96 + s - 0.08
    return min(max((-b + math.sqrt(b * b - 4 * 0.04 * (0.04 - s))) / 0.08, 0), 1)


def test_specular_glossiness_becomes_the_nearest_metallic_roughness_in_glb(tmp_path):
    out = tmp_path / "out.glb"
    stderr = convert(FOLDER / "spec_gloss.gltf", out)
    assert stderr.count("no specular workflow") == 1
    material = gltf_json(out).materials[0]
    expected = metallic_from_specular((0.6, 0.1, 0.1), (0.9, 0.8, 0.3))
    assert abs(material.pbrMetallicRoughness.metallicFactor - expected) < 1e-4
    assert abs(material.pbrMetallicRoughness.roughnessFactor - 0.3) < 1e-6
    assert "KHR_materials_pbrSpecularGlossiness" not in (gltf_json(out).extensionsUsed or [])


@pytest.mark.parametrize("name,extension,expected", [
    ("clearcoat.glb", "KHR_materials_clearcoat", {"clearcoatFactor": 0.8, "clearcoatRoughnessFactor": 0.2}),
    ("ior.glb", "KHR_materials_ior", {"ior": 1.33}),
    ("emissive_strength.glb", "KHR_materials_emissive_strength", {"emissiveStrength": 6.0}),
])
def test_glb_through_usdz_keeps_the_extension(name, extension, expected, tmp_path):
    usdz, glb = tmp_path / "mid.usdz", tmp_path / "back.glb"
    convert(FOLDER / name, usdz)
    convert(usdz, glb)
    document = gltf_json(glb)
    assert extension in document.extensionsUsed
    values = document.materials[0].extensions[extension]
    for key, value in expected.items():
        assert abs(values[key] - value) < 1e-3, f"{extension}.{key} = {values[key]}"


def test_glb_to_glb_keeps_transmission_apart_from_opacity(tmp_path):
    """Transmission is folded into opacity for USD and the renderer; glTF output holds it apart again:
    the same factor, the source's alpha and OPAQUE mode (pygltflib's reading of both files)."""
    out = tmp_path / "back.glb"
    convert(FOLDER / "transmission.glb", out)
    source, back = gltf_json(FOLDER / "transmission.glb").materials[0], gltf_json(out).materials[0]
    assert back.extensions["KHR_materials_transmission"] == source.extensions["KHR_materials_transmission"]
    assert back.alphaMode == source.alphaMode
    assert abs(back.pbrMetallicRoughness.baseColorFactor[3] - source.pbrMetallicRoughness.baseColorFactor[3]) < 1e-6


@pytest.mark.parametrize("name,extension", [("sheen.glb", "KHR_materials_sheen"), ("specular.glb", "KHR_materials_specular")])
def test_an_extension_without_a_place_is_named_once(name, extension):
    warnings = assetc_info(FOLDER / name)["warnings"]
    assert sum(extension in w for w in warnings) == 1, warnings


def gltf_variant_map(path):
    """{variant name: {node name: material name}} from the glTF's own mappings (pygltflib)."""
    document = gltf_json(path)
    names = [v["name"] for v in document.extensions["KHR_materials_variants"]["variants"]]
    result = {name: {} for name in names}
    for node in document.nodes:
        if node.mesh is None:
            continue
        for primitive in document.meshes[node.mesh].primitives:
            for mapping in primitive.extensions["KHR_materials_variants"]["mappings"]:
                for v in mapping["variants"]:
                    result[names[v]][node.name] = document.materials[mapping["material"]].name
    return result


def usd_variant_map(path):
    stage = Usd.Stage.Open(str(path))
    root = stage.GetDefaultPrim()
    variant_set = root.GetVariantSet("materialVariant")
    selected = variant_set.GetVariantSelection()
    result = {}
    for name in variant_set.GetVariantNames():
        variant_set.SetVariantSelection(name)
        result[name] = {p.GetParent().GetName() if p.GetName() == "Mesh" else p.GetName():
                        UsdShade.MaterialBindingAPI(p).ComputeBoundMaterial()[0].GetPrim().GetName()
                        for p in stage.Traverse() if p.GetTypeName() == "Mesh"}
    return result, selected


@pytest.mark.parametrize("fmt", ["usda", "usdz"])
def test_variants_switch_materials_in_usd_core_as_the_gltf_says(fmt, tmp_path):
    out = tmp_path / f"out.{fmt}"
    convert(FOLDER / "variants.glb", out)
    expected = gltf_variant_map(FOLDER / "variants.glb")
    found, selected = usd_variant_map(out)
    assert found == expected
    assert selected == "Crimson", "the first variant is selected"


def test_variants_survive_glb_usdz_glb_usda(tmp_path):
    steps = [tmp_path / "a.usdz", tmp_path / "b.glb", tmp_path / "c.usda"]
    current = FOLDER / "variants.glb"
    for step in steps:
        convert(current, step)
        current = step
    assert gltf_variant_map(steps[1]) == gltf_variant_map(FOLDER / "variants.glb")
    assert usd_variant_map(steps[2])[0] == gltf_variant_map(FOLDER / "variants.glb")
    assert assetc_info(steps[2])["materialVariants"] == ["Crimson", "Navy"]


def test_a_format_without_variants_names_them(tmp_path):
    stderr = convert(FOLDER / "variants.glb", tmp_path / "out.dae")
    assert "no material variants: Crimson, Navy" in stderr


BLENDER_MATERIALS = '''
result = {}
for path in sys.argv[1:]:
    fresh()
    # The importer keeps variants only with its variants panel on (it registers the scene's list).
    bpy.context.preferences.addons["io_scene_gltf2"].preferences.KHR_materials_variants_ui = True
    bpy.ops.import_scene.gltf(filepath=path)
    mats = {}
    for m in bpy.data.materials:
        if not m.use_nodes:
            continue
        bsdf = next((n for n in m.node_tree.nodes if n.type == "BSDF_PRINCIPLED"), None)
        if bsdf is None:
            continue
        mats[m.name] = {k: (list(bsdf.inputs[k].default_value) if hasattr(bsdf.inputs[k].default_value, "__len__") else bsdf.inputs[k].default_value)
                        for k in ("Coat Weight", "Coat Roughness", "IOR", "Emission Strength", "Metallic", "Roughness", "Base Color")}
    variants = [v.name for v in bpy.context.scene.gltf2_KHR_materials_variants_variants]
    result[path.rsplit("/", 1)[-1]] = {"materials": mats, "variants": variants}
answer(result)
'''


def test_blender_imports_what_assetc_writes(tmp_path):
    written = []
    for name in ("clearcoat.glb", "ior.glb", "emissive_strength.glb", "variants.glb"):
        out = tmp_path / name
        convert(FOLDER / name, tmp_path / (name + ".usdz"))
        convert(tmp_path / (name + ".usdz"), out)
        written.append(out)
    seen = blender(BLENDER_MATERIALS, *written)
    coat = seen["clearcoat.glb"]["materials"]["clearcoat"]
    assert abs(coat["Coat Weight"] - 0.8) < 1e-3 and abs(coat["Coat Roughness"] - 0.2) < 1e-3
    assert abs(seen["ior.glb"]["materials"]["ior"]["IOR"] - 1.33) < 1e-3
    assert abs(seen["emissive_strength.glb"]["materials"]["emissive_strength"]["Emission Strength"] - 6.0) < 1e-3
    assert seen["variants.glb"]["variants"] == ["Crimson", "Navy"]
    assert sorted(seen["variants.glb"]["materials"]) == ["Blue", "Gold", "Red"]

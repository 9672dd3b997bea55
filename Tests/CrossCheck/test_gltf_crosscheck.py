"""assetc's figures for every glTF fixture against independent readers: placed triangles and line
segments against assimp, world bounds against trimesh (assimp where trimesh cannot read the
feature, with the reason), materials and textures against pygltflib's reading of the JSON."""
import subprocess

import pygltflib
import pytest
import trimesh

from collada_reference import assimp_bounds, assimp_triangles
from conftest import FIXTURES, assetc_binary, assetc_info, close

CASES = sorted(p for p in (FIXTURES / "gltf").glob("*") if p.suffix in (".gltf", ".glb"))

# fixture -> why trimesh's bounds are not the reference (assimp's are used instead)
TRIMESH_WRONG = {
    "sparse_accessors.gltf": "trimesh ignores sparse accessors",
    "strips_fans_lines.glb": "trimesh reads TRIANGLE_STRIP and TRIANGLE_FAN as separate triangles",
}


def test_there_are_cases():
    assert len(CASES) >= 6


def trimesh_bounds(path):
    scene = trimesh.load(str(path), force="scene", process=False)
    return {"min": scene.bounds[0].tolist(), "max": scene.bounds[1].tolist()}


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_triangles_and_segments_match_assimp(path):
    mine = assetc_info(path)
    assert mine["triangles"] == assimp_triangles(str(path))
    assert mine["segments"] == assimp_triangles(str(path), kind="line")


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_bounds_match_the_reference(path):
    mine = assetc_info(path)
    reference = assimp_bounds(path) if path.name in TRIMESH_WRONG else trimesh_bounds(path)
    for corner in ("min", "max"):
        for a, b in zip(mine["bounds"][corner], reference[corner]):
            assert close(a, b, 20), f"{corner}: assetc {mine['bounds']} != {reference}"


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_materials_and_textures_match_pygltflib(path):
    gltf = pygltflib.GLTF2().load(str(path))
    used_materials = {p.material for m in gltf.meshes for p in m.primitives if p.material is not None}
    mine = assetc_info(path)
    assert mine["materials"] == len(used_materials)
    assert mine["textures"] == len(gltf.textures)


def test_instancing_places_one_mesh_three_times_and_leaves_other_scenes_out():
    mine = assetc_info(FIXTURES / "gltf" / "nodes_instancing.gltf")
    assert mine["meshes"] == 3 and mine["cameras"] == 1 and mine["lights"] == 1
    assert "/Root/Plain/Camera" in mine["nodePaths"] and not any("NotInTheScene" in p for p in mine["nodePaths"])


def test_normalized_texcoords_and_colours_decode_to_unit_range(tmp_path):
    """The usda assetc writes from the normalized fixture holds the decoded values: bytes 255 -> 1,
    shorts 65535 -> 1 and 32768 -> 0.500008, V flipped to USD's bottom-left origin."""
    out = tmp_path / "n.usda"
    subprocess.run([assetc_binary(), "convert", str(FIXTURES / "gltf" / "normalized_attributes.glb"), str(out)],
                   check=True, capture_output=True)
    from pxr import Usd, UsdGeom
    stage = Usd.Stage.Open(str(out))
    mesh = next(UsdGeom.Mesh(p) for p in stage.Traverse() if p.IsA(UsdGeom.Mesh))
    api = UsdGeom.PrimvarsAPI(mesh)
    st = [tuple(v) for v in api.GetPrimvar("st").ComputeFlattened()]
    st1 = [tuple(v) for v in api.GetPrimvar("st1").ComputeFlattened()]
    assert st[:2] == [(0.0, 0.0), (1.0, 0.0)]
    assert st1[2] == (1.0, 0.0)
    opacity = list(api.GetPrimvar("displayOpacity").ComputeFlattened())
    assert opacity[0] == 1.0 and close(opacity[2], 32768 / 65535, 1, rel=1e-6)


def test_webp_textures_draw_like_their_png_twin_and_become_png_in_usdz(tmp_path):
    """checker_webp.gltf's WebP is the checker and its PNG fallback plain red: drawing the checker
    means the WebP was decoded. The usdz holds it as PNG, which AR Quick Look requires."""
    import zipfile
    for name in ("checker_png.gltf", "checker_webp.gltf"):
        subprocess.run([assetc_binary(), "thumbnail", str(FIXTURES / "gltf" / name), "--out", str(tmp_path), "--size", "64"],
                       check=True, capture_output=True)
    assert (tmp_path / "checker_png.gltf.png").read_bytes() == (tmp_path / "checker_webp.gltf.png").read_bytes()
    out = tmp_path / "w.usdz"
    result = subprocess.run([assetc_binary(), "convert", str(FIXTURES / "gltf" / "checker_webp.gltf"), str(out)],
                            capture_output=True, text=True, check=True)
    assert "textures converted to PNG" in result.stderr and "(WebP)" in result.stderr
    names = zipfile.ZipFile(out).namelist()
    assert any(n.endswith(".png") for n in names) and not any(n.endswith(".webp") for n in names)


def test_webp_stays_webp_in_gltf_with_a_png_fallback(tmp_path):
    """glTF carries WebP under EXT_texture_webp: the glb keeps the source's WebP bytes under the extension
    (used, not required) and adds a PNG of the same pixels (Pillow's reading of the WebP) as the texture's
    source, for viewers without it. Both pass validation; the .gltf form writes both files."""
    import base64
    import io
    import json
    import numpy
    from PIL import Image
    source = json.loads((FIXTURES / "gltf" / "checker_webp.gltf").read_text())
    webp = base64.b64decode(source["images"][1]["uri"].split(",", 1)[1])
    out = tmp_path / "w.glb"
    result = subprocess.run([assetc_binary(), "convert", str(FIXTURES / "gltf" / "checker_webp.gltf"), str(out)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "converted to PNG" not in result.stderr, result.stderr
    glb = pygltflib.GLTF2().load(str(out))
    assert glb.extensionsUsed == ["EXT_texture_webp"] and not glb.extensionsRequired
    (texture,) = glb.textures
    blob = glb.binary_blob()

    def image_bytes(index):
        view = glb.bufferViews[glb.images[index].bufferView]
        return blob[view.byteOffset or 0:(view.byteOffset or 0) + view.byteLength], glb.images[index].mimeType

    kept, kept_mime = image_bytes(texture.extensions["EXT_texture_webp"]["source"])
    fallback, fallback_mime = image_bytes(texture.source)
    assert (kept, kept_mime) == (webp, "image/webp")
    assert fallback_mime == "image/png"
    expected = numpy.asarray(Image.open(io.BytesIO(webp)).convert("RGBA"))
    assert numpy.array_equal(numpy.asarray(Image.open(io.BytesIO(fallback)).convert("RGBA")), expected)
    report = json.loads(subprocess.run([assetc_binary(), "validate", "--json", str(out)], capture_output=True, text=True).stdout)
    assert report["errors"] == 0 and report["warnings"] == 0, report
    split = tmp_path / "split" / "w.gltf"
    split.parent.mkdir()
    assert subprocess.run([assetc_binary(), "convert", str(FIXTURES / "gltf" / "checker_webp.gltf"), str(split)], capture_output=True).returncode == 0
    written = sorted(p.suffix for p in split.parent.rglob("*") if p.is_file())
    assert written == [".bin", ".gltf", ".png", ".webp"], written
    # Read back, the WebP is what the material samples (the checker, not the red fallback).
    assert assetc_info(out)["textures"] == 1


def test_materials_map_onto_usd_preview_surface_as_ar_quick_look_reads_them(tmp_path):
    """materials.gltf through usdz, read by usd-core: metallic from the metallic-roughness texture's
    blue channel and roughness from its green; the normal map raw with scale (2,2,2,1) and bias
    (-1,-1,-1,0); MASK as opacityThreshold; emissive times KHR_materials_emissive_strength; unlit as
    emissive colour."""
    from pxr import Usd, UsdShade
    out = tmp_path / "m.usdz"
    subprocess.run([assetc_binary(), "convert", str(FIXTURES / "gltf" / "materials.gltf"), str(out)], check=True, capture_output=True)
    stage = Usd.Stage.Open(str(out))
    surfaces = {p.GetName(): UsdShade.Material(p).ComputeSurfaceSource()[0] for p in stage.Traverse() if p.IsA(UsdShade.Material)}
    full = surfaces["Full"]

    def source(shader, name):
        connected = shader.GetInput(name).GetConnectedSource()
        assert connected, f"{name} is not connected"
        return UsdShade.Shader(connected[0].GetPrim()), connected[1]

    texture, output = source(full, "metallic")
    assert output == "b"
    assert source(full, "roughness")[1] == "g"
    normal, _ = source(full, "normal")
    assert tuple(normal.GetInput("scale").Get()) == (2, 2, 2, 1) and tuple(normal.GetInput("bias").Get()) == (-1, -1, -1, 0)
    assert normal.GetInput("sourceColorSpace").Get() == "raw"
    assert close(full.GetInput("opacityThreshold").Get(), 0.3, 1, rel=1e-6)
    emissive, _ = source(full, "emissiveColor")
    assert tuple(emissive.GetInput("fallback").Get()) == (2, 2, 0, 1), "emissiveFactor (1, 1, 0) times emissiveStrength 2"
    assert str(emissive.GetInput("file").Get().path).endswith(".png"), "an embedded image is named with its type's extension"
    flat = surfaces["Flat"]
    assert tuple(flat.GetInput("emissiveColor").Get()) == (0, 1, 0) and tuple(flat.GetInput("diffuseColor").Get()) == (0, 0, 0)
    assert close(surfaces["Glass"].GetInput("opacity").Get(), 0.5, 1)


def test_factors_beside_textures_become_texture_scales_and_come_back(tmp_path):
    """glTF multiplies a texture by its factor; UsdUVTexture's inputs:scale (and bias, for occlusion
    strength) says the same, read here by usd-core. The normal strength cannot pass USD's normal-map
    rule and is left out with a warning; a glb written from the glTF keeps every factor."""
    from pxr import Usd, UsdShade
    source = FIXTURES / "gltf" / "materials.gltf"
    usda = tmp_path / "materials.usda"
    result = subprocess.run([assetc_binary(), "convert", str(source), str(usda)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "normal map strength 0.5 is left out" in result.stderr
    stage = Usd.Stage.Open(str(usda))
    looks = next(p for p in stage.Traverse() if p.GetName() == "Full" and p.IsA(UsdShade.Material))

    def inputs(name):
        shader = UsdShade.Shader(stage.GetPrimAtPath(looks.GetPath().AppendChild(name)))
        scale, bias = shader.GetInput("scale"), shader.GetInput("bias")
        return (tuple(round(x, 6) for x in scale.Get()) if scale else None, tuple(round(x, 6) for x in bias.Get()) if bias else None)

    assert inputs("diffuseColor_texture") == ((1, 0.5, 0.25, 0.8), None)
    assert inputs("metallic_texture") == ((0.2,) * 4, None)
    assert inputs("roughness_texture") == ((0.7,) * 4, None)
    assert inputs("emissiveColor_texture") == ((2, 2, 0, 1), None)
    assert inputs("occlusion_texture") == ((0.8,) * 4, (0.2,) * 4)
    assert inputs("normal_texture") == ((2, 2, 2, 1), (-1, -1, -1, 0))
    glb = tmp_path / "materials.glb"
    result = subprocess.run([assetc_binary(), "convert", str(source), str(glb)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    full = pygltflib.GLTF2().load(str(glb)).materials[0]
    pbr = full.pbrMetallicRoughness
    assert [round(x, 6) for x in pbr.baseColorFactor] == [1, 0.5, 0.25, 0.8]
    assert (round(pbr.metallicFactor, 6), round(pbr.roughnessFactor, 6)) == (0.2, 0.7)
    # glTF's emissiveFactor stops at 1: the brighter emission is a factor times KHR_materials_emissive_strength.
    assert [round(x, 6) for x in full.emissiveFactor] == [1, 1, 0]
    assert full.extensions["KHR_materials_emissive_strength"]["emissiveStrength"] == 2
    assert (full.normalTexture.scale, round(full.occlusionTexture.strength, 6)) == (0.5, 0.8)


def test_texture_transform_becomes_usd_transform2d_by_the_specifications(tmp_path):
    """KHR_texture_transform (offset, rotation, scale on the base colour texture) written as a
    UsdTransform2d: evaluated from usd-core's reading of its inputs in USD's st space, it maps each
    texcoord where glTF's formula (offset + R·(scale·uv) in top-left UV space) maps it, R turning as
    Blender's importer and three.js turn, [[cos, sin], [-sin, cos]] (test_render_fidelity.py checks
    that direction against Cycles). A glb written from that usda carries the same extension values."""
    import math
    from pxr import Usd, UsdShade
    usda = tmp_path / "materials.usda"
    result = subprocess.run([assetc_binary(), "convert", str(FIXTURES / "gltf" / "materials.gltf"), str(usda)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    stage = Usd.Stage.Open(str(usda))
    node = next(UsdShade.Shader(p) for p in stage.Traverse() if UsdShade.Shader(p) and UsdShade.Shader(p).GetIdAttr().Get() == "UsdTransform2d")
    scale, degrees, move = node.GetInput("scale").Get(), node.GetInput("rotation").Get(), node.GetInput("translation").Get()
    a = math.radians(degrees)

    def usd(s, t):
        x, y = s * scale[0], t * scale[1]
        return (math.cos(a) * x - math.sin(a) * y + move[0], math.sin(a) * x + math.cos(a) * y + move[1])

    offset, r, size = (0.1, 0.2), 0.5, (2, 3)
    for u, v in [(0, 0), (1, 0), (0, 1), (0.3, 0.7)]:
        x, y = u * size[0], v * size[1]
        gu, gv = offset[0] + math.cos(r) * x + math.sin(r) * y, offset[1] - math.sin(r) * x + math.cos(r) * y
        su, sv = usd(u, 1 - v)
        assert math.isclose(su, gu, abs_tol=1e-5) and math.isclose(sv, 1 - gv, abs_tol=1e-5), (u, v, (su, sv), (gu, 1 - gv))
    glb = tmp_path / "back.glb"
    result = subprocess.run([assetc_binary(), "convert", str(usda), str(glb)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    document = pygltflib.GLTF2().load(str(glb))
    extension = document.materials[0].pbrMetallicRoughness.baseColorTexture.extensions["KHR_texture_transform"]
    assert [round(x, 5) for x in extension["offset"]] == [0.1, 0.2]
    assert round(extension["rotation"], 5) == 0.5 and [round(x, 5) for x in extension["scale"]] == [2, 3]
    assert "KHR_texture_transform" in document.extensionsUsed

"""Every texture slot samples its own texcoord set, through every writer: Blender's export of an ORM cube whose
occlusion is on the second UV map (Tests/Fixtures/render/make_occlusion_second_uv.py) keeps occlusion on
TEXCOORD_1 in glb and on a primvar reader of the second set in usdz (read by usd-core), and each conversion's
thumbnail is the source's; so do Blender's KHR_texture_transform tiles (make_texture_transforms.py: offset,
rotation, scale, a texCoord override), whose usdz holds each as a UsdTransform2d. test_render_fidelity.py judges
both pictures against Cycles."""
import pytest
import numpy as np
import pygltflib
from PIL import Image

from conftest import FIXTURES, run_assetc

SOURCE = FIXTURES / "render" / "occlusion_second_uv.glb"


def thumbnail(path, out):
    result = run_assetc("thumbnail", path, "--out", out, "--size", "96")
    assert result.returncode == 0, result.stderr
    return np.asarray(Image.open(next(out.rglob("*.png"))).convert("RGBA"), np.int16)


def test_the_source_is_what_it_claims():
    gltf = pygltflib.GLTF2().load(str(SOURCE))
    material = gltf.materials[0]
    assert material.occlusionTexture.texCoord == 1 and material.pbrMetallicRoughness.metallicRoughnessTexture.texCoord == 0
    assert material.occlusionTexture.index == material.pbrMetallicRoughness.metallicRoughnessTexture.index


def test_glb_keeps_occlusion_on_the_second_set(tmp_path):
    out = tmp_path / "out.glb"
    assert run_assetc("convert", SOURCE, out).returncode == 0
    gltf = pygltflib.GLTF2().load(str(out))
    [material] = gltf.materials
    assert material.occlusionTexture.texCoord == 1
    assert material.pbrMetallicRoughness.metallicRoughnessTexture.texCoord == 0
    assert all(p.attributes.TEXCOORD_1 is not None for m in gltf.meshes for p in m.primitives)
    assert np.abs(thumbnail(out, tmp_path / "a") - thumbnail(SOURCE, tmp_path / "b")).max() <= 1


def test_usdz_reads_occlusion_through_a_reader_of_the_second_set(tmp_path):
    from pxr import Usd, UsdGeom, UsdShade
    out = tmp_path / "out.usdz"
    assert run_assetc("convert", SOURCE, out).returncode == 0
    stage = Usd.Stage.Open(str(out))
    [material] = [UsdShade.Material(p) for p in stage.Traverse() if p.IsA(UsdShade.Material)]
    surface = material.ComputeSurfaceSource()[0]

    def varname(input_name):
        texture = surface.GetInput(input_name).GetConnectedSources()[0][0].source
        reader = UsdShade.Shader(texture).GetInput("st").GetConnectedSources()[0][0].source
        return UsdShade.Shader(reader).GetInput("varname").Get()

    occlusion, roughness = varname("occlusion"), varname("roughness")
    assert occlusion != roughness
    [mesh] = [UsdGeom.Mesh(p) for p in stage.Traverse() if p.IsA(UsdGeom.Mesh)]
    primvars = UsdGeom.PrimvarsAPI(mesh)
    assert primvars.HasPrimvar(occlusion) and primvars.HasPrimvar(roughness)
    second = np.array(primvars.GetPrimvar(occlusion).ComputeFlattened())
    assert second[:, 0].min() >= 0.6 - 1e-6 and second[:, 0].max() <= 0.9 + 1e-6, "the second map is the one inside the white block"
    assert np.abs(thumbnail(out, tmp_path / "a") - thumbnail(SOURCE, tmp_path / "b")).max() <= 1


@pytest.mark.parametrize("suffix", ["glb", "usdz"])
def test_texture_transforms_survive_conversion(suffix, tmp_path):
    source = FIXTURES / "render" / "texture_transforms_blender.glb"
    out = tmp_path / f"out.{suffix}"
    assert run_assetc("convert", source, out).returncode == 0
    if suffix == "glb":
        gltf = pygltflib.GLTF2().load(str(out))
        transforms = [m.pbrMetallicRoughness.baseColorTexture for m in gltf.materials]
        assert sum(1 for t in transforms if "KHR_texture_transform" in (t.extensions or {})) == 4
        assert sorted(t.texCoord or 0 for t in transforms) == [0, 0, 0, 1]
    else:
        from pxr import Usd, UsdShade
        stage = Usd.Stage.Open(str(out))
        shaders = [UsdShade.Shader(p) for p in stage.Traverse() if p.IsA(UsdShade.Shader)]
        assert sum(1 for s in shaders if s.GetIdAttr().Get() == "UsdTransform2d") == 4
    assert np.abs(thumbnail(out, tmp_path / "a") - thumbnail(source, tmp_path / "b")).max() <= 1

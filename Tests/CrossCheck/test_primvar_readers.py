"""UsdPrimvarReader_float/float3 feeding UsdPreviewSurface inputs (usd-wg's Teapot form, written by usd-core:
Tests/Fixtures/render/make_primvar_reader.py): diffuseColor is the primvar the reader names, as the variant
selection sets it, on every mesh bound; roughness the value of a constant primvar. usd-core reads the same values
from the file; the usdz assetc writes carries the readers back and the glb the colours as COLOR_0, and both draw
as the source does. test_render_fidelity.py judges the picture against Cycles."""
import numpy as np
import pygltflib
import pytest
from PIL import Image

from conftest import FIXTURES, assetc_info, run_assetc

FIXTURE = FIXTURES / "render" / "primvar_reader_variant.usda"


def thumbnail(path, out, size=96):
    result = run_assetc("thumbnail", path, "--out", out, "--size", str(size), "--no-shadow")
    assert result.returncode == 0, result.stderr
    return np.asarray(Image.open(next(out.rglob("*.png"))).convert("RGBA"), np.int16)


def with_selection(tmp_path, variant):
    from pxr import Usd
    stage = Usd.Stage.Open(str(FIXTURE))
    stage.GetPrimAtPath("/Scene").GetVariantSet("shadingVariant").SetVariantSelection(variant)
    out = tmp_path / f"{variant}.usda"
    stage.GetRootLayer().Export(str(out))
    return out


def sphere_colour(image):
    """The mean colour of the sphere's middle: the left third of the picture, covered pixels."""
    h, w = image.shape[:2]
    region = image[h // 3:2 * h // 3, :w // 3]
    covered = region[region[..., 3] == 255][:, :3]
    assert len(covered) > 20, "the sphere is in the left third"
    return covered.mean(axis=0)


def test_usd_core_reads_what_assetc_keeps():
    from pxr import Usd, UsdGeom
    stage = Usd.Stage.Open(str(FIXTURE))
    colour = UsdGeom.PrimvarsAPI(stage.GetPrimAtPath("/Scene/Teapot")).GetPrimvar("displayColor").Get()
    assert [round(c, 3) for c in colour[0]] == [0.4, 0.8, 0.1], "the fixture selects lime"
    info = assetc_info(FIXTURE)
    assert info["warnings"] == [] and info["materials"] == 2


@pytest.mark.parametrize("variant, dominant", [("lime", 1), ("red", 0)])
def test_the_variant_selection_colours_the_sphere(variant, dominant, tmp_path):
    colour = sphere_colour(thumbnail(with_selection(tmp_path, variant), tmp_path / "out"))
    assert np.argmax(colour) == dominant, f"{variant}: sphere drawn {colour}"
    assert colour.max() - colour.min() > 60, f"{variant}: sphere drawn grey {colour}"


def test_a_per_vertex_primvar_shades_per_vertex(tmp_path):
    image = thumbnail(with_selection(tmp_path, "gradient"), tmp_path / "out", size=128)
    left = image[:, :image.shape[1] // 3]
    rows = np.nonzero((left[..., 3] == 255).any(axis=1))[0]
    span = rows.max() - rows.min()
    def band(a, b):
        part = left[rows.min() + int(a * span):rows.min() + int(b * span)]
        return part[part[..., 3] == 255][:, :3].mean(0)
    top, bottom = band(0.15, 0.35), band(0.65, 0.85)
    assert top[0] > bottom[0] + 30 and bottom[2] > top[2] + 30, f"red above, blue below: top {top}, bottom {bottom}"


def test_usdz_writes_the_readers_back(tmp_path):
    from pxr import Usd, UsdGeom, UsdShade
    out = tmp_path / "out.usdz"
    assert run_assetc("convert", FIXTURE, out).returncode == 0
    stage = Usd.Stage.Open(str(out))
    materials = [UsdShade.Material(p) for p in stage.Traverse() if p.IsA(UsdShade.Material)]
    assert len(materials) == 2
    roughness = []
    for material in materials:
        surface = material.ComputeSurfaceSource()[0]
        [(source, _, _)] = [(s.source, s.sourceName, s.sourceType) for s in surface.GetInput("diffuseColor").GetConnectedSources()[0]]
        reader = UsdShade.Shader(source)
        assert reader.GetIdAttr().Get() == "UsdPrimvarReader_float3"
        assert reader.GetInput("varname").Get() == "displayColor"
        roughness.append(round(surface.GetInput("roughness").Get(), 4))
    assert sorted(roughness) == [0.3, 0.5], "the sphere's roughness is its constant primvar's"
    for prim in stage.Traverse():
        if prim.IsA(UsdGeom.Mesh):
            assert UsdGeom.PrimvarsAPI(prim).GetPrimvar("displayColor").HasValue(), prim.GetPath()
    assert np.abs(thumbnail(out, tmp_path / "a") - thumbnail(FIXTURE, tmp_path / "b")).max() <= 1


def test_glb_carries_the_colours(tmp_path):
    out = tmp_path / "out.glb"
    assert run_assetc("convert", FIXTURE, out).returncode == 0
    gltf = pygltflib.GLTF2().load(str(out))
    assert all(p.attributes.COLOR_0 is not None for m in gltf.meshes for p in m.primitives)
    assert all(m.pbrMetallicRoughness.baseColorFactor[:3] == [1, 1, 1] for m in gltf.materials)
    assert np.abs(thumbnail(out, tmp_path / "a") - thumbnail(FIXTURE, tmp_path / "b")).max() <= 2

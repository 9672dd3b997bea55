"""assetc's OBJ, STL and PLY readers against independent readers: placed triangles against assimp,
world bounds against trimesh (assimp where trimesh cannot read the file, with the reason); OBJ's MTL
materials as usd-core reads them back from assetc's usda; units reported unknown."""
import json
import subprocess

import pytest
import trimesh

from collada_reference import assimp_bounds, assimp_triangles
from conftest import FIXTURES, assetc_binary, assetc_info, close

MESH = FIXTURES / "mesh"
CASES = sorted(p for p in MESH.glob("*") if p.suffix in (".obj", ".stl", ".ply"))

TRIMESH_WRONG = {
    "ngons_colours_le.ply": "trimesh refuses binary PLY whose faces have different sizes ('PLY is unexpected length')",
    "ngons_colours_be.ply": "trimesh refuses binary PLY whose faces have different sizes ('PLY is unexpected length')",
}


def test_there_are_cases():
    assert {p.suffix for p in CASES} == {".obj", ".stl", ".ply"} and len(CASES) >= 7


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_triangles_match_assimp(path):
    assert assetc_info(path)["triangles"] == assimp_triangles(str(path))


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_bounds_match_the_reference(path):
    mine = assetc_info(path)
    if path.name in TRIMESH_WRONG:
        reference = assimp_bounds(path)
    else:
        scene = trimesh.load(str(path), force="scene", process=False)
        reference = {"min": scene.bounds[0].tolist(), "max": scene.bounds[1].tolist()}
    for corner in ("min", "max"):
        for a, b in zip(mine["bounds"][corner], reference[corner]):
            assert close(a, b, 10), f"{corner}: assetc {mine['bounds']} != {reference}"


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_units_are_unknown_unless_given(path):
    assert assetc_info(path)["metersPerUnit"] is None
    given = subprocess.run([assetc_binary(), "info", "--json", "--source-meters-per-unit", "0.001", str(path)],
                           capture_output=True, text=True, check=True)
    assert json.loads(given.stdout)["metersPerUnit"] == 0.001


def test_ascii_binary_and_big_endian_ply_read_alike():
    figures = [assetc_info(MESH / n) for n in ("ngons_colours_ascii.ply", "ngons_colours_le.ply", "ngons_colours_be.ply")]
    for key in ("points", "faces", "triangles", "bounds"):
        assert figures[0][key] == figures[1][key] == figures[2][key]


def test_obj_materials_reach_usd_preview_surface(tmp_path):
    out = tmp_path / "o.usda"
    subprocess.run([assetc_binary(), "convert", str(MESH / "groups_ngons_negative.obj"), str(out)], check=True, capture_output=True)
    from pxr import Usd, UsdShade
    stage = Usd.Stage.Open(str(out))
    shaders = {}
    for prim in stage.Traverse():
        if prim.IsA(UsdShade.Material):
            surface = UsdShade.Material(prim).ComputeSurfaceSource()[0]
            shaders[prim.GetName()] = surface
    red, textured = shaders["Red"], shaders["Textured"]
    assert tuple(red.GetInput("diffuseColor").Get()) == (1, 0, 0)
    assert close(red.GetInput("opacity").Get(), 0.5, 1)
    assert close(red.GetInput("roughness").Get(), (2 / 102) ** 0.5, 1, rel=1e-6)
    assert close(textured.GetInput("metallic").Get(), 0.75, 1) and close(textured.GetInput("roughness").Get(), 0.25, 1)
    source = textured.GetInput("diffuseColor").GetConnectedSource()
    assert source is not None, "the map_Kd texture is connected"
    texture = UsdShade.Shader(source[0].GetPrim())
    assert str(texture.GetInput("file").Get().path).endswith("checker.png")
    assert textured.GetInput("normal").GetConnectedSource() is not None, "map_Bump became the normal map"

"""Meshopt-, quantized- and Draco-compressed glTF (written by gltfpack and draco_encoder from one
OBJ) read back as that OBJ: the same points and triangles, bounds and texture coordinates equal
within the quantization the encoders chose, checked through usd-core on assetc's usda output."""
import math
import subprocess

import pytest
from pxr import Usd, UsdGeom, UsdShade

from conftest import FIXTURES, assetc_binary, assetc_info, close

FOLDER = FIXTURES / "gltf" / "compressed"
COMPRESSED = ["grid_meshopt.glb", "grid_quantized.glb", "grid_draco.gltf"]


def texture_transform(stage):
    """The stage's UsdTransform2d as a function on st (UsdPreviewSurface's order: scale, rotate
    counter-clockwise in degrees, translate); identity when it has none. The grids have one material."""
    for prim in stage.Traverse():
        shader = UsdShade.Shader(prim)
        if shader and shader.GetIdAttr().Get() == "UsdTransform2d":
            scale = shader.GetInput("scale").Get() if shader.GetInput("scale") else (1, 1)
            angle = math.radians(shader.GetInput("rotation").Get() if shader.GetInput("rotation") else 0)
            move = shader.GetInput("translation").Get() if shader.GetInput("translation") else (0, 0)
            c, s = math.cos(angle), math.sin(angle)
            return lambda u, v: (c * u * scale[0] - s * v * scale[1] + move[0], s * u * scale[0] + c * v * scale[1] + move[1])
    return lambda u, v: (u, v)


def uv_by_position(path, tmp_path):
    """{rounded position: uv} from the usda assetc writes, read by usd-core, with the material's
    texture transform applied as a renderer would."""
    out = tmp_path / (path.stem + ".usda")
    subprocess.run([assetc_binary(), "convert", "--force", str(path), str(out)], check=True, capture_output=True)
    stage = Usd.Stage.Open(str(out))
    transform = texture_transform(stage)
    result = {}
    for prim in stage.Traverse():
        if not prim.IsA(UsdGeom.Mesh):
            continue
        mesh = UsdGeom.Mesh(prim)
        world = UsdGeom.Xformable(prim).ComputeLocalToWorldTransform(Usd.TimeCode.Default())
        points = [world.Transform(p) for p in mesh.GetPointsAttr().Get()]
        primvar = UsdGeom.PrimvarsAPI(mesh).GetPrimvar("st")
        values, indices = primvar.Get(), primvar.GetIndices()
        corners = mesh.GetFaceVertexIndicesAttr().Get()
        for k, point in enumerate(corners):
            value = values[indices[k]] if indices else (values[k] if primvar.GetInterpolation() == "faceVarying" else values[point])
            result[tuple(round(c * 64) for c in points[point])] = transform(value[0], value[1])
    return result


@pytest.mark.parametrize("name", COMPRESSED)
def test_compressed_grid_reads_as_its_source(name, tmp_path):
    source, mine = assetc_info(FOLDER / "grid.obj"), assetc_info(FOLDER / name)
    assert mine["warnings"] == []
    assert (mine["points"], mine["triangles"]) == (source["points"], source["triangles"])
    for corner in ("min", "max"):
        for a, b in zip(mine["bounds"][corner], source["bounds"][corner]):
            assert close(a, b, 1, rel=1e-3), f"{corner}: {mine['bounds']} != {source['bounds']}"
    expected, found = uv_by_position(FOLDER / "grid.obj", tmp_path), uv_by_position(FOLDER / name, tmp_path)
    assert set(found) == set(expected)
    for key, uv in expected.items():
        assert all(abs(a - b) < 2e-3 for a, b in zip(found[key], uv)), f"uv at {key}: {found[key]} != {uv}"


def test_a_required_extension_is_read_not_refused():
    assert "KHR_draco_mesh_compression" in (FOLDER / "grid_draco.gltf").read_text()
    assert assetc_info(FOLDER / "grid_draco.gltf")["meshes"] == 1

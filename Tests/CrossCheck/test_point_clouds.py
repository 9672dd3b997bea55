"""Point clouds (a mesh of points and no faces) through every writer: a coloured scan written by trimesh as PLY
and a UsdGeomPoints prim with widths written by usd-core become glTF POINTS primitives with COLOR_0 (read back by
pygltflib and trimesh), USD Points with widths (read by usd-core) and OBJ `p` statements, each read back by assetc
to the same points; STL and Collada, which hold no points, say so in one warning."""
import numpy as np
import pygltflib
import pytest
import trimesh

from conftest import assetc_info, run_assetc

COUNT = 500


@pytest.fixture(scope="module")
def scan(tmp_path_factory):
    rng = np.random.default_rng(7)
    points = rng.normal(size=(COUNT, 3))
    points /= np.linalg.norm(points, axis=1, keepdims=True)
    colours = np.hstack([((points + 1) / 2 * 255).astype(np.uint8), np.full((COUNT, 1), 255, np.uint8)])
    path = tmp_path_factory.mktemp("scan") / "scan.ply"
    trimesh.PointCloud(points, colors=colours).export(str(path))
    return path, points, colours


@pytest.fixture(scope="module")
def usd_points(tmp_path_factory):
    from pxr import Gf, Sdf, Usd, UsdGeom, Vt
    path = tmp_path_factory.mktemp("usd") / "points.usda"
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
    UsdGeom.SetStageMetersPerUnit(stage, 1)
    points = UsdGeom.Points.Define(stage, "/Cloud")
    stage.SetDefaultPrim(points.GetPrim())
    positions = [Gf.Vec3f(i * 0.1, (i % 7) * 0.05, 0) for i in range(40)]
    points.CreatePointsAttr(positions)
    points.CreateWidthsAttr(Vt.FloatArray([0.01 + 0.001 * i for i in range(40)]))
    points.SetWidthsInterpolation(UsdGeom.Tokens.vertex)
    colour = points.CreateDisplayColorPrimvar(UsdGeom.Tokens.vertex)
    colour.Set([Gf.Vec3f(i / 40, 0.5, 1 - i / 40) for i in range(40)])
    stage.Save()
    return path, np.array(positions)


def glb_points(path):
    gltf = pygltflib.GLTF2().load(str(path))
    blob = gltf.binary_blob()
    [primitive] = [p for m in gltf.meshes for p in m.primitives]
    def read(index, width):
        accessor = gltf.accessors[index]
        view = gltf.bufferViews[accessor.bufferView]
        return np.frombuffer(blob, np.float32, accessor.count * width, view.byteOffset + (accessor.byteOffset or 0)).reshape(-1, width)
    return primitive, read(primitive.attributes.POSITION, 3), read(primitive.attributes.COLOR_0, 4) if primitive.attributes.COLOR_0 is not None else None


def test_a_scan_becomes_glb_points_with_its_colours(scan, tmp_path):
    path, points, colours = scan
    out = tmp_path / "scan.glb"
    result = run_assetc("convert", path, out)
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    primitive, positions, colors = glb_points(out)
    assert primitive.mode == 0 and primitive.indices is None
    assert np.allclose(positions, points, atol=1e-6)
    assert np.abs(colors[:, :3] * 255 - colours[:, :3]).max() <= 0.5
    cloud = trimesh.load(str(out))
    [geometry] = cloud.geometry.values()
    assert isinstance(geometry, trimesh.PointCloud) and len(geometry.vertices) == COUNT
    assert run_assetc("validate", out).returncode == 0
    assert assetc_info(out)["points"] == COUNT


def test_a_scan_becomes_usd_points_with_widths(scan, tmp_path):
    from pxr import Usd, UsdGeom
    path, points, colours = scan
    for suffix in ("usda", "usdz"):
        out = tmp_path / f"scan.{suffix}"
        assert run_assetc("convert", path, out).returncode == 0
        stage = Usd.Stage.Open(str(out))
        [prim] = [p for p in stage.Traverse() if p.IsA(UsdGeom.Points)]
        cloud = UsdGeom.Points(prim)
        assert np.allclose(np.array(cloud.GetPointsAttr().Get()), points, atol=1e-6)
        widths = cloud.GetWidthsAttr().Get()
        assert len(widths) == 1 and 0 < widths[0] < 0.1, "one width, small beside the two-unit cloud"
        shown = np.array(UsdGeom.PrimvarsAPI(prim).GetPrimvar("displayColor").Get())
        assert np.abs(shown * 255 - colours[:, :3]).max() <= 0.5
        assert assetc_info(out)["points"] == COUNT


def test_obj_keeps_points_as_p_statements(scan, tmp_path):
    path, points, _ = scan
    out = tmp_path / "scan.obj"
    assert run_assetc("convert", path, out).returncode == 0
    written = [int(i) for line in out.read_text().splitlines() if line.startswith("p ") for i in line.split()[1:]]
    assert sorted(written) == list(range(1, COUNT + 1))
    info = assetc_info(out)
    assert info["points"] == COUNT and info["faces"] == 0


@pytest.mark.parametrize("suffix, format", [("stl", "STL"), ("dae", "Collada")])
def test_targets_without_points_say_so(scan, tmp_path, suffix, format):
    path, _, _ = scan
    result = run_assetc("convert", path, tmp_path / f"scan.{suffix}")
    assert result.returncode == 0
    assert f"{format} holds no point clouds: 1 point cloud of {COUNT} points dropped" in result.stderr, result.stderr


def test_usd_points_keep_their_widths_and_reach_glb(usd_points, tmp_path):
    from pxr import Usd, UsdGeom
    path, positions = usd_points
    info = assetc_info(path)
    assert info["points"] == 40 and info["warnings"] == []
    out = tmp_path / "again.usda"
    assert run_assetc("convert", path, out).returncode == 0
    stage = Usd.Stage.Open(str(out))
    [cloud] = [UsdGeom.Points(p) for p in stage.Traverse() if p.IsA(UsdGeom.Points)]
    assert np.allclose(cloud.GetWidthsAttr().Get(), [0.01 + 0.001 * i for i in range(40)], atol=1e-7)
    assert cloud.GetWidthsInterpolation() == "vertex"
    glb = tmp_path / "cloud.glb"
    assert run_assetc("convert", path, glb).returncode == 0
    primitive, points, colors = glb_points(glb)
    assert primitive.mode == 0 and np.allclose(points, positions, atol=1e-6)
    assert np.allclose(colors[:, 0], [i / 40 for i in range(40)], atol=1e-6)


def test_glb_points_with_a_skin_say_what_they_lose(scan, tmp_path):
    """A POINTS primitive that carries JOINTS_0/WEIGHTS_0 (pygltflib adds them to assetc's own glb) is read as
    its point cloud, and the skin weights it cannot hold are named, not dropped silently."""
    path, _, _ = scan
    out = tmp_path / "scan.glb"
    assert run_assetc("convert", path, out).returncode == 0
    gltf = pygltflib.GLTF2().load(str(out))
    blob = bytearray(gltf.binary_blob())
    joints, weights = bytes(4 * COUNT), np.tile(np.array([1, 0, 0, 0], np.float32), COUNT).tobytes()
    for data, component, name in ((joints, pygltflib.UNSIGNED_BYTE, "JOINTS_0"), (weights, pygltflib.FLOAT, "WEIGHTS_0")):
        gltf.bufferViews.append(pygltflib.BufferView(buffer=0, byteOffset=len(blob), byteLength=len(data)))
        blob += data
        gltf.accessors.append(pygltflib.Accessor(bufferView=len(gltf.bufferViews) - 1, componentType=component, count=COUNT, type="VEC4"))
        setattr(gltf.meshes[0].primitives[0].attributes, name, len(gltf.accessors) - 1)
    gltf.buffers[0].byteLength = len(blob)
    gltf.set_binary_blob(bytes(blob))
    skinned = tmp_path / "skinned.glb"
    gltf.save_binary(str(skinned))
    info = assetc_info(skinned)
    assert info["points"] == COUNT
    assert any("POINTS primitive's skin weights are not kept" in w for w in info["warnings"]), info["warnings"]

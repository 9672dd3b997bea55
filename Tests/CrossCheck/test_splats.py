"""Gaussian splats read, converted, drawn and reported, judged by tools that are not assetc: plyfile for
3DGS PLY, usd-core 26.11's ParticleField3DGaussianSplat schema for USD, pygltflib for
KHR_gaussian_splatting, Niantic's SPZ library (alspz) for SPZ v2-v4, and a numpy reference renderer
written from the published method for thumbnails. The fixtures were made by plyfile and usd-core
(Tests/Fixtures/splats/make_*.py)."""
import pathlib
import struct

import numpy as np
import pytest

from conftest import FIXTURES, assetc_info, run_assetc
from splat_reference import render, save_png
from splat_tools import alspz, ply_activated

SPLATS = FIXTURES / "splats"
FLIP = np.diag([1.0, -1.0, -1.0])  # rdf (PLY) <-> rub (the scene, USD, SPZ): a half turn about x


def convert(source, out, *extra):
    result = run_assetc("convert", str(source), str(out), "--force", *extra)
    assert result.returncode == 0, result.stderr
    return result


def sh_signs_for_flip(flip, count):
    """The factor each SH basis function takes when directions are mirrored by the diagonal `flip`,
    found by evaluating the basis (splat_reference's, written from the extension's table)."""
    from splat_reference import sh_basis
    rng = np.random.default_rng(1)
    d = rng.normal(size=3)
    d /= np.linalg.norm(d)
    return (sh_basis(flip @ d) / sh_basis(d))[:count]


def usd_fields(path):
    from pxr import Usd, UsdGeom, UsdVol
    stage = Usd.Stage.Open(str(path))
    out = []
    for prim in stage.Traverse():
        if not prim.IsA(UsdVol.ParticleField3DGaussianSplat):
            continue
        f = UsdVol.ParticleField3DGaussianSplat(prim)

        def get(name):
            attr = getattr(f, f"Get{name}Attr")()
            half = getattr(f, f"Get{name}hAttr")()
            value = attr.Get() if attr.HasAuthoredValue() else half.Get()
            return None if value is None else np.array(value, np.float64)
        quats = f.GetOrientationsAttr().Get() if f.GetOrientationsAttr().HasAuthoredValue() else f.GetOrientationshAttr().Get()
        out.append(dict(path=str(prim.GetPath()), positions=get("Positions"), scales=get("Scales"), opacities=get("Opacities"),
                        sh=get("RadianceSphericalHarmonicsCoefficients"), degree=f.GetRadianceSphericalHarmonicsDegreeAttr().Get(),
                        degree_authored=f.GetRadianceSphericalHarmonicsDegreeAttr().HasAuthoredValue(),
                        quats=np.array([[q.GetReal(), *q.GetImaginary()] for q in quats]),
                        world=np.array(UsdGeom.Xformable(prim).ComputeLocalToWorldTransform(Usd.TimeCode.Default())).T,
                        metres=UsdGeom.GetStageMetersPerUnit(stage),
                        extent=np.array(f.GetExtentAttr().Get())))
    return out


def same_rotations(a, b, tolerance):
    """Quaternions (w, x, y, z) of one rotation each, once of unit length: q and -q alike."""
    a = a / np.linalg.norm(a, axis=1, keepdims=True)
    b = b / np.linalg.norm(b, axis=1, keepdims=True)
    return np.abs(np.abs(np.sum(a * b, axis=1)) - 1).max() <= tolerance


@pytest.mark.parametrize("name", ["inria_deg3_le", "inria_deg1_be", "inria_deg0_ascii", "surfels_2dgs"])
def test_ply_round_trip_keeps_every_value(tmp_path, name):
    convert(SPLATS / f"{name}.ply", tmp_path / "out.ply")
    from plyfile import PlyData
    out = PlyData.read(str(tmp_path / "out.ply"))["vertex"].data
    names = out.dtype.names
    assert [n for n in names if not n.startswith("f_rest")][:9] == ["x", "y", "z", "nx", "ny", "nz", "f_dc_0", "f_dc_1", "f_dc_2"]
    p0, q0, s0, o0, sh0 = ply_activated(SPLATS / f"{name}.ply")
    p1, q1, s1, o1, sh1 = ply_activated(tmp_path / "out.ply")
    assert np.abs(p0 - p1).max() <= 1e-6
    assert same_rotations(q0, q1, 1e-6)
    assert np.abs(s0 - s1[:, :s0.shape[1]]).max() <= 1e-6 * max(1, s0.max())
    assert np.abs(o0 - o1).max() <= 1e-6
    assert np.abs(sh0 - sh1).max() <= 1e-6


def test_ply_to_usd_turns_rdf_into_the_scene_frame_with_the_harmonics(tmp_path):
    convert(SPLATS / "inria_deg3_le.ply", tmp_path / "out.usda")
    [field] = usd_fields(tmp_path / "out.usda")
    p, q, s, o, sh = ply_activated(SPLATS / "inria_deg3_le.ply")
    assert field["degree"] == 3 and field["degree_authored"]
    assert np.abs(field["positions"] - p @ FLIP).max() <= 1e-6
    # R' = F R F: w kept, the vector part turned by F (a rotation: no sign from mirroring).
    assert same_rotations(field["quats"], np.column_stack([q[:, 0], q[:, 1:] @ FLIP]), 1e-6)
    assert np.abs(field["scales"] - s).max() <= 1e-6 * s.max()
    assert np.abs(field["opacities"] - o).max() <= 1e-6
    signs = sh_signs_for_flip(FLIP, 16)
    assert np.abs(field["sh"].reshape(-1, 16, 3) - sh * signs[None, :, None]).max() <= 1e-5
    # extent: the 3-sigma box, which holds every centre
    assert np.all(field["extent"][0] <= (p @ FLIP).min(0)) and np.all(field["extent"][1] >= (p @ FLIP).max(0))


@pytest.mark.parametrize("source", ["field_deg3.usda", "field_deg3.usdc", "field_half.usda"])
@pytest.mark.parametrize("target", ["usda", "usdc", "usdz"])
def test_usd_fields_written_by_usd_core_survive_assetc(tmp_path, source, target):
    convert(SPLATS / source, tmp_path / f"out.{target}")
    [a] = usd_fields(SPLATS / source)
    [b] = usd_fields(tmp_path / f"out.{target}")
    assert a["degree"] == b["degree"]
    for key in ("positions", "scales", "opacities", "sh"):
        assert a[key].shape == b[key].shape and np.abs(a[key] - b[key]).max() <= 1e-6, key
    assert same_rotations(a["quats"], b["quats"], 1e-6)
    assert np.abs(a["world"] - b["world"]).max() <= 1e-9


def test_usd_length_rules_and_the_unauthored_degree(tmp_path):
    result = convert(SPLATS / "field_rules.usda", tmp_path / "out.usda")
    assert "scales has 6 values for 4 splats; the extra ones are ignored" in result.stderr
    assert "opacities has 2 values for 4 splats; ignored" in result.stderr
    [b] = usd_fields(tmp_path / "out.usda")
    assert b["degree"] == 3 and b["degree_authored"]
    assert np.allclose(b["scales"][:, 0], [0.1, 0.2, 0.3, 0.4], atol=1e-7)
    assert np.allclose(b["opacities"], 1)
    assert np.allclose(b["quats"], [[1, 0, 0, 0]] * 4)
    assert b["sh"].shape == (64, 3)


def test_spz_from_assetc_read_by_niantics_library(tmp_path):
    spz = alspz()
    convert(SPLATS / "field_deg3.usdc", tmp_path / "out.spz", "--flatten")
    data = (tmp_path / "out.spz").read_bytes()
    assert data[:4] == b"NGSP" and struct.unpack("<I", data[4:8])[0] == 4
    decoded = spz.load_spz(data)
    [usd] = usd_fields(SPLATS / "field_deg3.usdc")
    world = usd["world"]
    positions = usd["positions"] @ world[:3, :3].T + world[:3, 3]
    assert decoded["num_points"] == len(positions) and decoded["sh_degree"] == 3
    assert np.abs(decoded["positions"] - positions).max() <= 1 / 4096
    assert np.abs(np.exp(decoded["scales"]) / usd["scales"] - 1).max() <= np.exp(1 / 32) - 1 + 1e-4
    assert np.abs(1 / (1 + np.exp(-decoded["alphas"])) - usd["opacities"]).max() <= 1 / 255
    # the DC colour within SPZ's step (1/255 of 1/0.15); the higher bands, turned by the Xform's
    # quarter turn about y when flattened, are checked by the round-trip and transform tests
    assert np.abs(decoded["colors"] - usd["sh"].reshape(-1, 16, 3)[:, 0]).max() <= 0.5 / 255 / 0.15 + 1e-4


@pytest.mark.parametrize("version", [2, 3, 4])
def test_spz_from_niantics_library_read_by_assetc(tmp_path, version):
    spz = alspz()
    p, q, s, o, sh = ply_activated(SPLATS / "inria_deg3_le.ply")
    rest = np.clip(sh[:, 1:], -0.99, 0.99)
    data = spz.save_spz(p.astype(np.float32), np.log(s).astype(np.float32), np.column_stack([q[:, 1:], q[:, 0]]).astype(np.float32),
                        np.log(o / (1 - o)).astype(np.float32), sh[:, 0].astype(np.float32), rest.reshape(len(p), -1).astype(np.float32), 3,
                        version=version)
    (tmp_path / "in.spz").write_bytes(bytes(data))
    convert(tmp_path / "in.spz", tmp_path / "out.usda")
    [field] = usd_fields(tmp_path / "out.usda")
    assert field["degree"] == 3
    assert np.abs(field["positions"] - p).max() <= 1 / 4096
    assert np.abs(np.log(field["scales"] / s)).max() <= 1 / 32 + 1e-4
    assert np.abs(field["opacities"] - o).max() <= 1 / 255
    assert same_rotations(field["quats"], q, 2e-2 if version == 2 else 2e-3)
    got = field["sh"].reshape(-1, 16, 3)
    assert np.abs(got[:, 0] - sh[:, 0]).max() <= 0.5 / 255 / 0.15 + 1e-4
    # Niantic's packer rounds to 1/128, then degree 1 to 5 bits and higher to 4: half a bucket (4 or 8 of 128) more
    assert np.abs(got[:, 1:4] - rest[:, :3]).max() <= 4.5 / 128 + 1e-4
    assert np.abs(got[:, 4:] - rest[:, 3:]).max() <= 8.5 / 128 + 1e-4


def test_round_trip_through_every_splat_format(tmp_path):
    convert(SPLATS / "inria_deg3_le.ply", tmp_path / "a.usdc")
    convert(tmp_path / "a.usdc", tmp_path / "b.glb")
    convert(tmp_path / "b.glb", tmp_path / "c.spz")
    convert(tmp_path / "c.spz", tmp_path / "d.ply")
    p0, q0, s0, o0, sh0 = ply_activated(SPLATS / "inria_deg3_le.ply")
    p1, q1, s1, o1, sh1 = ply_activated(tmp_path / "d.ply")
    assert np.abs(p0 - p1).max() <= 1 / 4096
    assert same_rotations(q0, q1, 2e-3)
    assert np.abs(np.log(s1 / s0)).max() <= 1 / 32 + 1e-4
    assert np.abs(o0 - o1).max() <= 1 / 255 + 1e-6
    assert np.abs(sh0[:, 0] - sh1[:, 0]).max() <= 0.5 / 255 / 0.15 + 1e-4
    inside = np.abs(sh0[:, 1:]) < 0.99  # SPZ holds -1...1
    assert np.abs(sh0[:, 1:] - sh1[:, 1:])[inside].max() <= 0.5 / 128 + 1e-4


def test_info_reports_splats_and_their_degree():
    info = assetc_info(SPLATS / "inria_deg3_le.ply")
    assert info["splats"] == 64 and info["splatSHDegree"] == 3 and info["meshes"] == 0
    assert info["bounds"] is not None
    usd = assetc_info(SPLATS / "field_half.usda")
    assert usd["splats"] == 40 and usd["splatSHDegree"] == 1


@pytest.mark.parametrize("target", ["obj", "stl", "dae"])
def test_a_format_without_splats_says_what_it_leaves_out(tmp_path, target):
    result = run_assetc("convert", str(SPLATS / "inria_deg3_le.ply"), str(tmp_path / f"out.{target}"), "--force")
    assert "holds no Gaussian splats: 1 splat set (64 splats) left out" in result.stderr


def thumbnail(tmp_path, source, eye, target, fov, size=128):
    out = tmp_path / "thumbs"
    result = run_assetc("thumbnail", str(source), "--out", str(out), "--size", str(size), "--supersample", "1", "--no-shadow",
                        "--camera-position", ",".join(map(str, eye)), "--camera-target", ",".join(map(str, target)), "--fov", str(fov))
    assert result.returncode == 0, result.stderr
    return next(out.glob("*.png"))


@pytest.mark.parametrize("name", ["inria_deg3_le", "upright_capture"])
def test_thumbnail_matches_the_reference_renderer(tmp_path, name):
    from render_reference import flip
    eye, target, fov = (0.7, 1.2, 4.5), (0.0, -0.3, 0.0), 45
    picture = thumbnail(tmp_path, SPLATS / f"{name}.ply", eye, target, fov)
    p, q, s, o, sh = ply_activated(SPLATS / f"{name}.ply")
    # the scene sees the PLY's rdf data turned into rub
    signs = sh_signs_for_flip(FLIP, sh.shape[1])
    reference = render(p @ FLIP, np.column_stack([q[:, 0], q[:, 1:] @ FLIP]), s, o, sh * signs[None, :, None], eye, target, fov, 128)
    save_png(reference, tmp_path / "reference.png")
    score = flip(tmp_path / "reference.png", picture)
    assert score <= 0.05, f"FLIP {score:.3f} against the numpy reference"


def test_a_capture_stands_upright():
    # upright_capture.ply: a pole whose top is red and foot blue in COLMAP's y-down axes
    from PIL import Image
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        result = run_assetc("thumbnail", str(SPLATS / "upright_capture.ply"), "--out", folder, "--view", "front", "--size", "128")
        assert result.returncode == 0, result.stderr
        image = np.asarray(Image.open(next(pathlib.Path(folder).glob("*.png"))).convert("RGBA"), np.float32)
    red = (image[..., 0] > 150) & (image[..., 1] < 80) & (image[..., 2] < 80) & (image[..., 3] > 200)
    blue = (image[..., 2] > 150) & (image[..., 0] < 80) & (image[..., 1] < 80) & (image[..., 3] > 200)
    assert red.sum() > 5 and blue.sum() > 5
    assert np.nonzero(red)[0].mean() < np.nonzero(blue)[0].mean(), "the red top is drawn below the blue foot"


def test_the_catalog_indexes_splats_and_answers_queries_on_them(tmp_path):
    import shutil
    library = tmp_path / "captures"
    library.mkdir()
    for name in ("inria_deg3_le.ply", "field_half.usda"):
        shutil.copy(SPLATS / name, library / name)
    convert(SPLATS / "inria_deg1_be.ply", library / "small.spz")
    shutil.copy(FIXTURES / "mesh" / "ngons_colours_le.ply", library / "mesh.ply")
    db = tmp_path / "catalog.sqlite"
    result = run_assetc("index", str(library), "--db", str(db), timeout=300)
    assert result.returncode == 0, result.stderr
    found = run_assetc("query", "splats > 50", "--db", str(db))
    assert found.returncode == 0, found.stderr
    assert "captures/inria_deg3_le.ply" in found.stdout
    assert "field_half.usda" not in found.stdout and "mesh.ply" not in found.stdout  # 40 splats; a mesh
    degree = run_assetc("query", "splatSHDegree = 1", "--db", str(db))
    assert "captures/field_half.usda" in degree.stdout and "captures/small.spz" in degree.stdout
    assert "inria_deg3_le.ply" not in degree.stdout


def test_validate_names_broken_splat_data_in_usd(tmp_path):
    from pxr import Gf, Usd, UsdVol, Vt
    path = tmp_path / "broken.usda"
    stage = Usd.Stage.CreateNew(str(path))
    f = UsdVol.ParticleField3DGaussianSplat.Define(stage, "/Broken")
    f.CreatePositionsAttr(Vt.Vec3fArray([Gf.Vec3f(i, 0, 0) for i in range(3)]))
    f.CreateOrientationsAttr(Vt.QuatfArray([Gf.Quatf(1, 0, 0, 0), Gf.Quatf(2, 0, 0, 0)]))  # short, and one not unit
    f.CreateScalesAttr(Vt.Vec3fArray([Gf.Vec3f(0.1, -0.2, 0.1)] * 3))
    f.CreateOpacitiesAttr(Vt.FloatArray([0.5, 2.0, float("nan")]))
    f.CreateRadianceSphericalHarmonicsDegreeAttr(1)
    f.CreateRadianceSphericalHarmonicsCoefficientsAttr(Vt.Vec3fArray([Gf.Vec3f(0, 0, 0)] * 3))  # 3 x 1, not 3 x 4
    stage.SetDefaultPrim(f.GetPrim())
    stage.Save()
    result = run_assetc("validate", str(path), "--json")
    report = __import__("json").loads(result.stdout)["files"][0]
    splat = [f for f in report["findings"] if f["rule"] == "GaussianSplatChecker"]
    messages = " | ".join(f["message"] for f in splat)
    assert result.returncode != 0
    assert "orientations has 2 values for 3 positions" in messages
    assert "scales[0] has a negative component" in messages
    assert "opacities[1] is 2.0, outside 0 to 1" in messages
    assert "opacities holds a value that is not finite" in messages
    assert "radiance:sphericalHarmonicsCoefficients has 3 coefficients (4 a splat at degree 1) for 3 positions" in messages
    # the same checks pass on usd-core's own well-formed fixture
    clean = run_assetc("validate", str(SPLATS / "field_deg3.usda"), "--json")
    assert "GaussianSplatChecker" not in clean.stdout and "ARKitPrimTypeChecker" in clean.stdout  # AR Quick Look draws no splats


@pytest.mark.parametrize("spz, ply", [("deg1_v2.spz", "inria_deg1_be.ply"), ("deg1_v3.spz", "inria_deg1_be.ply"), ("deg3_v4.spz", "inria_deg3_le.ply")])
def test_niantics_spz_and_the_ply_it_came_from_read_as_the_same_splats(tmp_path, spz, ply):
    # The SPZ fixtures were written by Niantic's library from the PLYs turned into its rub axes; read
    # by assetc, both land in the scene frame at the same place.
    convert(SPLATS / spz, tmp_path / "from_spz.usda")
    convert(SPLATS / ply, tmp_path / "from_ply.usda")
    [a] = usd_fields(tmp_path / "from_spz.usda")
    [b] = usd_fields(tmp_path / "from_ply.usda")
    assert np.abs(a["positions"] - b["positions"]).max() <= 1 / 4096
    assert same_rotations(a["quats"], b["quats"], 2e-2 if "v2" in spz else 2e-3)
    assert np.abs(np.log(a["scales"] / b["scales"])).max() <= 1 / 32 + 1e-4
    sa, sb = a["sh"].reshape(len(a["positions"]), -1, 3), b["sh"].reshape(len(b["positions"]), -1, 3)
    assert np.abs(sa[:, 0] - sb[:, 0]).max() <= 0.5 / 255 / 0.15 + 1e-4
    inside = np.abs(sb[:, 1:]) < 0.99
    assert np.abs(sa[:, 1:] - sb[:, 1:])[inside].max() <= 8.5 / 128 + 1e-4


def test_budgets_prune_the_least_visible_splats_and_lower_the_degree(tmp_path):
    result = convert(SPLATS / "inria_deg3_le.ply", tmp_path / "out.ply", "--max-splats", "16", "--sh-degree", "1")
    assert "48 of 64 placed splats pruned" in result.stderr and "lowered to degree 1" in result.stderr
    p0, q0, s0, o0, sh0 = ply_activated(SPLATS / "inria_deg3_le.ply")
    p1, q1, s1, o1, sh1 = ply_activated(tmp_path / "out.ply")
    assert len(p1) == 16 and sh1.shape[1] == 4
    visibility = o0 * s0.prod(axis=1)
    kept = np.sort(np.argsort(-visibility, kind="stable")[:16])  # the 16 most visible, in file order
    assert np.abs(p1 - p0[kept]).max() <= 1e-6
    assert np.abs(sh1 - sh0[kept][:, :4]).max() <= 1e-6


def test_splats_and_meshes_meet_by_depth(tmp_path):
    # A grey square at z = 0 facing the camera; red splats in front of it on the left, blue ones
    # behind it everywhere: the red show, the blue only outside the square.
    from pxr import Gf, Usd, UsdGeom, UsdVol, Vt
    from PIL import Image
    path = tmp_path / "mixed.usda"
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
    root = UsdGeom.Xform.Define(stage, "/Scene")
    stage.SetDefaultPrim(root.GetPrim())
    square = UsdGeom.Mesh.Define(stage, "/Scene/Square")
    square.CreatePointsAttr([(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)])
    square.CreateFaceVertexCountsAttr([4])
    square.CreateFaceVertexIndicesAttr([0, 1, 2, 3])
    square.CreateDisplayColorAttr([(0.5, 0.5, 0.5)])
    c0 = 0.28209479177387814

    def field(name, points, rgb):
        f = UsdVol.ParticleField3DGaussianSplat.Define(stage, f"/Scene/{name}")
        f.CreatePositionsAttr(Vt.Vec3fArray([Gf.Vec3f(*p) for p in points]))
        f.CreateScalesAttr(Vt.Vec3fArray([Gf.Vec3f(0.12, 0.12, 0.12)] * len(points)))
        f.CreateOrientationsAttr(Vt.QuatfArray([Gf.Quatf(1, 0, 0, 0)] * len(points)))
        f.CreateOpacitiesAttr(Vt.FloatArray([1.0] * len(points)))
        f.CreateRadianceSphericalHarmonicsDegreeAttr(0)
        f.CreateRadianceSphericalHarmonicsCoefficientsAttr(Vt.Vec3fArray([Gf.Vec3f(*[(v - 0.5) / c0 for v in rgb])] * len(points)))
    grid = [(x, y) for x in np.linspace(-1.8, 1.8, 19) for y in np.linspace(-1.8, 1.8, 19)]
    field("Front", [(x, y, 0.5) for x, y in grid if x < -0.3], (1, 0, 0))
    field("Behind", [(x, y, -0.5) for x, y in grid], (0, 0, 1))
    stage.Save()
    out = tmp_path / "thumbs"
    result = run_assetc("thumbnail", str(path), "--out", str(out), "--size", "128", "--no-shadow",
                        "--camera-position", "0,0,8", "--camera-target", "0,0,0", "--fov", "40")
    assert result.returncode == 0, result.stderr
    image = np.asarray(Image.open(next(out.glob("*.png"))).convert("RGBA"), np.float32)

    def at(x, y):  # the pixel where the world point (x, y, 0) lands, near enough
        focal = 64 / np.tan(np.radians(20))
        return image[int(64 - focal * y / 8), int(64 + focal * x / 8)]
    left, right, outside = at(-0.7, 0.0), at(0.6, 0.0), at(1.6, 0.0)
    assert left[0] > 150 and left[2] < 80, f"red splats in front of the square: {left}"
    assert abs(right[0] - right[2]) < 40 and right[2] < 200, f"the grey square hides the blue splats: {right}"
    assert outside[2] > 150 and outside[0] < 80, f"blue splats beside the square: {outside}"


def test_splats_coloured_by_rgb_become_degree_zero(tmp_path):
    from plyfile import PlyData
    result = convert(SPLATS / "rgb_splats.ply", tmp_path / "out.ply")
    assert "coloured by red/green/blue" in result.stderr
    source = PlyData.read(str(SPLATS / "rgb_splats.ply"))["vertex"].data
    out = PlyData.read(str(tmp_path / "out.ply"))["vertex"].data
    for c, channel in enumerate(("red", "green", "blue")):
        expected = (np.asarray(source[channel], np.float64) / 255 - 0.5) / 0.28209479177387814
        assert np.abs(np.asarray(out[f"f_dc_{c}"], np.float64) - expected).max() <= 1e-5
    assert not any(name.startswith("f_rest") for name in out.dtype.names)


@pytest.mark.parametrize("target", ["usda", "ply", "spz"])
def test_linear_splat_colours_going_where_no_colour_space_is_kept_are_named(tmp_path, target):
    import pygltflib
    convert(SPLATS / "inria_deg1_be.ply", tmp_path / "srgb.glb")
    gltf = pygltflib.GLTF2().load(str(tmp_path / "srgb.glb"))
    gltf.meshes[0].primitives[0].extensions["KHR_gaussian_splatting"]["colorSpace"] = "lin_rec709_display"
    gltf.save(str(tmp_path / "linear.glb"))
    result = convert(tmp_path / "linear.glb", tmp_path / f"out.{target}")
    assert "in lin_rec709_display written as they are, to be read as sRGB" in result.stderr
    kept = convert(tmp_path / "linear.glb", tmp_path / "out.glb")
    assert "lin_rec709_display" not in kept.stderr
    assert pygltflib.GLTF2().load(str(tmp_path / "out.glb")).meshes[0].primitives[0].extensions["KHR_gaussian_splatting"]["colorSpace"] == "lin_rec709_display"


@pytest.mark.parametrize("made, source", [("gsplat_deg1_from_ply.usda", "inria_deg1_be.ply"), ("gsplat_deg1_from_spz.usdc", "deg1_v2.spz"),
                                          ("gsplat_deg3_from_ply.usdz", "inria_deg3_le.ply")])
def test_usd_written_by_nvidias_converter_reads_as_usd_core_and_the_source_say(tmp_path, made, source):
    # usd-convert-gsplat copies a file's values into the field as they are (make_splat_gsplat.py):
    # assetc's read of its USD must equal usd-core's, and the values of the file it came from.
    convert(SPLATS / made, tmp_path / "out.usda")
    [ours] = usd_fields(tmp_path / "out.usda")
    [theirs] = usd_fields(SPLATS / made)
    assert ours["degree"] == theirs["degree"] and len(ours["positions"]) == len(theirs["positions"])
    for key in ("positions", "scales", "opacities", "sh"):
        assert np.abs(ours[key] - theirs[key]).max() <= 1e-6 * max(1, np.abs(theirs[key]).max()), key
    assert same_rotations(ours["quats"], theirs["quats"], 1e-6)
    if source.endswith(".ply"):
        p, q, s, o, sh = ply_activated(SPLATS / source)
        assert np.abs(theirs["positions"] - p).max() <= 1e-6 and np.abs(theirs["opacities"] - o).max() <= 1e-6
        assert same_rotations(theirs["quats"], q, 1e-6) and np.abs(theirs["scales"] - s).max() <= 1e-6 * s.max()
        assert np.abs(theirs["sh"].reshape(sh.shape) - sh).max() <= 1e-6
    else:
        # NVIDIA's SPZ decoder and assetc's on the same v2 file (both in SPZ's rub axes, the scene's):
        # the same positions, scales, opacities and SH; first-three quaternions rebuilt within 8 bits.
        convert(SPLATS / source, tmp_path / "direct.usda")
        [direct] = usd_fields(tmp_path / "direct.usda")
        for key in ("positions", "scales", "sh"):
            assert np.abs(direct[key] - theirs[key]).max() <= 1e-6 * max(1, np.abs(theirs[key]).max()), key
        assert np.abs(direct["opacities"] - theirs["opacities"]).max() <= 2e-6
        assert same_rotations(direct["quats"], theirs["quats"], 3e-3)


def test_frames_of_a_still_capture_are_a_turntable(tmp_path):
    # `--frames N` on a still asset with splats turns the camera once about the up axis, right-handed,
    # from the chosen view: from the front, a quarter turn is the right view and half a turn the back
    # view, each as its own still thumbnail draws it (the same sphere frames them all).
    from PIL import Image

    def picture(path):
        return np.asarray(Image.open(path).convert("RGBA"), np.float64)

    def still(view):
        out = tmp_path / view
        result = run_assetc("thumbnail", str(SPLATS / "upright_capture.ply"), "--out", str(out), "--view", view, "--size", "128")
        assert result.returncode == 0, result.stderr
        return picture(out / "upright_capture.ply.png")
    out = tmp_path / "turning"
    result = run_assetc("thumbnail", str(SPLATS / "upright_capture.ply"), "--out", str(out), "--frames", "8", "--view", "front", "--size", "128")
    assert result.returncode == 0, result.stderr
    frames = [picture(out / f"upright_capture.ply.{k:03d}.png") for k in range(1, 9)]
    assert np.abs(frames[0] - picture(out / "upright_capture.ply.png")).max() == 0
    for frame, view in ((frames[2], "right"), (frames[4], "back")):
        expected = still(view)
        assert np.abs(frame - expected).max() <= 2, view
        assert np.abs(frame - frames[0]).mean() > 2, f"the {view} view is another picture"
    webp = (out / "upright_capture.ply.webp").read_bytes()
    durations, at = [], 12  # the RIFF chunks after "RIFF", the size and "WEBP"; each ANMF frame's duration in 24 bits
    while at + 8 <= len(webp):
        kind, size = webp[at:at + 4], struct.unpack("<I", webp[at + 4:at + 8])[0]
        if kind == b"ANMF":
            durations.append(int.from_bytes(webp[at + 8 + 12:at + 8 + 15], "little"))
        at += 8 + size + (size & 1)
    assert durations == [500] * 8  # one turn in 4 s


@pytest.mark.parametrize("endianness", ["<", ">"], ids=["little", "big"])
def test_a_large_capture_is_read_from_its_mapping(tmp_path, endianness):
    # Past 8 MB a binary capture is decoded straight from the mapped file (its pages dropped as the
    # read moves on): 36,000 degree-3 splats written by plyfile, read back as plyfile reads them;
    # the same file cut short is one located error.
    from plyfile import PlyData, PlyElement
    rng = np.random.default_rng(7)
    n = 36000
    names = ["x", "y", "z", "f_dc_0", "f_dc_1", "f_dc_2"] + [f"f_rest_{k}" for k in range(45)] \
        + ["opacity", "scale_0", "scale_1", "scale_2", "rot_0", "rot_1", "rot_2", "rot_3"]
    data = np.zeros(n, dtype=[(name, endianness + "f4") for name in names])
    for name in names:
        data[name] = rng.normal(size=n) * (0.3 if name.startswith("f_rest") else 1.0)
    path = tmp_path / "large.ply"
    PlyData([PlyElement.describe(data, "vertex")], byte_order=endianness).write(str(path))
    assert path.stat().st_size > 8 << 20
    convert(path, tmp_path / "out.ply")
    for ours, theirs in zip(ply_activated(tmp_path / "out.ply"), ply_activated(path)):
        assert ours.shape == theirs.shape and np.abs(ours - theirs).max() <= 1e-6 * max(1.0, np.abs(theirs).max())
    cut = tmp_path / "cut.ply"
    cut.write_bytes(path.read_bytes()[:-1000])
    result = run_assetc("info", str(cut))
    assert result.returncode == 1 and "36000 splats of 236 bytes run past the end of the file" in result.stderr, result.stderr

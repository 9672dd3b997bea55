"""Skeletons, skins, blend shapes and animation as assetc reads them, against the reference tools:
on USD fixtures (made by usd-core's UsdSkel classes) the counts and the bounds posed at several
times against usd-core's own skinning; on glTF fixtures the counts and durations against
pygltflib, and the posed bounds against the specification's formulas evaluated in numpy."""
import math

import pytest

from conftest import FIXTURES, run_assetc
import gltf_anim_reference
import skel_reference

USD_CASES = sorted((FIXTURES / "anim").glob("*.usda"))
GLTF_CASES = sorted(p for p in (FIXTURES / "anim").glob("*") if p.suffix in (".gltf", ".glb"))
# Between keys, on keys, before the first and after the last.
TIMES = [0.0, 0.3, 0.7, 1.0, 1.9, 5.0]
COUNTED = ("skeletons", "joints", "skinnedMeshes", "blendShapes", "animations")


def info(path, *args):
    result = run_assetc("info", "--json", str(path), *args)
    assert result.returncode == 0, result.stderr
    import json
    return json.loads(result.stdout)


def test_there_are_cases():
    assert len(USD_CASES) >= 3 and len(GLTF_CASES) >= 3


@pytest.mark.parametrize("path", USD_CASES, ids=[p.name for p in USD_CASES])
def test_usd_counts_match_usd_core(path):
    mine, theirs = info(path), skel_reference.counts(path)
    assert {k: mine[k] for k in COUNTED} == {k: theirs[k] for k in COUNTED}
    assert math.isclose(mine["duration"], theirs["duration"], abs_tol=1e-9)
    assert mine["warnings"] == []


@pytest.mark.parametrize("seconds", TIMES)
@pytest.mark.parametrize("path", USD_CASES, ids=[p.name for p in USD_CASES])
def test_usd_posed_bounds_match_usd_core_skinning(path, seconds):
    mine = info(path, "--time", str(seconds))
    assert mine["time"] == seconds
    skel_reference.assert_bounds_close(mine["bounds"], skel_reference.posed_bounds(path, seconds))


def test_posing_moves_the_usd_fixtures():
    """The cross-check above would pass on a reader that ignored animation if usd-core did too;
    make sure the poses differ from the rest pose, so it compares something."""
    for path in USD_CASES:
        rest = info(path)["bounds"]
        assert any(info(path, "--time", str(t))["bounds"] != rest for t in TIMES[1:]), path.name


@pytest.mark.parametrize("path", GLTF_CASES, ids=[p.name for p in GLTF_CASES])
def test_gltf_counts_and_duration_match_pygltflib(path):
    mine, theirs = info(path), gltf_anim_reference.counts(path)
    assert {k: mine[k] for k in COUNTED} == {k: theirs[k] for k in COUNTED}
    assert math.isclose(mine["duration"], theirs["duration"], rel_tol=1e-6)
    assert mine["warnings"] == []


@pytest.mark.parametrize("seconds", TIMES)
@pytest.mark.parametrize("path", GLTF_CASES, ids=[p.name for p in GLTF_CASES])
def test_gltf_posed_bounds_match_the_specification(path, seconds):
    mine = info(path, "--time", str(seconds))
    skel_reference.assert_bounds_close(mine["bounds"], gltf_anim_reference.posed_bounds(path, seconds))


def test_animated_nodes_leave_joints_out():
    assert info(FIXTURES / "anim" / "simple_skin.gltf")["animatedNodes"] == 0  # only a joint moves
    assert info(FIXTURES / "anim" / "animated_cube.glb")["animatedNodes"] == 2
    assert info(FIXTURES / "anim" / "translate_cube.usda")["animatedNodes"] == 1


def test_conversion_without_animation_warns_once(tmp_path):
    out = tmp_path / "arm.obj"
    result = run_assetc("convert", str(FIXTURES / "anim" / "skinned_arm.usda"), str(out))
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("keeps no animation") == 1, result.stderr
    assert "1 animation clip, 1 skeleton" in result.stderr


def test_catalog_records_and_queries_the_animation_figures(tmp_path):
    import json
    import shutil
    library = tmp_path / "anim"
    shutil.copytree(FIXTURES / "anim", library, ignore=shutil.ignore_patterns("fail-case", "collada_channels", "*.py", "*.json", "*.cpp"))
    result = run_assetc("index", str(library), timeout=120)
    assert result.returncode == 0, result.stderr
    db = str(library / ".assetc" / "catalog.sqlite")

    def ids(expression):
        found = run_assetc("query", expression, "--db", db, "--json")
        assert found.returncode == 0, found.stderr
        return sorted(r["id"].rsplit("/", 1)[-1] for r in json.loads(found.stdout))

    assert ids("animations > 0 and joints > 2") == ["skinned_arm.dae", "skinned_arm.usda"]
    assert ids("blendShapes = 2") == ["blendshape_face.usda", "morph_quad.gltf", "morphed_sheet.dae"]
    assert ids("skinnedMeshes > 0") == ["blendshape_face.usda", "morphed_sheet.dae", "simple_skin.gltf", "skinned_arm.dae", "skinned_arm.usda"]
    assert ids("animations = 2") == ["animated_cube.glb", "skinned_arm.dae"]
    assert ids("duration > 2.5") == ["morphed_sheet.dae", "simple_skin.gltf"]
    assert ids("animatedNodes = 2") == ["animated_cube.glb"]


def test_thumbnail_frames_are_numbered_pngs_and_one_animated_webp(tmp_path):
    result = run_assetc("thumbnail", "--frames", "6", "--html", "--out", str(tmp_path), str(FIXTURES / "anim" / "simple_skin.gltf"))
    assert result.returncode == 0, result.stderr
    frames = sorted(tmp_path.glob("simple_skin.gltf.0*.png"))
    assert [p.name for p in frames] == [f"simple_skin.gltf.{k:03d}.png" for k in range(1, 7)]
    assert len({p.read_bytes() for p in frames}) > 3, "the frames should show the strip bending"
    webp = (tmp_path / "simple_skin.gltf.webp").read_bytes()
    assert webp[:4] == b"RIFF" and webp[8:12] == b"WEBP" and b"ANIM" in webp
    assert webp.count(b"ANMF") == 6
    assert "simple_skin.gltf.webp" in (tmp_path / "index.html").read_text()
    # A still asset gets its PNG and no frames.
    still = run_assetc("thumbnail", "--frames", "6", "--out", str(tmp_path / "still"), str(FIXTURES / "usd" / "minimal_mesh.usda"))
    assert still.returncode == 0, still.stderr
    assert sorted(p.name for p in (tmp_path / "still").iterdir()) == ["minimal_mesh.usda.png"]


COLLADA_CASES = sorted((FIXTURES / "anim").glob("*.dae"))


@pytest.mark.parametrize("path", COLLADA_CASES, ids=[p.name for p in COLLADA_CASES])
def test_collada_counts_match_the_xml_and_pycollada(path):
    import collada_anim_reference
    mine, theirs = info(path), collada_anim_reference.counts(path)
    assert {k: mine[k] for k in COUNTED} == {k: theirs[k] for k in COUNTED}
    assert math.isclose(mine["duration"], theirs["duration"], rel_tol=1e-6)
    assert mine["warnings"] == []
    # pycollada loads plain skins (not skins over morphs); those it loads have the joints assetc reads.
    loaded = collada_anim_reference.pycollada_skin_joints(path)
    if path.name == "skinned_arm.dae":
        assert loaded == [3]
    if loaded:
        assert sum(loaded) == mine["joints"]


ROUND_TRIPS = [("morphed_sheet.dae", ["usdz", "glb", "usda"]), ("skinned_arm.usda", ["glb", "dae", "usdc"]),
               ("simple_skin.gltf", ["usdz", "dae"]), ("morph_quad.gltf", ["usdz", "dae", "glb"]),
               ("animated_cube.glb", ["dae", "glb"]), ("point_cache.usda", ["usdc", "usdz", "usda"])]


@pytest.mark.parametrize("source,chain", ROUND_TRIPS, ids=[f"{s}->{'->'.join(c)}" for s, c in ROUND_TRIPS])
def test_round_trips_keep_the_rig_the_clips_and_the_poses(source, chain, tmp_path):
    original = FIXTURES / "anim" / source
    current = original
    for k, fmt in enumerate(chain):
        out = tmp_path / f"step{k}.{fmt}"
        result = run_assetc("convert", "--force", str(current), str(out))
        assert result.returncode == 0, result.stderr
        assert "keeps no animation" not in result.stderr
        current = out
    before, after = info(original), info(current)
    keys = ["skeletons", "joints", "blendShapes", "animations"]
    if before["blendShapes"] and not before["skeletons"] and any(f.startswith("usd") for f in chain):
        # UsdSkel animates blend shapes only through a skeleton: USD gains a one-joint rig for them.
        keys = ["blendShapes", "animations"]
    for key in keys:
        assert after[key] == before[key], f"{key}: {before[key]} -> {after[key]}"
    assert math.isclose(after["duration"], before["duration"], abs_tol=1e-4)
    # Poses at key times, where every format's interpolation agrees.
    for seconds in (0.0, 1.0):
        skel_reference.assert_bounds_close(info(current, "--time", str(seconds))["bounds"], info(original, "--time", str(seconds))["bounds"])


@pytest.mark.parametrize("path", USD_CASES + GLTF_CASES + COLLADA_CASES, ids=[p.name for p in USD_CASES + GLTF_CASES + COLLADA_CASES])
def test_animated_usdz_passes_usd_core_validators(path, tmp_path):
    from pxr import Usd, UsdValidation
    out = tmp_path / "out.usdz"
    result = run_assetc("convert", "--force", str(path), str(out))
    assert result.returncode == 0, result.stderr
    registry = UsdValidation.ValidationRegistry()
    assert registry.GetValidatorMetadataForKeyword("UsdzValidators")
    context = UsdValidation.ValidationContext(registry.GetOrLoadAllValidators())
    errors = [e for e in context.Validate(Usd.Stage.Open(str(out))) if e.GetType() == UsdValidation.ValidationErrorType.Error]
    assert not errors, "\n".join(f"{e.GetValidator().GetMetadata().name}: {e.GetMessage()}" for e in errors)
    # And usd-core poses what assetc wrote the way assetc poses the source.
    for seconds in (0.0, 1.0):
        skel_reference.assert_bounds_close(skel_reference.posed_bounds(out, seconds), info(path, "--time", str(seconds))["bounds"])


@pytest.mark.parametrize("fmt", ["dae", "obj", "glb", "usda"])
def test_convert_at_a_time_writes_that_pose_as_still_geometry(fmt, tmp_path):
    source = FIXTURES / "anim" / "skinned_arm.usda"
    out = tmp_path / f"posed.{fmt}"
    result = run_assetc("convert", "--time", "1", str(source), str(out))
    assert result.returncode == 0, result.stderr
    posed = info(out)
    assert (posed["skeletons"], posed["animations"], posed["meshes"]) == (0, 0, 1)
    skel_reference.assert_bounds_close(posed["bounds"], info(source, "--time", "1")["bounds"])
    if fmt == "dae":
        # Only the posed copy is written: the bind-pose mesh nothing places is dropped.
        assert out.read_text().count("<geometry ") == 1

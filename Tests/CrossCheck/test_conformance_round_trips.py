"""Round trips through every format that carries animation keep what the issue names: clip count, clip
names and lengths (dae -> usdz -> glb -> usda, with several clips laid end to end on USD's one timeline and
named in its customLayerData), node animation on prims with and without geometry below (usd-core's world
transforms of a usd-core-written stage at every step), and KHR_animation_pointer channels posing as the
plain channels they point at."""
import json
import math
import subprocess

import numpy
import pytest
from pxr import Usd, UsdGeom

from conftest import FIXTURES, assetc_binary, assetc_info, run_assetc
import gltf_anim_reference
import skel_reference

CLIP_SOURCES = [FIXTURES / "anim" / "collada_channels" / "clips.dae", FIXTURES / "anim" / "skinned_arm.dae",
                FIXTURES / "anim" / "collada_channels" / "nested.dae", FIXTURES / "anim" / "animated_cube.glb"]


def convert(source, out):
    result = subprocess.run([assetc_binary(), "convert", "--force", str(source), str(out)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stderr


def info_at(path, seconds):
    import json
    result = run_assetc("info", "--json", "--time", str(seconds), str(path))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("source", CLIP_SOURCES, ids=[p.name for p in CLIP_SOURCES])
def test_clips_survive_usdz_glb_usda(source, tmp_path):
    before = assetc_info(source)
    current = source
    for k, fmt in enumerate(["usdz", "glb", "usda"]):
        out = tmp_path / f"step{k}.{fmt}"
        stderr = convert(current, out)
        assert "left out" not in stderr or "clip" not in stderr, stderr
        current = out
        after = assetc_info(current)
        assert len(after["clips"]) == len(before["clips"]), f"{fmt}: {after['clips']}"
        # Joints travel as the skeleton; they must not come back as animated nodes of their own.
        assert after["animatedNodes"] == before["animatedNodes"], f"{fmt}: {after['animatedNodes']} animated nodes, not {before['animatedNodes']}"
        for a, b in zip(after["clips"], before["clips"]):
            assert math.isclose(a["end"] - a["start"], b["end"] - b["start"], abs_tol=1e-4), f"{fmt}: {a} vs {b}"
            if len(before["clips"]) > 1:
                assert a["name"] == b["name"]
    for seconds in sorted({c["start"] for c in before["clips"][:1]} | {c["end"] for c in before["clips"][:1]} | {0.5}):
        posed, original = info_at(current, seconds)["bounds"], info_at(source, seconds)["bounds"]
        for corner in ("min", "max"):
            assert numpy.allclose(posed[corner], original[corner], atol=2e-3), f"at {seconds} s: {posed} vs {original}"


XFORMS = FIXTURES / "usd" / "xform_animation" / "xform_animation.usda"
MOVERS = ["Locator", "Carrier", "Spinner", "Ball"]


def worlds(path):
    stage = Usd.Stage.Open(str(path))
    prims = {p.GetName(): UsdGeom.Xformable(p) for p in stage.Traverse() if p.IsA(UsdGeom.Xformable)}
    fps = stage.GetTimeCodesPerSecond()
    result = {}
    for name in MOVERS:
        prim = prims.get(name)
        assert prim is not None, f"{path.name}: no prim {name} in {sorted(prims)}"
        result[name] = [numpy.array(prim.ComputeLocalToWorldTransform(Usd.TimeCode(s * fps))) for s in (0, 0.25, 0.5, 1, 1.5, 2)]
    return result


@pytest.mark.parametrize("chain", [["usdc", "usdz", "usda"], ["glb", "usda"], ["dae", "usdc"]], ids="->".join)
def test_node_animation_with_and_without_geometry_survives(chain, tmp_path):
    info = assetc_info(XFORMS)
    assert info["animatedNodes"] == 3 and info["warnings"] == []
    expected = worlds(XFORMS)
    current = XFORMS
    for k, fmt in enumerate(chain):
        out = tmp_path / f"step{k}.{fmt}"
        convert(current, out)
        current = out
    final = tmp_path / "final.usda"
    convert(current, final)
    found = worlds(final)
    for name in MOVERS:
        for k, (a, b) in enumerate(zip(found[name], expected[name])):
            assert numpy.allclose(a, b, atol=2e-3), f"{name} at sample {k} after {chain}:\n{a}\n!=\n{b}"
    assert assetc_info(final)["animatedNodes"] >= 3


POINTER = FIXTURES / "gltf" / "animation_pointer"


@pytest.mark.parametrize("seconds", [0.0, 0.4, 1.0, 1.7, 2.5])
def test_animation_pointer_poses_as_the_plain_channels(seconds):
    pointer, plain = info_at(POINTER / "animation_pointer.gltf", seconds), info_at(POINTER / "animation_pointer_plain.gltf", seconds)
    assert pointer["bounds"] == plain["bounds"]
    skel_reference.assert_bounds_close(plain["bounds"], gltf_anim_reference.posed_bounds(POINTER / "animation_pointer_plain.gltf", seconds))


def test_a_material_pointer_is_read_and_one_assetc_cannot_animate_is_named(tmp_path):
    info = assetc_info(POINTER / "animation_pointer.gltf")
    assert info["warnings"] == [] and info["animatedMaterials"] == 1, info["warnings"]
    # The same file with the material pointer moved to a property assetc does not animate.
    document = json.loads((POINTER / "animation_pointer.gltf").read_text())
    document["animations"][0]["channels"][2]["target"]["extensions"]["KHR_animation_pointer"]["pointer"] = "/materials/0/alphaCutoff"
    moved = tmp_path / "animation_pointer.gltf"
    moved.write_text(json.dumps(document))
    for sidecar in POINTER.iterdir():
        if sidecar.suffix not in (".gltf", ".py"):
            (tmp_path / sidecar.name).write_bytes(sidecar.read_bytes())
    warnings = [w for w in assetc_info(moved)["warnings"] if "validation" not in w]
    assert len(warnings) == 1 and "/materials/0/alphaCutoff" in warnings[0], warnings


def test_quaternion_samples_turn_as_usd_core_turns_them(tmp_path):
    """`xformOp:orient` samples are blended on the sphere (GfSlerp), not component by component: a
    135-degree turn between two samples is 33.75 degrees a quarter of the way, not 30.6."""
    from pxr import Gf
    path = tmp_path / "orient.usda"
    stage = Usd.Stage.CreateNew(str(path))
    stage.SetTimeCodesPerSecond(24)
    stage.SetStartTimeCode(0)
    stage.SetEndTimeCode(48)
    turner = UsdGeom.Xform.Define(stage, "/Turner")
    orient = turner.AddOrientOp()
    for frame, degrees in ((0, 0), (24, 135), (48, 270)):
        orient.Set(Gf.Quatf(Gf.Rotation(Gf.Vec3d(0, 1, 0), degrees).GetQuat()), Usd.TimeCode(frame))
    mesh = UsdGeom.Mesh.Define(stage, "/Turner/Bar")
    mesh.CreatePointsAttr([(1, 0, 0), (3, 0, 0), (3, 1, 0), (1, 1, 0)])
    mesh.CreateFaceVertexCountsAttr([4])
    mesh.CreateFaceVertexIndicesAttr([0, 1, 2, 3])
    stage.GetRootLayer().Save()
    for seconds in (0.25, 0.5, 0.8, 1.25, 1.6):
        skel_reference.assert_bounds_close(info_at(path, seconds)["bounds"], skel_reference.posed_bounds(path, seconds))

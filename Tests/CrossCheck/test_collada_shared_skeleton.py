"""Skin controllers whose instances name the same <skeleton> root share one skeleton (issue 52): a
Blender-made glb with three meshes on one rig (Tests/Fixtures/rig/make_shared_rig.py), written to
Collada by assetc (three controllers, each naming the rig's root) and read back, has one skeleton of
three joints, not three; its usdz holds one UsdSkel Skeleton (counted by usd-core) and passes the
ARKit checks; and the joined skeleton poses the meshes as the glb does."""
import json

from pxr import Usd, UsdSkel

import arkit_checker
from conftest import FIXTURES, run_assetc

RIG = FIXTURES / "rig" / "shared_rig.glb"


def info(path, *extra):
    result = run_assetc("info", "--json", *extra, str(path))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_controllers_naming_one_skeleton_root_share_one_skeleton(tmp_path):
    dae = tmp_path / "rig.dae"
    assert run_assetc("convert", str(RIG), str(dae)).returncode == 0
    assert dae.read_text().count("<skeleton>") == 3, "the writer names the root in each of the three controllers"
    back = info(dae)
    assert (back["skeletons"], back["joints"], back["meshes"]) == (1, 3, 3), back
    assert back["warnings"] == []
    original = info(RIG)
    for t in ("0.5", "1"):
        posed, reference = info(dae, "--time", t)["bounds"], info(RIG, "--time", t)["bounds"]
        for key in ("min", "max"):
            assert all(abs(a - b) < 1e-4 for a, b in zip(posed[key], reference[key])), (t, posed, reference)
    assert original["skeletons"] == 1

    usdz = tmp_path / "rig.usdz"
    assert run_assetc("convert", str(dae), str(usdz)).returncode == 0
    stage = Usd.Stage.Open(str(usdz))
    skeletons = [p for p in stage.Traverse() if p.IsA(UsdSkel.Skeleton)]
    assert len(skeletons) == 1, [str(p.GetPath()) for p in skeletons]
    assert len(UsdSkel.Skeleton(skeletons[0]).GetJointsAttr().Get()) == 3
    report = arkit_checker.check(usdz)
    assert report["errors"] == [] and report["failed"] == [], report

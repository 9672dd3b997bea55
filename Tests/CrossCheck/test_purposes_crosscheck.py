"""Purposes as usd-core computes bounds and images: for each purpose set, `assetc info --purpose`
gives the bounds of usd-core's BBoxCache with those purposes, and `assetc thumbnail --purpose` draws
exactly what it draws of a copy that usd-core has stripped of every prim the set leaves out."""
import json
import subprocess

import pytest
from pxr import Usd, UsdGeom

from conftest import FIXTURES, assetc_binary, close

FIXTURE = FIXTURES / "usd" / "purposes_all.usda"
SETS = ["default,render", "default,render,proxy", "default,guide", "render", "default,render,proxy,guide"]


def bbox_cache_range(path, purposes):
    stage = Usd.Stage.Open(str(path))
    cache = UsdGeom.BBoxCache(Usd.TimeCode.Default(), [getattr(UsdGeom.Tokens, p if p != "default" else "default_")
                                                      for p in purposes.split(",")], useExtentsHint=False)
    box = cache.ComputeWorldBound(stage.GetPseudoRoot()).ComputeAlignedRange()
    return list(box.GetMin()), list(box.GetMax())


def run(*args, cwd=None):
    result = subprocess.run([assetc_binary(), *map(str, args)], capture_output=True, text=True, timeout=60, cwd=cwd)
    assert result.returncode == 0, result.stderr
    return result


@pytest.mark.parametrize("purposes", SETS)
def test_bounds_match_bbox_cache(purposes):
    mine = json.loads(run("info", "--json", "--purpose", purposes, FIXTURE).stdout)
    low, high = bbox_cache_range(FIXTURE, purposes)
    for a, b in zip(mine["bounds"]["min"] + mine["bounds"]["max"], low + high):
        assert close(a, b, 30), f"--purpose {purposes}: assetc {mine['bounds']} != BBoxCache {low} {high}"


def test_default_purposes_are_default_and_render():
    plain = json.loads(run("info", "--json", FIXTURE).stdout)
    chosen = json.loads(run("info", "--json", "--purpose", "default,render", FIXTURE).stdout)
    assert plain["bounds"] == chosen["bounds"] and plain["triangles"] == chosen["triangles"]
    assert any("unknown purpose 'sketch'" in w for w in plain["warnings"])


def strip_to(purposes, out):
    """The fixture flattened by usd-core with every prim whose computed purpose is not in the set removed."""
    stage = Usd.Stage.Open(str(FIXTURE))
    keep = set(purposes.split(","))
    doomed = [p.GetPath() for p in stage.Traverse()
              if UsdGeom.Imageable(p) and p.IsA(UsdGeom.Gprim) and str(UsdGeom.Imageable(p).ComputePurpose()) not in keep]
    layer = stage.Flatten()
    for path in doomed:
        spec = layer.GetPrimAtPath(path)
        del spec.nameParent.nameChildren[spec.name]
    layer.Export(str(out))


@pytest.mark.parametrize("purposes", ["default,render", "default,render,proxy,guide", "default,guide"])
def test_thumbnail_draws_what_usd_core_counts(purposes, tmp_path):
    stripped = tmp_path / "stripped.usda"
    strip_to(purposes, stripped)
    run("thumbnail", FIXTURE, "--out", tmp_path / "a", "--size", 96, "--purpose", purposes)
    run("thumbnail", stripped, "--out", tmp_path / "b", "--size", 96, "--purpose", "default,render,proxy,guide")
    mine = (tmp_path / "a" / (FIXTURE.name + ".png")).read_bytes()
    assert mine == (tmp_path / "b" / "stripped.usda.png").read_bytes()


def test_an_unknown_purpose_name_is_a_usage_error():
    result = subprocess.run([assetc_binary(), "info", "--purpose", "render,sketch", str(FIXTURE)], capture_output=True, text=True)
    assert result.returncode == 64 and "--purpose" in result.stderr


@pytest.mark.parametrize("hidden", ["guide", "proxy", "invisible"])
def test_a_skeleton_of_any_purpose_keeps_its_skin_in_glb(hidden, tmp_path):
    """usd-core's skeleton-purpose files author the Skeleton `guide`: the formats without purposes leave guide
    prims out, but a skeleton's joints place its skinned mesh, so they stay (the glb lost its skin). A skinned
    strip bound to a two-joint skeleton whose rest pose bends the knee, so the skin visibly moves the points:
    the glb has the skin, both joints, and the bounds usd-core's skinning gives."""
    import numpy as np
    import pygltflib
    from pxr import Gf, UsdSkel
    path = tmp_path / "rig.usda"
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageUpAxis(stage, "Y")
    UsdGeom.SetStageMetersPerUnit(stage, 1)
    root = UsdSkel.Root.Define(stage, "/Rig")
    stage.SetDefaultPrim(root.GetPrim())
    skeleton = UsdSkel.Skeleton.Define(stage, "/Rig/Skel")
    skeleton.CreateJointsAttr(["Hip", "Hip/Knee"])
    skeleton.CreateBindTransformsAttr([Gf.Matrix4d(1), Gf.Matrix4d(1).SetTranslate(Gf.Vec3d(0, 1, 0))])
    bent = Gf.Matrix4d(1).SetRotate(Gf.Rotation(Gf.Vec3d(1, 0, 0), 90)) * Gf.Matrix4d(1).SetTranslate(Gf.Vec3d(0, 1, 0))
    skeleton.CreateRestTransformsAttr([Gf.Matrix4d(1), bent])
    if hidden == "invisible":
        UsdGeom.Imageable(skeleton).CreateVisibilityAttr("invisible")
    else:
        UsdGeom.Imageable(skeleton).CreatePurposeAttr(hidden)
    mesh = UsdGeom.Mesh.Define(stage, "/Rig/Body")
    mesh.CreatePointsAttr([(-0.5, 0, 0), (0.5, 0, 0), (0.5, 1, 0), (-0.5, 1, 0), (0.5, 2, 0), (-0.5, 2, 0)])
    mesh.CreateFaceVertexCountsAttr([4, 4])
    mesh.CreateFaceVertexIndicesAttr([0, 1, 2, 3, 3, 2, 4, 5])
    binding = UsdSkel.BindingAPI.Apply(mesh.GetPrim())
    binding.CreateSkeletonRel().SetTargets([skeleton.GetPath()])
    binding.CreateJointIndicesPrimvar(False, 1).Set([0, 0, 1, 1, 1, 1])
    binding.CreateJointWeightsPrimvar(False, 1).Set([1] * 6)
    stage.Save()

    baked = Usd.Stage.Open(stage.Flatten())
    UsdSkel.BakeSkinning(baked.Traverse())
    points = np.array(UsdGeom.Mesh(baked.GetPrimAtPath("/Rig/Body")).GetPointsAttr().Get())

    out = tmp_path / "rig.glb"
    result = run("convert", path, out)
    assert "skin is left out" not in result.stderr, result.stderr
    gltf = pygltflib.GLTF2().load(str(out))
    assert len(gltf.skins) == 1 and len(gltf.skins[0].joints) == 2
    info = json.loads(run("info", "--json", "--time", "0", out).stdout)
    assert info["joints"] == 2 and info["skinnedMeshes"] == 1
    assert np.allclose(info["bounds"]["min"], points.min(axis=0), atol=1e-5), (info["bounds"], points.min(axis=0))
    assert np.allclose(info["bounds"]["max"], points.max(axis=0), atol=1e-5), (info["bounds"], points.max(axis=0))

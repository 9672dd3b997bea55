"""Animation figures for USD files computed by usd-core: UsdSkel's own queries (the skeleton's
skinning transforms, the blend-shape query's sub-shape weights and deformation, the skinning query's
linear blend skinning) at the requested time, skinned points placed by the skeleton's world
transform as UsdSkel specifies, other meshes by their own. Times are seconds, converted with the
stage's time codes per second as `assetc info --time` does."""
import math

import numpy as np
from pxr import Usd, UsdGeom, UsdSkel


def posed_points(stage, time):
    """World-space points of every mesh, keyed by prim path."""
    placed = {}
    cache = UsdSkel.Cache()
    for prim in stage.Traverse():
        if not prim.IsA(UsdSkel.Root):
            continue
        root = UsdSkel.Root(prim)
        cache.Populate(root, Usd.PrimDefaultPredicate)
        for binding in cache.ComputeSkelBindings(root, Usd.PrimDefaultPredicate):
            skeleton = cache.GetSkelQuery(binding.GetSkeleton())
            transforms = skeleton.ComputeSkinningTransforms(time)
            to_world = np.array(UsdGeom.Xformable(binding.GetSkeleton().GetPrim()).ComputeLocalToWorldTransform(time))
            for query in binding.GetSkinningTargets():
                mesh = query.GetPrim()
                points = UsdGeom.Mesh(mesh).GetPointsAttr().Get(time)
                animation = skeleton.GetAnimQuery()
                if query.HasBlendShapes() and animation:
                    shapes = UsdSkel.BlendShapeQuery(UsdSkel.BindingAPI(mesh))
                    weights = animation.ComputeBlendShapeWeights(time)
                    mapper = query.GetBlendShapeMapper()
                    if mapper:
                        weights = mapper.Remap(weights)
                    sub_weights, shape_indices, sub_indices = shapes.ComputeSubShapeWeights(weights)
                    assert shapes.ComputeDeformedPoints(sub_weights, shape_indices, sub_indices, shapes.ComputeBlendShapePointIndices(),
                                                        shapes.ComputeSubShapePointOffsets(), points)
                if query.HasJointInfluences():
                    assert query.ComputeSkinnedPoints(transforms, points, time)
                    world = to_world
                else:
                    world = np.array(UsdGeom.Xformable(mesh).ComputeLocalToWorldTransform(time))
                placed[mesh.GetPath()] = np.c_[np.array(points, float), np.ones(len(points))] @ world
    for prim in stage.Traverse():
        if prim.IsA(UsdGeom.Mesh) and prim.GetPath() not in placed:
            points = UsdGeom.Mesh(prim).GetPointsAttr().Get(time)
            world = np.array(UsdGeom.Xformable(prim).ComputeLocalToWorldTransform(time))
            placed[prim.GetPath()] = np.c_[np.array(points, float), np.ones(len(points))] @ world
    return placed


def posed_bounds(path, seconds):
    stage = Usd.Stage.Open(str(path))
    time = Usd.TimeCode(seconds * stage.GetTimeCodesPerSecond())
    every = np.vstack(list(posed_points(stage, time).values()))
    return {"min": every[:, :3].min(0).tolist(), "max": every[:, :3].max(0).tolist()}


def counts(path):
    stage = Usd.Stage.Open(str(path))
    skeletons = joints = skinned = shapes = 0
    animated = False
    cache = UsdSkel.Cache()
    for root in stage.Traverse():
        if root.IsA(UsdSkel.Root):
            cache.Populate(UsdSkel.Root(root), Usd.PrimDefaultPredicate)
    for prim in stage.Traverse():
        if prim.IsA(UsdSkel.Skeleton):
            skeletons += 1
            joints += len(UsdSkel.Skeleton(prim).GetJointsAttr().Get() or [])
        if prim.IsA(UsdGeom.Mesh):
            query = cache.GetSkinningQuery(prim)
            if query and query.HasJointInfluences():
                skinned += 1
            shapes += len(UsdSkel.BindingAPI(prim).GetBlendShapesAttr().Get() or [])
        for attribute in prim.GetAttributes():
            if attribute.GetNumTimeSamples() > 1:
                animated = True
    duration = 0.0
    if animated and stage.HasAuthoredMetadata("startTimeCode") and stage.HasAuthoredMetadata("endTimeCode"):
        duration = (stage.GetEndTimeCode() - stage.GetStartTimeCode()) / stage.GetTimeCodesPerSecond()
    return {"skeletons": skeletons, "joints": joints, "skinnedMeshes": skinned, "blendShapes": shapes,
            "animations": 1 if animated else 0, "duration": duration}


def assert_bounds_close(mine, theirs, rel=1e-4):
    scale = max(1.0, max(abs(x) for x in theirs["min"] + theirs["max"]))
    for key in ("min", "max"):
        for a, b in zip(mine[key], theirs[key]):
            assert math.isclose(a, b, abs_tol=rel * scale), f"{key}: {mine[key]} vs {theirs[key]}"
    return np.array(mine["max"]) - np.array(mine["min"])

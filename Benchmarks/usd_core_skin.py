#!/usr/bin/env python3
"""usd-core's skinning of every skinned mesh of a file at one time (seconds), as the skinning
benchmark's reference: opens the stage, computes the skinning transforms and skinned points with
UsdSkel's queries, and reports the time spent inside ComputeSkinnedPoints.
Usage: usd_core_skin.py FILE SECONDS"""
import sys
import time

from pxr import Usd, UsdGeom, UsdSkel

stage = Usd.Stage.Open(sys.argv[1])
code = Usd.TimeCode(float(sys.argv[2]) * stage.GetTimeCodesPerSecond())
cache = UsdSkel.Cache()
inside = 0.0
skinned = 0
for prim in stage.Traverse():
    if not prim.IsA(UsdSkel.Root):
        continue
    root = UsdSkel.Root(prim)
    cache.Populate(root, Usd.PrimDefaultPredicate)
    for binding in cache.ComputeSkelBindings(root, Usd.PrimDefaultPredicate):
        query = cache.GetSkelQuery(binding.GetSkeleton())
        transforms = query.ComputeSkinningTransforms(code)
        for target in binding.GetSkinningTargets():
            points = UsdGeom.Mesh(target.GetPrim()).GetPointsAttr().Get(code)
            start = time.perf_counter()
            assert target.ComputeSkinnedPoints(transforms, points, code)
            inside += time.perf_counter() - start
            skinned += len(points)
print(f"usd-core ComputeSkinnedPoints: {skinned} points in {inside:.4f} s", file=sys.stderr)

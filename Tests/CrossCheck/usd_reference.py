"""The figures `assetc info --json` reports, computed by OpenUSD's usd-core for the same file.

Conventions match Docs/CLI.md: values at the layer's startTimeCode when authored, else at USD's
default time (where usd-core reads default values only); prims traversed as usd-core's default predicate does (with instance
proxies); geometry of guide/proxy purpose and invisible prims left out; bounds from the points
themselves under their world transforms (never an authored extent); tessellated intrinsic shapes
counted as `primitives`, their bounds from their schema extent; Points counted as a mesh of points and no
faces; BasisCurves counted as `curves`
(curveVertexCounts) and `segments` (vertices less one per curve), their bounds from their points.
"""
import math
import sys
import json

import numpy as np
from pxr import Usd, UsdGeom, UsdShade

INTRINSIC = ("Cube", "Sphere", "Cylinder", "Cone", "Capsule", "Plane")


def figures(path):
    stage = Usd.Stage.Open(path)
    if stage.HasAuthoredMetadata("startTimeCode"):
        time = Usd.TimeCode(stage.GetStartTimeCode())
    else:
        time = Usd.TimeCode.Default()
    out = {"meshes": 0, "points": 0, "faces": 0, "triangles": 0, "primitives": 0, "curves": 0, "segments": 0}
    lo = np.full(3, math.inf)
    hi = np.full(3, -math.inf)
    counted = (UsdGeom.Tokens.default_, UsdGeom.Tokens.render)
    materials = 0
    for prim in stage.Traverse(Usd.TraverseInstanceProxies()):
        if prim.IsA(UsdShade.Material):
            materials += 1
        imageable = UsdGeom.Imageable(prim)
        if not imageable:
            continue
        if imageable.ComputePurpose() not in counted:
            continue
        if imageable.ComputeVisibility(time) == UsdGeom.Tokens.invisible:
            continue
        world = np.array(UsdGeom.Xformable(prim).ComputeLocalToWorldTransform(time)) if prim.IsA(UsdGeom.Xformable) else np.eye(4)
        if prim.IsA(UsdGeom.Mesh):
            mesh = UsdGeom.Mesh(prim)
            points = mesh.GetPointsAttr().Get(time)
            counts = mesh.GetFaceVertexCountsAttr().Get(time)
            points = np.array(points, dtype=np.float64).reshape(-1, 3) if points is not None else np.zeros((0, 3))
            counts = np.array(counts if counts is not None else [], dtype=np.int64)
            out["meshes"] += 1
            out["points"] += len(points)
            out["faces"] += len(counts)
            out["triangles"] += int(np.maximum(counts - 2, 0).sum())
            corners = points
        elif prim.IsA(UsdGeom.Points):
            # A point cloud: assetc counts it as a mesh of points and no faces.
            points = UsdGeom.Points(prim).GetPointsAttr().Get(time)
            corners = np.array(points, dtype=np.float64).reshape(-1, 3) if points is not None else np.zeros((0, 3))
            out["meshes"] += 1
            out["points"] += len(corners)
        elif prim.IsA(UsdGeom.BasisCurves):
            curves = UsdGeom.BasisCurves(prim)
            counts = np.array(curves.GetCurveVertexCountsAttr().Get(time) or [], dtype=np.int64)
            points = curves.GetPointsAttr().Get(time)
            out["curves"] += len(counts)
            out["segments"] += int(np.maximum(counts - 1, 0).sum())
            corners = np.array(points, dtype=np.float64).reshape(-1, 3) if points is not None else np.zeros((0, 3))
        elif prim.GetTypeName() in INTRINSIC:
            out["primitives"] += 1
            extent = UsdGeom.Boundable.ComputeExtentFromPlugins(UsdGeom.Boundable(prim), time)
            (x0, y0, z0), (x1, y1, z1) = extent[0], extent[1]
            corners = np.array([[x, y, z] for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)], dtype=np.float64)
        else:
            continue
        if len(corners):
            # usd-core matrices are row-major for row vectors: p' = p * M.
            homogeneous = np.hstack([corners, np.ones((len(corners), 1))]) @ world
            placed = homogeneous[:, :3] / homogeneous[:, 3:4]
            finite = placed[np.isfinite(placed).all(axis=1)]
            if len(finite):
                lo = np.minimum(lo, finite.min(axis=0))
                hi = np.maximum(hi, finite.max(axis=0))
    out["materials"] = materials
    out["upAxis"] = str(UsdGeom.GetStageUpAxis(stage))
    out["metersPerUnit"] = UsdGeom.GetStageMetersPerUnit(stage)
    out["bounds"] = None if not np.isfinite(lo).all() else {"min": lo.tolist(), "max": hi.tolist()}
    return out


if __name__ == "__main__":
    print(json.dumps(figures(sys.argv[1]), indent=2))

#!/usr/bin/env python3
"""What usd-core does to read the same figures assetc's `info` reads: open the stage and pull every
mesh's points, topology and primvars. Prints the seconds spent inside Python."""
import sys
import time

start = time.perf_counter()
from pxr import Usd, UsdGeom  # noqa: E402

stage = Usd.Stage.Open(sys.argv[1])
triangles = 0
for prim in stage.Traverse():
    if prim.IsA(UsdGeom.Mesh):
        mesh = UsdGeom.Mesh(prim)
        points = mesh.GetPointsAttr().Get()
        counts = mesh.GetFaceVertexCountsAttr().Get()
        indices = mesh.GetFaceVertexIndicesAttr().Get()
        # Primvars as assetc reads them: values and, where authored, their indices.
        for primvar in UsdGeom.PrimvarsAPI(prim).GetPrimvars():
            primvar.Get()
            primvar.GetIndices()
        triangles += sum(c - 2 for c in counts)
print(f"usd-core: {triangles} triangles, {time.perf_counter() - start:.3f} s inside Python")

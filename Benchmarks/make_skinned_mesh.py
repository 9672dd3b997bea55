#!/usr/bin/env python3
"""Writes a skinned grid for the skinning benchmark with usd-core: N points (a square grid),
a 16-joint chain along x, 4 influences per point, and a SkelAnimation that bends the chain over
48 frames.  Usage: make_skinned_mesh.py OUT.usdc [POINTS]"""
import math
import sys

import numpy as np
from pxr import Gf, Sdf, Usd, UsdGeom, UsdSkel, Vt

out = sys.argv[1]
points_wanted = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
side = int(math.isqrt(points_wanted))
joints = 16

stage = Usd.Stage.CreateNew(out)
UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
UsdGeom.SetStageMetersPerUnit(stage, 1.0)
stage.SetStartTimeCode(1)
stage.SetEndTimeCode(48)
root = UsdSkel.Root.Define(stage, "/Grid")
stage.SetDefaultPrim(root.GetPrim())
skeleton = UsdSkel.Skeleton.Define(stage, "/Grid/Skeleton")
names = ["/".join(f"J{k}" for k in range(j + 1)) for j in range(joints)]
skeleton.CreateJointsAttr(names)
step = 1.0 / (joints - 1)
skeleton.CreateBindTransformsAttr(Vt.Matrix4dArray([Gf.Matrix4d().SetTranslate(Gf.Vec3d(j * step, 0, 0)) for j in range(joints)]))
skeleton.CreateRestTransformsAttr(Vt.Matrix4dArray([Gf.Matrix4d().SetTranslate(Gf.Vec3d(0 if j == 0 else step, 0, 0)) for j in range(joints)]))
animation = UsdSkel.Animation.Define(stage, "/Grid/Skeleton/Bend")
animation.CreateJointsAttr(names)
translations = Vt.Vec3fArray([Gf.Vec3f(0 if j == 0 else step, 0, 0) for j in range(joints)])
for frame in (1, 48):
    angle = 0 if frame == 1 else 10
    animation.CreateTranslationsAttr().Set(translations, frame)
    animation.CreateRotationsAttr().Set(Vt.QuatfArray([Gf.Quatf(Gf.Rotation(Gf.Vec3d(0, 0, 1), angle).GetQuat())] * joints), frame)
    animation.CreateScalesAttr().Set(Vt.Vec3hArray([Gf.Vec3h(1, 1, 1)] * joints), frame)
UsdSkel.BindingAPI.Apply(skeleton.GetPrim()).CreateAnimationSourceRel().SetTargets([animation.GetPath()])

u = np.linspace(0, 1, side, dtype=np.float32)
xs, zs = np.meshgrid(u, u)
points = np.stack([xs.ravel(), np.zeros(side * side, np.float32), zs.ravel()], axis=1)
grid = np.arange(side * side, dtype=np.int32).reshape(side, side)
quads = np.stack([grid[:-1, :-1], grid[1:, :-1], grid[1:, 1:], grid[:-1, 1:]], axis=-1).reshape(-1)
mesh = UsdGeom.Mesh.Define(stage, "/Grid/Sheet")
mesh.CreatePointsAttr(Vt.Vec3fArray.FromNumpy(points))
mesh.CreateFaceVertexCountsAttr(Vt.IntArray.FromNumpy(np.full(len(quads) // 4, 4, np.int32)))
mesh.CreateFaceVertexIndicesAttr(Vt.IntArray.FromNumpy(quads))
position = points[:, 0] / step
base = np.clip(np.floor(position).astype(np.int32) - 1, 0, joints - 4)
indices = np.stack([base, base + 1, base + 2, base + 3], axis=1)
distance = np.abs(position[:, None] - indices)
weights = 1.0 / (1.0 + distance) ** 2
weights /= weights.sum(axis=1, keepdims=True)
binding = UsdSkel.BindingAPI.Apply(mesh.GetPrim())
binding.CreateSkeletonRel().SetTargets([skeleton.GetPath()])
binding.CreateJointIndicesPrimvar(False, 4).Set(Vt.IntArray.FromNumpy(indices.astype(np.int32).ravel()))
binding.CreateJointWeightsPrimvar(False, 4).Set(Vt.FloatArray.FromNumpy(weights.astype(np.float32).ravel()))
stage.Save()

#!/usr/bin/env python3
"""Writes the animated USD fixtures beside this file with usd-core, so UsdSkel's own schema
classes author them: the equivalents of the usd-wg samples (a skinned arm, a cube with a translate
and turn animation, a mesh with two animated blend shapes).

The outputs are committed; run this again only to change them:
    python3 Tests/Fixtures/anim/make_anim_fixtures.py
"""
import math
import os

from pxr import Gf, Sdf, Usd, UsdGeom, UsdSkel, Vt

HERE = os.path.dirname(os.path.abspath(__file__))


def new_stage(name, start, end, fps=24):
    path = os.path.join(HERE, name)
    if os.path.exists(path):
        os.remove(path)
    stage = Usd.Stage.CreateNew(path)
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    stage.SetStartTimeCode(start)
    stage.SetEndTimeCode(end)
    stage.SetTimeCodesPerSecond(fps)
    return stage


def box_column(length, segments, half=0.25):
    """A square tube along +X, capped, with rings of four points."""
    points, counts, indices = [], [], []
    for s in range(segments + 1):
        x = length * s / segments
        points += [Gf.Vec3f(x, -half, -half), Gf.Vec3f(x, half, -half), Gf.Vec3f(x, half, half), Gf.Vec3f(x, -half, half)]
    for s in range(segments):
        a, b = 4 * s, 4 * (s + 1)
        for k in range(4):
            counts.append(4)
            indices += [a + k, a + (k + 1) % 4, b + (k + 1) % 4, b + k]
    last = 4 * segments
    counts += [4, 4]
    indices += [3, 2, 1, 0, last, last + 1, last + 2, last + 3]
    return points, counts, indices


def skinned_arm():
    stage = new_stage("skinned_arm.usda", 1, 48)
    root = UsdSkel.Root.Define(stage, "/Arm")
    stage.SetDefaultPrim(root.GetPrim())
    UsdGeom.XformCommonAPI(root).SetTranslate(Gf.Vec3d(0, 1, 0))
    skeleton = UsdSkel.Skeleton.Define(stage, "/Arm/Skeleton")
    joints = ["Shoulder", "Shoulder/Elbow", "Shoulder/Elbow/Wrist"]
    skeleton.CreateJointsAttr(joints)
    binds = [Gf.Matrix4d().SetTranslate(Gf.Vec3d(x, 0, 0)) for x in (0, 1, 2)]
    skeleton.CreateBindTransformsAttr(Vt.Matrix4dArray(binds))
    rests = [Gf.Matrix4d().SetTranslate(Gf.Vec3d(x, 0, 0)) for x in (0, 1, 1)]
    skeleton.CreateRestTransformsAttr(Vt.Matrix4dArray(rests))

    animation = UsdSkel.Animation.Define(stage, "/Arm/Skeleton/Wave")
    animation.CreateJointsAttr(joints)
    translations = animation.CreateTranslationsAttr()
    rotations = animation.CreateRotationsAttr()
    scales = animation.CreateScalesAttr()
    for frame in (1, 12, 24, 36, 48):
        bend = 70 * math.sin(math.pi * (frame - 1) / 47)
        lift = 30 * (frame - 1) / 47
        quats = [Gf.Quatf(Gf.Rotation(Gf.Vec3d(0, 0, 1), lift).GetQuat()),
                 Gf.Quatf(Gf.Rotation(Gf.Vec3d(0, 0, 1), bend).GetQuat()),
                 Gf.Quatf(Gf.Rotation(Gf.Vec3d(0, 1, 0), bend / 2).GetQuat())]
        translations.Set(Vt.Vec3fArray([Gf.Vec3f(0, 0, 0), Gf.Vec3f(1, 0, 0), Gf.Vec3f(1, 0, 0)]), frame)
        rotations.Set(Vt.QuatfArray(quats), frame)
        scales.Set(Vt.Vec3hArray([Gf.Vec3h(1, 1, 1)] * 3), frame)
    UsdSkel.BindingAPI.Apply(skeleton.GetPrim()).CreateAnimationSourceRel().SetTargets([animation.GetPath()])

    points, counts, indices = box_column(3.0, 6)
    mesh = UsdGeom.Mesh.Define(stage, "/Arm/Sleeve")
    mesh.CreatePointsAttr(points)
    mesh.CreateFaceVertexCountsAttr(counts)
    mesh.CreateFaceVertexIndicesAttr(indices)
    binding = UsdSkel.BindingAPI.Apply(mesh.GetPrim())
    binding.CreateSkeletonRel().SetTargets([skeleton.GetPath()])
    joint_indices, joint_weights = [], []
    for p in points:
        x = p[0]
        if x <= 1:
            pair, w = (0, 1), max(0.0, x - 0.5) * 2 * 0.5
        elif x <= 2:
            pair, w = (1, 2), max(0.0, x - 1.5) * 2 * 0.5
        else:
            pair, w = (1, 2), 1.0
        joint_indices += list(pair)
        joint_weights += [1 - w, w]
    binding.CreateJointIndicesPrimvar(False, 2).Set(joint_indices)
    binding.CreateJointWeightsPrimvar(False, 2).Set(joint_weights)
    binding.CreateGeomBindTransformAttr(Gf.Matrix4d().SetTranslate(Gf.Vec3d(0, 0.1, 0)))
    stage.Save()


def translate_cube():
    stage = new_stage("translate_cube.usda", 0, 48)
    root = UsdGeom.Xform.Define(stage, "/Scene")
    stage.SetDefaultPrim(root.GetPrim())
    mover = UsdGeom.Xform.Define(stage, "/Scene/Mover")
    translate = mover.AddTranslateOp()
    turn = mover.AddRotateYOp()
    for frame, x in ((0, 0.0), (24, 2.0), (48, 2.0)):
        translate.Set(Gf.Vec3d(x, 0.5 * frame / 48, 0), frame)
    for frame, degrees in ((0, 0.0), (24, 45.0), (48, 90.0)):
        turn.Set(degrees, frame)
    points, counts, indices = box_column(1.0, 1, half=0.5)
    mesh = UsdGeom.Mesh.Define(stage, "/Scene/Mover/Cube")
    mesh.CreatePointsAttr(points)
    mesh.CreateFaceVertexCountsAttr(counts)
    mesh.CreateFaceVertexIndicesAttr(indices)
    still = UsdGeom.Mesh.Define(stage, "/Scene/Floor")
    still.CreatePointsAttr([(-2, 0, -2), (2, 0, -2), (2, 0, 2), (-2, 0, 2)])
    still.CreateFaceVertexCountsAttr([4])
    still.CreateFaceVertexIndicesAttr([0, 3, 2, 1])
    stage.Save()


def blendshape_mesh():
    stage = new_stage("blendshape_face.usda", 1, 24)
    root = UsdSkel.Root.Define(stage, "/Face")
    stage.SetDefaultPrim(root.GetPrim())
    skeleton = UsdSkel.Skeleton.Define(stage, "/Face/Skeleton")
    skeleton.CreateJointsAttr(["Head"])
    skeleton.CreateBindTransformsAttr(Vt.Matrix4dArray([Gf.Matrix4d(1)]))
    skeleton.CreateRestTransformsAttr(Vt.Matrix4dArray([Gf.Matrix4d(1)]))
    animation = UsdSkel.Animation.Define(stage, "/Face/Skeleton/Talk")
    animation.CreateJointsAttr(["Head"])
    animation.CreateTranslationsAttr(Vt.Vec3fArray([Gf.Vec3f(0, 0, 0)]))
    animation.CreateRotationsAttr(Vt.QuatfArray([Gf.Quatf(1, 0, 0, 0)]))
    animation.CreateScalesAttr(Vt.Vec3hArray([Gf.Vec3h(1, 1, 1)]))
    animation.CreateBlendShapesAttr(["Smile", "Open"])
    weights = animation.CreateBlendShapeWeightsAttr()
    for frame, smile, open_ in ((1, 0.0, 0.0), (12, 1.0, 0.25), (24, 0.5, 1.0)):
        weights.Set(Vt.FloatArray([smile, open_]), frame)
    UsdSkel.BindingAPI.Apply(skeleton.GetPrim()).CreateAnimationSourceRel().SetTargets([animation.GetPath()])

    grid = 5
    points = [Gf.Vec3f(x - 2, y - 2, 0) for y in range(grid) for x in range(grid)]
    counts, indices = [], []
    for y in range(grid - 1):
        for x in range(grid - 1):
            a = y * grid + x
            counts.append(4)
            indices += [a, a + 1, a + 1 + grid, a + grid]
    mesh = UsdGeom.Mesh.Define(stage, "/Face/Mask")
    mesh.CreatePointsAttr(points)
    mesh.CreateFaceVertexCountsAttr(counts)
    mesh.CreateFaceVertexIndicesAttr(indices)
    binding = UsdSkel.BindingAPI.Apply(mesh.GetPrim())
    binding.CreateSkeletonRel().SetTargets([skeleton.GetPath()])
    binding.CreateJointIndicesPrimvar(True, 1).Set([0])
    binding.CreateJointWeightsPrimvar(True, 1).Set([1.0])

    smile = UsdSkel.BlendShape.Define(stage, "/Face/Mask/Smile")
    corners = [0, 4, 20, 24]
    smile.CreatePointIndicesAttr(corners)
    smile.CreateOffsetsAttr([Gf.Vec3f(0, 0, 1.5)] * len(corners))
    smile.CreateInbetween("Half").SetOffsets(Vt.Vec3fArray([Gf.Vec3f(0, 0, 1.0)] * len(corners)))
    smile.GetInbetween("Half").SetWeight(0.5)
    opened = UsdSkel.BlendShape.Define(stage, "/Face/Mask/Open")
    opened.CreateOffsetsAttr([Gf.Vec3f(0, -0.5 if p[1] < 0 else 0.5, 0) for p in points])
    binding.CreateBlendShapesAttr(["Smile", "Open"])
    binding.CreateBlendShapeTargetsRel().SetTargets([smile.GetPath(), opened.GetPath()])
    stage.Save()


def point_cache():
    """A sheet whose points are sampled per frame (a point cache, as Alembic-born USD has)."""
    stage = new_stage("point_cache.usda", 1, 24)
    root = UsdGeom.Xform.Define(stage, "/Wave")
    stage.SetDefaultPrim(root.GetPrim())
    grid = 4
    mesh = UsdGeom.Mesh.Define(stage, "/Wave/Sheet")
    mesh.CreateFaceVertexCountsAttr([4] * (grid - 1) ** 2)
    mesh.CreateFaceVertexIndicesAttr([i for y in range(grid - 1) for x in range(grid - 1)
                                      for i in (y * grid + x, y * grid + x + 1, (y + 1) * grid + x + 1, (y + 1) * grid + x)])
    points = mesh.CreatePointsAttr()
    for frame in (1, 8, 16, 24):
        phase = frame / 24 * 2 * math.pi
        points.Set([Gf.Vec3f(x, math.sin(phase + x) * 0.5, z) for z in range(grid) for x in range(grid)], frame)
    stage.Save()


if __name__ == "__main__":
    skinned_arm()
    translate_cube()
    blendshape_mesh()
    point_cache()

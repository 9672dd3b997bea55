#!/usr/bin/env python3
"""Writes xform_animation.usda with usd-core: node animation as USD authors it, on prims with and without
geometry below: an Xform with time-sampled translate and rotateY and nothing under it (a locator), one whose
sampled transform op moves a child Cube, one with sampled rotateXYZ and scale over a Sphere two levels down,
and a static Xform beside them. Run: python3 make_xform_animation.py; the output is committed."""
import os

from pxr import Gf, Usd, UsdGeom

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    stage = Usd.Stage.CreateNew(os.path.join(HERE, "xform_animation.usda"))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
    UsdGeom.SetStageMetersPerUnit(stage, 1)
    stage.SetStartTimeCode(0)
    stage.SetEndTimeCode(48)
    stage.SetTimeCodesPerSecond(24)
    root = UsdGeom.Xform.Define(stage, "/World")
    stage.SetDefaultPrim(root.GetPrim())

    locator = UsdGeom.Xform.Define(stage, "/World/Locator")
    move = locator.AddTranslateOp()
    for t, v in ((0, (0, 0, 0)), (24, (2, 0, 0)), (48, (2, 3, 0))):
        move.Set(Gf.Vec3d(*v), t)
    turn = locator.AddRotateYOp()
    turn.Set(0.0, 0)
    turn.Set(270.0, 48)

    carrier = UsdGeom.Xform.Define(stage, "/World/Carrier")
    whole = carrier.AddTransformOp()
    for t, x in ((0, 0.0), (12, 1.0), (48, -2.0)):
        whole.Set(Gf.Matrix4d().SetTranslate(Gf.Vec3d(x, 0, 1)), t)
    UsdGeom.Cube.Define(stage, "/World/Carrier/Box").CreateSizeAttr(0.5)

    spinner = UsdGeom.Xform.Define(stage, "/World/Spinner")
    spinner.AddTranslateOp().Set(Gf.Vec3d(0, 2, 0))
    spin = spinner.AddRotateXYZOp()
    spin.Set(Gf.Vec3f(0, 0, 0), 0)
    spin.Set(Gf.Vec3f(30, 90, 0), 48)
    grow = spinner.AddScaleOp()
    grow.Set(Gf.Vec3f(1, 1, 1), 0)
    grow.Set(Gf.Vec3f(2, 1, 1), 24)
    UsdGeom.Xform.Define(stage, "/World/Spinner/Arm").AddTranslateOp().Set(Gf.Vec3d(1, 0, 0))
    UsdGeom.Sphere.Define(stage, "/World/Spinner/Arm/Ball").CreateRadiusAttr(0.25)

    UsdGeom.Xform.Define(stage, "/World/Still").AddTranslateOp().Set(Gf.Vec3d(-3, 0, 0))
    stage.GetRootLayer().Save()


if __name__ == "__main__":
    main()

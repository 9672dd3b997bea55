"""Writes light_animation.usda with usd-core: a cube lit by a DistantLight whose colour fades from warm
to cold and a SphereLight whose intensity pulses, both as time samples (24 codes a second), the form DCC
exports of a lighting animation take. Run with usd-core installed: python make_light_animation.py"""
from pathlib import Path

from pxr import Gf, Usd, UsdGeom, UsdLux

HERE = Path(__file__).parent


def main():
    stage = Usd.Stage.CreateNew(str(HERE / "light_animation.usda"))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
    UsdGeom.SetStageMetersPerUnit(stage, 1)
    stage.SetTimeCodesPerSecond(24)
    stage.SetStartTimeCode(0)
    stage.SetEndTimeCode(48)
    root = UsdGeom.Xform.Define(stage, "/Scene")
    stage.SetDefaultPrim(root.GetPrim())
    UsdGeom.Cube.Define(stage, "/Scene/Box").CreateSizeAttr(1)
    sun = UsdLux.DistantLight.Define(stage, "/Scene/Sun")
    UsdGeom.XformCommonAPI(sun).SetRotate(Gf.Vec3f(-45, 30, 0))
    colour = sun.CreateColorAttr(Gf.Vec3f(1, 0.8, 0.6))
    for code, value in ((0, (1, 0.8, 0.6)), (24, (0.9, 0.9, 0.9)), (48, (0.5, 0.7, 1))):
        colour.Set(Gf.Vec3f(*value), code)
    sun.CreateIntensityAttr(3)
    lamp = UsdLux.SphereLight.Define(stage, "/Scene/Lamp")
    UsdGeom.XformCommonAPI(lamp).SetTranslate(Gf.Vec3d(1.5, 2, 1))
    lamp.CreateColorAttr(Gf.Vec3f(1, 1, 1))
    intensity = lamp.CreateIntensityAttr(10)
    for code, value in ((0, 10), (12, 40), (36, 5), (48, 10)):
        intensity.Set(value, code)
    stage.GetRootLayer().Save()


if __name__ == "__main__":
    main()

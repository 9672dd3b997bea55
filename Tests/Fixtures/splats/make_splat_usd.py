"""Writes the USD splat fixtures with usd-core's own schema API (UsdVol.ParticleField3DGaussianSplat,
OpenUSD 26.03 and later), from the 3DGS PLY fixture beside this script, so the USD splat reader is
tested on files shaped by OpenUSD itself.

    python3 Tests/Fixtures/splats/make_splat_usd.py

- field_deg3.usda / field_deg3.usdc: inria_deg3_le.ply as given (PLY axes, activated: linear scales,
  sigmoid opacities, unit quaternions), under an Xform moved by (1, 2, 3) and turned 90 degrees about Y.
- field_half.usda: the half twins only (positionsh, orientationsh, scalesh, opacitiesh,
  radiance:sphericalHarmonicsCoefficientsh), degree 1, from inria_deg1_be.ply.
- field_rules.usda: the schema's length rules: 4 positions, 6 scales (cut to 4), 2 opacities (too
  few: ignored, opacity 1), no orientations, no degree authored (fallback 3) and 4 x 16 coefficients.
- mixed_mesh_field.usda: a grey box (a mesh with a UsdPreviewSurface) with inria_deg1_be.ply's splats
  above it: a scene of both kinds, Y up, in metres.
"""
import pathlib

import numpy as np
from plyfile import PlyData
from pxr import Gf, Sdf, Usd, UsdGeom, UsdVol, Vt

HERE = pathlib.Path(__file__).resolve().parent


def activated(name):
    v = PlyData.read(str(HERE / name))["vertex"].data
    n = len(v)
    rest = sorted((p for p in v.dtype.names if p.startswith("f_rest_")), key=lambda p: int(p[7:]))
    per_channel = len(rest) // 3
    degree = {0: 0, 3: 1, 8: 2, 15: 3}[per_channel]
    pos = np.stack([v["x"], v["y"], v["z"]], 1).astype(np.float64)
    q = np.stack([v[f"rot_{k}"] for k in range(4)], 1).astype(np.float64)  # w, x, y, z
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    scales = np.exp(np.stack([v[f"scale_{k}"] for k in range(3)], 1).astype(np.float64))
    opacity = 1 / (1 + np.exp(-np.asarray(v["opacity"], np.float64)))
    sh = np.zeros((n, (degree + 1) ** 2, 3))
    for c in range(3):
        sh[:, 0, c] = v[f"f_dc_{c}"]
        for k in range(per_channel):
            sh[:, k + 1, c] = v[rest[c * per_channel + k]]
    return pos, q, scales, opacity, degree, sh


def field(stage, path, data, *, half=False):
    pos, q, scales, opacity, degree, sh = data
    f = UsdVol.ParticleField3DGaussianSplat.Define(stage, path)
    if half:
        f.CreatePositionshAttr(Vt.Vec3hArray([Gf.Vec3h(*p) for p in pos]))
        f.CreateOrientationshAttr(Vt.QuathArray([Gf.Quath(*r) for r in q]))
        f.CreateScaleshAttr(Vt.Vec3hArray([Gf.Vec3h(*s) for s in scales]))
        f.CreateOpacitieshAttr(Vt.HalfArray([float(o) for o in opacity]))
        f.CreateRadianceSphericalHarmonicsCoefficientshAttr(Vt.Vec3hArray([Gf.Vec3h(*c) for c in sh.reshape(-1, 3)]))
    else:
        f.CreatePositionsAttr(Vt.Vec3fArray([Gf.Vec3f(*p) for p in pos]))
        f.CreateOrientationsAttr(Vt.QuatfArray([Gf.Quatf(*r) for r in q]))
        f.CreateScalesAttr(Vt.Vec3fArray([Gf.Vec3f(*s) for s in scales]))
        f.CreateOpacitiesAttr(Vt.FloatArray([float(o) for o in opacity]))
        f.CreateRadianceSphericalHarmonicsCoefficientsAttr(Vt.Vec3fArray([Gf.Vec3f(*c) for c in sh.reshape(-1, 3)]))
    f.CreateRadianceSphericalHarmonicsDegreeAttr(degree)
    return f


def main():
    data = activated("inria_deg3_le.ply")
    for name in ("field_deg3.usda", "field_deg3.usdc"):
        stage = Usd.Stage.CreateNew(str(HERE / name))
        UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
        root = UsdGeom.Xform.Define(stage, "/Capture")
        root.AddTranslateOp().Set(Gf.Vec3d(1, 2, 3))
        root.AddRotateYOp().Set(90)
        stage.SetDefaultPrim(root.GetPrim())
        field(stage, "/Capture/Field", data)
        stage.Save()

    stage = Usd.Stage.CreateNew(str(HERE / "field_half.usda"))
    field(stage, "/Field", activated("inria_deg1_be.ply"), half=True)
    stage.SetDefaultPrim(stage.GetPrimAtPath("/Field"))
    stage.Save()

    stage = Usd.Stage.CreateNew(str(HERE / "field_rules.usda"))
    f = UsdVol.ParticleField3DGaussianSplat.Define(stage, "/Rules")
    f.CreatePositionsAttr(Vt.Vec3fArray([Gf.Vec3f(i, 0, 0) for i in range(4)]))
    f.CreateScalesAttr(Vt.Vec3fArray([Gf.Vec3f(0.1 * (i + 1), 0.1, 0.1) for i in range(6)]))
    f.CreateOpacitiesAttr(Vt.FloatArray([0.5, 0.25]))
    f.CreateRadianceSphericalHarmonicsCoefficientsAttr(Vt.Vec3fArray([Gf.Vec3f(0.01 * k, 0, 0) for k in range(4 * 16)]))
    stage.SetDefaultPrim(f.GetPrim())
    stage.Save()

    mixed()


def mixed():
    from pxr import UsdShade
    stage = Usd.Stage.CreateNew(str(HERE / "mixed_mesh_field.usda"))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    root = UsdGeom.Xform.Define(stage, "/Scene")
    stage.SetDefaultPrim(root.GetPrim())
    box = UsdGeom.Mesh.Define(stage, "/Scene/Box")
    corners = [(x, y, z) for x in (-1, 1) for y in (-1, 0) for z in (-1, 1)]
    box.CreatePointsAttr([Gf.Vec3f(*c) for c in corners])
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    box.CreateFaceVertexCountsAttr([4] * 6)
    box.CreateFaceVertexIndicesAttr([i for f in faces for i in f])
    box.CreateExtentAttr([Gf.Vec3f(-1, -1, -1), Gf.Vec3f(1, 0, 1)])
    material = UsdShade.Material.Define(stage, "/Scene/Materials/Grey")
    shader = UsdShade.Shader.Define(stage, "/Scene/Materials/Grey/Surface")
    shader.CreateIdAttr("UsdPreviewSurface")
    shader.CreateInput("diffuseColor", Sdf.ValueTypeNames.Color3f).Set(Gf.Vec3f(0.5, 0.5, 0.5))
    material.CreateSurfaceOutput().ConnectToSource(shader.ConnectableAPI(), "surface")
    UsdShade.MaterialBindingAPI.Apply(box.GetPrim()).Bind(material)
    splats = UsdGeom.Xform.Define(stage, "/Scene/Splats")
    splats.AddTranslateOp().Set(Gf.Vec3d(0, 1, 0))
    field(stage, "/Scene/Splats/Field", activated("inria_deg1_be.ply"))
    stage.Save()


if __name__ == "__main__":
    main()

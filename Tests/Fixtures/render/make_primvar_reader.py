#!/usr/bin/env python3
"""Writes primvar_reader_variant.usda with usd-core, in the form of usd-wg's Teapot.usd: a sphere whose
UsdPreviewSurface takes diffuseColor from a UsdPrimvarReader_float3 of primvars:displayColor, whose value a
`shadingVariant` variant set chooses (lime, selected; red; a per-vertex gradient), and roughness from a
UsdPrimvarReader_float of a constant primvar; beside it a box whose material reads a per-vertex colour primvar
of another name (`tint`) the same way. Deterministic. Run from anywhere:
python3 Tests/Fixtures/render/make_primvar_reader.py"""
import math
import os

from pxr import Gf, Sdf, Usd, UsdGeom, UsdShade, Vt

HERE = os.path.dirname(os.path.abspath(__file__))


def sphere(stage, path, radius=0.5, segments=24, rings=12):
    mesh = UsdGeom.Mesh.Define(stage, path)
    points, counts, indices = [], [], []
    for r in range(rings + 1):
        theta = math.pi * r / rings
        for s in range(segments):
            phi = 2 * math.pi * s / segments
            points.append(Gf.Vec3f(radius * math.sin(theta) * math.cos(phi), radius * math.cos(theta), radius * math.sin(theta) * math.sin(phi)))
    for r in range(rings):
        for s in range(segments):
            a, b = r * segments + s, r * segments + (s + 1) % segments
            counts.append(4)
            indices += [a, b, b + segments, a + segments]
    mesh.CreatePointsAttr(points)
    mesh.CreateNormalsAttr([p / radius for p in points])
    mesh.SetNormalsInterpolation(UsdGeom.Tokens.vertex)
    mesh.CreateFaceVertexCountsAttr(counts)
    mesh.CreateFaceVertexIndicesAttr(indices)
    mesh.CreateSubdivisionSchemeAttr("none")
    mesh.CreateExtentAttr([Gf.Vec3f(-radius), Gf.Vec3f(radius)])
    return mesh, points


def box(stage, path, size=0.8):
    mesh = UsdGeom.Mesh.Define(stage, path)
    h = size / 2
    points = [Gf.Vec3f(x, y, z) for x in (-h, h) for y in (-h, h) for z in (-h, h)]
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    mesh.CreatePointsAttr(points)
    # Normals written out, flat per face, so no reader has to guess how an unsmoothed box shades.
    mesh.CreateNormalsAttr([Gf.Vec3f(*n) for n in ((-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1)) for _ in range(4)])
    mesh.SetNormalsInterpolation(UsdGeom.Tokens.faceVarying)
    mesh.CreateFaceVertexCountsAttr([4] * 6)
    mesh.CreateFaceVertexIndicesAttr([i for f in faces for i in f])
    mesh.CreateSubdivisionSchemeAttr("none")
    mesh.CreateExtentAttr([Gf.Vec3f(-h), Gf.Vec3f(h)])
    return mesh, points


def material(stage, path, varname, roughness_primvar=None):
    made = UsdShade.Material.Define(stage, path)
    surface = UsdShade.Shader.Define(stage, path + "/PreviewSurface")
    surface.CreateIdAttr("UsdPreviewSurface")
    reader = UsdShade.Shader.Define(stage, path + "/ColorReader")
    reader.CreateIdAttr("UsdPrimvarReader_float3")
    reader.CreateInput("varname", Sdf.ValueTypeNames.String).Set(varname)
    reader.CreateInput("fallback", Sdf.ValueTypeNames.Float3).Set(Gf.Vec3f(1, 0, 1))
    surface.CreateInput("diffuseColor", Sdf.ValueTypeNames.Color3f).ConnectToSource(reader.ConnectableAPI(), "result", UsdShade.AttributeType.Output, Sdf.ValueTypeNames.Float3)
    if roughness_primvar:
        rough = UsdShade.Shader.Define(stage, path + "/RoughnessReader")
        rough.CreateIdAttr("UsdPrimvarReader_float")
        rough.CreateInput("varname", Sdf.ValueTypeNames.String).Set(roughness_primvar)
        surface.CreateInput("roughness", Sdf.ValueTypeNames.Float).ConnectToSource(rough.ConnectableAPI(), "result", UsdShade.AttributeType.Output, Sdf.ValueTypeNames.Float)
    else:
        surface.CreateInput("roughness", Sdf.ValueTypeNames.Float).Set(0.5)
    made.CreateSurfaceOutput().ConnectToSource(surface.ConnectableAPI(), "surface")
    return made


def main():
    stage = Usd.Stage.CreateInMemory()
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    root = UsdGeom.Xform.Define(stage, "/Scene")
    stage.SetDefaultPrim(root.GetPrim())
    teapot, points = sphere(stage, "/Scene/Teapot")
    UsdGeom.XformCommonAPI(teapot).SetTranslate(Gf.Vec3d(-0.6, 0, 0))
    primvars = UsdGeom.PrimvarsAPI(teapot)
    primvars.CreatePrimvar("rough", Sdf.ValueTypeNames.Float, UsdGeom.Tokens.constant).Set(0.3)
    variants = root.GetPrim().GetVariantSets().AddVariantSet("shadingVariant")
    for name in ("lime", "red", "gradient"):
        variants.AddVariant(name)
        variants.SetVariantSelection(name)
        with variants.GetVariantEditContext():
            color = UsdGeom.PrimvarsAPI(stage.GetPrimAtPath("/Scene/Teapot")).CreatePrimvar(
                "displayColor", Sdf.ValueTypeNames.Color3fArray, UsdGeom.Tokens.constant)
            if name == "lime":
                color.Set(Vt.Vec3fArray([Gf.Vec3f(0.4, 0.8, 0.1)]))
            elif name == "red":
                color.Set(Vt.Vec3fArray([Gf.Vec3f(0.8, 0.05, 0.05)]))
            else:
                color.SetInterpolation(UsdGeom.Tokens.vertex)
                color.Set(Vt.Vec3fArray([Gf.Vec3f(p[1] + 0.5, 0.3, 0.5 - p[1]) for p in points]))
    variants.SetVariantSelection("lime")
    cube, corners = box(stage, "/Scene/Box")
    UsdGeom.XformCommonAPI(cube).SetTranslate(Gf.Vec3d(0.6, 0, 0))
    UsdGeom.XformCommonAPI(cube).SetRotate(Gf.Vec3f(20, 35, 0))
    tint = UsdGeom.PrimvarsAPI(cube).CreatePrimvar("tint", Sdf.ValueTypeNames.Color3fArray, UsdGeom.Tokens.vertex)
    tint.Set(Vt.Vec3fArray([Gf.Vec3f(p[0] + 0.5, p[1] + 0.5, p[2] + 0.5) for p in corners]))
    UsdShade.MaterialBindingAPI.Apply(teapot.GetPrim()).Bind(material(stage, "/Scene/Looks/Painted", "displayColor", "rough"))
    UsdShade.MaterialBindingAPI.Apply(cube.GetPrim()).Bind(material(stage, "/Scene/Looks/Tinted", "tint"))
    stage.GetRootLayer().Export(os.path.join(HERE, "primvar_reader_variant.usda"))


if __name__ == "__main__":
    main()

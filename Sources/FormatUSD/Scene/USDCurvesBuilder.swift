import AssetCore

/// Builds `Curves` from a composed UsdGeomBasisCurves prim. Linear curves are read exactly;
/// cubic ones (the schema's default type) are kept as polylines through their control points,
/// which hold the same bounds usd-core computes for them, with one warning saying so.
struct USDCurvesBuilder {
    let values: USDAttributeValues

    func build(_ prim: USDComposedPrim, diagnostics: inout [Diagnostic]) -> Curves? {
        func drop(_ why: String) -> Curves? {
            diagnostics.append(.warning("curves dropped: \(why)", at: prim.location))
            return nil
        }
        var curves = Curves(name: prim.name)
        switch values.float3s(prim.attribute("points")) {
        case .success(let points)?: curves.points = points
        case .failure?: return drop("points is not a list of 3-vectors")
        case nil: break
        }
        switch values.int32s(prim.attribute("curveVertexCounts")) {
        case .success(let counts)?: curves.curveVertexCounts = counts
        case .failure(let bad)?: return drop("curveVertexCounts[\(bad.index)] = \(bad.value) is not an int")
        case nil: break
        }
        if let problem = curves.topologyProblem { return drop(problem) }
        let type = values.string(prim.attribute("type")) ?? "cubic"
        if type != "linear" {
            diagnostics.append(.warning("\(type) BasisCurves are drawn as polylines through their control points", at: prim.location))
        }
        return curves
    }
}

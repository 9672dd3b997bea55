import AssetCore

extension USDLayerBuilder {
    /// Linear BasisCurves: usd-core, Hydra and AR Quick Look draw them as polylines through the
    /// points. No widths are authored, so renderers use their own thin default.
    func curvesPrim(_ curves: Curves, instance: CurvesInstance, name: String) -> USDPrimSpec {
        var prim = USDPrimSpec(specifier: .def, typeName: "BasisCurves", name: name, line: 0)
        var properties: [USDPropertySpec] = []
        let bounds = Bounds3(points: curves.points)
        if !bounds.isEmpty {
            let corners = [bounds.min, bounds.max].flatMap { [$0.x, $0.y, $0.z] }.map { Double(Float($0)) }
            properties.append(.attribute("extent", "float3[]", .numbers(corners, components: 3)))
        }
        properties.append(.attribute("type", "token", .string("linear"), uniform: true))
        properties.append(.attribute("curveVertexCounts", "int[]", .integers(curves.curveVertexCounts)))
        properties.append(.attribute("points", "point3f[]", .floatArray(curves.points)))
        if let m = instance.material, let target = materialPaths[m] {
            prim.metadata["apiSchemas"] = .list([.string("MaterialBindingAPI")])
            properties.append(.relationship("material:binding", to: target))
        }
        prim.properties = properties
        return prim
    }
}

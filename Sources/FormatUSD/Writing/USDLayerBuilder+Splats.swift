import AssetCore

extension USDLayerBuilder {
    /// A `ParticleField3DGaussianSplat` (usdVol): each attribute in the precision the set keeps
    /// (`positions` or its half twin `positionsh`, ...), the degree always authored (the schema's
    /// fallback is 3, which a degree-0 set must not be read as), and `extent` from the 3-sigma
    /// ellipsoids, which usd-core has no plugin to compute. Quaternions go real part first, as
    /// `USDValue` holds them; the text writer prints them so and the crate writer reorders them.
    func splatPrim(_ set: SplatSet, name: String) -> USDPrimSpec {
        var prim = USDPrimSpec(specifier: .def, typeName: "ParticleField3DGaussianSplat", name: name, line: 0)
        var properties: [USDPropertySpec] = []
        let bounds = set.bounds()
        if !bounds.isEmpty {
            let corners = [bounds.min, bounds.max].flatMap { [$0.x, $0.y, $0.z] }.map { Double(Float($0)) }
            properties.append(.attribute("extent", "float3[]", .numbers(corners, components: 3)))
        }
        func add(_ name: String, _ floatType: String, _ halfType: String, _ values: SplatScalars) {
            properties.append(.attribute(values.isHalf ? name + "h" : name, values.isHalf ? halfType : floatType, .floats(.scalars(values.floats))))
        }
        add("positions", "point3f[]", "point3h[]", set.centers)
        var realFirst = set.rotations.floats
        for q in 0..<set.count {
            let b = 4 * q
            (realFirst[b], realFirst[b + 1], realFirst[b + 2], realFirst[b + 3]) = (realFirst[b + 3], realFirst[b], realFirst[b + 1], realFirst[b + 2])
        }
        let quaternionType = set.rotations.isHalf ? "quath[]" : "quatf[]"
        properties.append(.attribute(set.rotations.isHalf ? "orientationsh" : "orientations", quaternionType,
                                     .numbers(realFirst.map(Double.init), components: 4)))
        add("scales", "float3[]", "half3[]", set.scales)
        add("opacities", "float[]", "half[]", set.opacities)
        properties.append(.attribute("radiance:sphericalHarmonicsDegree", "int", .number(Double(set.shDegree)), uniform: true))
        add("radiance:sphericalHarmonicsCoefficients", "float3[]", "half3[]", set.sh)
        prim.properties = properties
        return prim
    }
}

import AssetCore

/// Builds a `SplatSet` from a composed `ParticleField3DGaussianSplat` prim (usdVol, OpenUSD 26.03),
/// by the schema's rules: the float attribute is preferred to its half twin (`positions` over
/// `positionsh`, ...), and a half one is kept half; the positions set the count; any other
/// attribute longer than that is cut to it, and one shorter is ignored for its fallback (no
/// rotation, unit scale, opacity 1, and for the coefficients a DC of 0.5: degree 0, coefficient 0),
/// each with a warning. The degree is 3 when unauthored, as the schema's fallback says.
/// Quaternions arrive real part first (`USDValue` puts text's `(re, i, j, k)` and crate's memory
/// `x, y, z, w` alike) and are kept x, y, z, w, normalised.
struct USDSplatBuilder {
    let values: USDAttributeValues

    static let typeName = "ParticleField3DGaussianSplat"

    func build(_ prim: USDComposedPrim, diagnostics: inout [Diagnostic]) -> SplatSet? {
        func attribute(_ name: String, components: Int) -> (values: SplatScalars, name: String)? {
            for (candidate, half) in [(name, false), (name + "h", true)] {
                guard let value = values.value(prim.attribute(candidate)), let flat = Self.flatFloats(value) else { continue }
                guard flat.count % components == 0 else {
                    diagnostics.append(.warning("\(candidate) has \(flat.count) numbers, not a whole number of \(components)-vectors; ignored", at: prim.location))
                    return nil
                }
                return (half ? .half(flat.map(Float16.init)) : .float(flat), candidate)
            }
            return nil
        }
        guard let positions = attribute("positions", components: 3) else {
            diagnostics.append(.warning("\(Self.typeName) \(prim.path) has no positions: no splats", at: prim.location))
            return nil
        }
        let count = positions.values.count / 3
        /// The attribute cut to `count` elements, or nil (fallback) when it has fewer.
        func fitted(_ name: String, components: Int, perSplat: Int = 1) -> SplatScalars? {
            guard let found = attribute(name, components: components) else { return nil }
            let want = count * perSplat * components
            if found.values.count < want {
                diagnostics.append(.warning("\(found.name) has \(found.values.count / components / perSplat) values for \(count) splats; ignored (the schema's fallback is used)", at: prim.location))
                return nil
            }
            if found.values.count > want {
                diagnostics.append(.warning("\(found.name) has \(found.values.count / components / perSplat) values for \(count) splats; the extra ones are ignored", at: prim.location))
                return found.values.prefix(want)
            }
            return found.values
        }
        let rotations = fitted("orientations", components: 4).map(Self.imaginaryFirstNormalised)
            ?? .float([Float](repeating: 0, count: 4 * count).enumerated().map { $0.offset % 4 == 3 ? 1 : 0 })
        let scales = fitted("scales", components: 3) ?? .float([Float](repeating: 1, count: 3 * count))
        let opacities = fitted("opacities", components: 1) ?? .float([Float](repeating: 1, count: count))
        var degree = values.double(prim.attribute("radiance:sphericalHarmonicsDegree")).map { Int($0) } ?? 3
        if !(0...3).contains(degree) {
            diagnostics.append(.warning("radiance:sphericalHarmonicsDegree \(degree) is not 0 to 3; the coefficients are ignored", at: prim.location))
            degree = -1
        }
        var sh: SplatScalars
        if degree >= 0, let coefficients = fitted("radiance:sphericalHarmonicsCoefficients", components: 3, perSplat: (degree + 1) * (degree + 1)) {
            sh = coefficients
        } else {
            degree = 0
            sh = .float([Float](repeating: 0, count: 3 * count))
        }
        let set = SplatSet(name: prim.name, centers: positions.values, rotations: rotations, scales: scales, opacities: opacities,
                           shDegree: degree, sh: sh, axes: .rightUpBack)
        return set
    }

    /// Every number of `value` as a float: single-precision arrays as read, others narrowed.
    static func flatFloats(_ value: USDValue) -> [Float]? {
        switch value {
        case .floats(.scalars(let floats)): return floats
        case .floats(let array): return array.doubles.map(Float.init)
        default: return value.flatNumbers?.map(Float.init)
        }
    }

    /// (w, x, y, z) quaternions as (x, y, z, w), each of unit length (a zero one becomes identity).
    static func imaginaryFirstNormalised(_ values: SplatScalars) -> SplatScalars {
        var out = values.floats
        for q in 0..<(out.count / 4) {
            let b = 4 * q
            var v = SIMD4<Float>(out[b + 1], out[b + 2], out[b + 3], out[b])
            let length = (v * v).sum().squareRoot()
            v = length > 0 && length.isFinite ? v / length : SIMD4(0, 0, 0, 1)
            for k in 0..<4 { out[b + k] = v[k] }
        }
        return out.asHalf(values.isHalf)
    }
}

extension SplatScalars {
    /// The first `count` values.
    func prefix(_ count: Int) -> SplatScalars {
        switch self {
        case .float(let values): return .float(Array(values.prefix(count)))
        case .half(let values): return .half(Array(values.prefix(count)))
        }
    }
}

extension Array where Element == Float {
    func asHalf(_ half: Bool) -> SplatScalars { half ? .half(map(Float16.init)) : .float(self) }
}

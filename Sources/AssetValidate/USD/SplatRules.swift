import AssetCore
import FormatUSD

/// `GaussianSplatChecker`: the data of `ParticleField3DGaussianSplat` prims (usdVol). The schema
/// quietly cuts an attribute longer than the positions and ignores a shorter one for its fallback,
/// so a capture written short shows grey, opaque or unrotated splats with no message: each is an
/// error here, as are values no renderer can draw (not finite, negative scales, opacities outside
/// 0...1, a degree outside 0...3). Quaternions off unit length are a warning: renderers normalise
/// them, but a writer that leaves them so has usually mixed up their order.
enum SplatRules {
    static let typeName = "ParticleField3DGaussianSplat"

    static func check(_ context: USDRuleContext, into findings: inout USDFindings) {
        for entry in context.prims where entry.prim.typeName == typeName {
            check(entry.prim, into: &findings)
        }
    }

    /// The float attribute, else its half twin: the one the schema says renderers read.
    private static func attribute(_ prim: USDComposedPrim, _ name: String) -> (property: USDComposedProperty, numbers: [Double])? {
        for candidate in [name, name + "h"] {
            if let property = prim.properties[candidate], let numbers = USDRuleContext.value(property)?.flatNumbers { return (property, numbers) }
        }
        return nil
    }

    private static func check(_ prim: USDComposedPrim, into findings: inout USDFindings) {
        func error(_ message: String, _ property: USDComposedProperty?, severity: ValidationFinding.Severity = .error) {
            findings.append(ValidationFinding(rule: .gaussianSplat, severity: severity, message: "<\(prim.path)>: \(message)",
                                              location: USDRuleContext.location(of: prim, property: property)))
        }
        guard let positions = attribute(prim, "positions"), !positions.numbers.isEmpty else {
            error("no positions: the field holds no splats", nil, severity: .warning)
            return
        }
        let count = positions.numbers.count / 3
        checkFinite(positions.numbers, "positions", positions.property, error)
        let degreeProperty = prim.properties["radiance:sphericalHarmonicsDegree"]
        let degree = degreeProperty.flatMap(USDRuleContext.value)?.doubleValue.map { Int($0) } ?? 3
        if !(0...3).contains(degree) { error("radiance:sphericalHarmonicsDegree is \(degree); 3DGS has 0 to 3", degreeProperty) }
        let perSplat = (min(max(degree, 0), 3) + 1) * (min(max(degree, 0), 3) + 1)
        for (name, width) in [("orientations", 4), ("scales", 3), ("opacities", 1), ("radiance:sphericalHarmonicsCoefficients", 3 * perSplat)] {
            guard let found = attribute(prim, name) else { continue }
            let values = found.numbers.count / width
            if values != count {
                let what = name == "radiance:sphericalHarmonicsCoefficients" ? "\(found.numbers.count / 3) coefficients (\(perSplat) a splat at degree \(degree))" : "\(values) values"
                error("\(found.property.spec.name) has \(what) for \(count) positions: the schema \(values < count ? "ignores it for its fallback" : "ignores the extra ones")", found.property)
            }
            checkFinite(found.numbers, found.property.spec.name, found.property, error)
            switch name {
            case "scales":
                if let bad = found.numbers.firstIndex(where: { $0 < 0 }) {
                    error("\(found.property.spec.name)[\(bad / 3)] has a negative component (\(found.numbers[bad]))", found.property)
                }
            case "opacities":
                if let bad = found.numbers.firstIndex(where: { !(0...1).contains($0) }), found.numbers[bad].isFinite {
                    error("\(found.property.spec.name)[\(bad)] is \(found.numbers[bad]), outside 0 to 1 (a logit from a PLY, not an opacity?)", found.property)
                }
            case "orientations":
                var off = 0, first = -1
                for q in 0..<(found.numbers.count / 4) {
                    let b = 4 * q
                    let length = (found.numbers[b...(b + 3)].reduce(0) { $0 + $1 * $1 }).squareRoot()
                    if abs(length - 1) > 1e-3 { off += 1; if first < 0 { first = q } }
                }
                if off > 0 {
                    error("\(off) quaternion\(off == 1 ? " is" : "s are") not of unit length (first: [\(first)])", found.property, severity: .warning)
                }
            default: break
            }
        }
    }

    private static func checkFinite(_ numbers: [Double], _ name: String, _ property: USDComposedProperty,
                                    _ error: (String, USDComposedProperty?, ValidationFinding.Severity) -> Void) {
        if let bad = numbers.firstIndex(where: { !$0.isFinite }) {
            error("\(name) holds a value that is not finite (\(numbers[bad]), at number \(bad))", property, .error)
        }
    }
}

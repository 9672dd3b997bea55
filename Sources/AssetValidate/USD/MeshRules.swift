import AssetCore
import FormatUSD

/// assetc's own checks of Mesh prims, beyond usdchecker: topology that names real points, primvars
/// sized for their interpolation, finite points, faces with area (GeomSubsets: GeomSubsetRules).
/// AR Quick Look shows a broken mesh as nothing or as garbage, with no message, so these are
/// errors; an empty mesh or a face without area draws nothing and is a warning.
enum MeshRules {
    static func check(_ context: USDRuleContext, into findings: inout USDFindings) {
        for entry in context.prims where entry.prim.typeName == "Mesh" {
            guard let topology = checkTopology(entry.prim, into: &findings) else { continue }
            checkPrimvars(entry.prim, topology, into: &findings)
        }
    }

    /// A mesh's arrays, once they are known to be consistent.
    struct Topology {
        var points: [Double]
        var counts: [Int32]
        var indices: [Int32]
        var pointCount: Int { points.count / 3 }
    }

    private static func array(_ prim: USDComposedPrim, _ name: String) -> USDComposedProperty? {
        prim.properties[name]
    }

    /// Checks points, counts and indices; the topology when the primvar and subset checks can rely on it.
    private static func checkTopology(_ mesh: USDComposedPrim, into findings: inout USDFindings) -> Topology? {
        var here: SourceLocation { USDRuleContext.location(of: mesh) }
        let points = array(mesh, "points").flatMap(USDRuleContext.value)?.flatNumbers ?? []
        var counts: [Int32] = []
        var indices: [Int32] = []
        for (name, target) in [("faceVertexCounts", 0), ("faceVertexIndices", 1)] {
            guard let property = array(mesh, name), let value = USDRuleContext.value(property) else { continue }
            if let read = value.int32s {
                if target == 0 { counts = read } else { indices = read }
            } else {
                findings.append(ValidationFinding(rule: .meshTopology, message: "\(name) is not an array of 32-bit integers",
                                                  location: USDRuleContext.location(of: mesh, property: property)))
                return nil
            }
        }
        if points.isEmpty || counts.isEmpty {
            findings.append(ValidationFinding(rule: .meshGeometry, severity: .warning,
                                              message: "<\(mesh.path)> has \(points.isEmpty ? "no points" : "no faces"), so it draws nothing", location: here))
            return nil
        }
        let finite = points.firstIndex(where: { !$0.isFinite }).map { bad -> Bool in
            findings.append(ValidationFinding(rule: .meshGeometry, message: "point \(bad / 3) of <\(mesh.path)> is not finite (\(points[bad]))",
                                              location: here))
            return false
        } ?? true
        var corners = 0
        var small = 0
        var firstSmall = -1
        for (face, count) in counts.enumerated() {
            if count < 3 {
                small += 1
                if firstSmall < 0 { firstSmall = face }
            }
            corners += Int(max(count, 0))
        }
        if small > 0 {
            findings.append(ValidationFinding(rule: .meshTopology,
                                              message: "\(small) face\(small == 1 ? "" : "s") of <\(mesh.path)> ha\(small == 1 ? "s" : "ve") fewer than 3 vertices (first: face \(firstSmall), \(counts[firstSmall]))",
                                              location: here))
            return nil
        }
        if corners != indices.count {
            findings.append(ValidationFinding(rule: .meshTopology,
                                              message: "faceVertexCounts of <\(mesh.path)> add up to \(corners) corners; faceVertexIndices holds \(indices.count)",
                                              location: here))
            return nil
        }
        let pointCount = Int32(clamping: points.count / 3)
        var outside = 0
        var firstOutside = -1
        for (corner, index) in indices.enumerated() where index < 0 || index >= pointCount {
            outside += 1
            if firstOutside < 0 { firstOutside = corner }
        }
        if outside > 0 {
            findings.append(ValidationFinding(rule: .meshTopology,
                                              message: "\(outside) of <\(mesh.path)>'s face vertex indices name no point (first: corner \(firstOutside) is \(indices[firstOutside]); there are \(pointCount) points)",
                                              location: here))
            return nil
        }
        let topology = Topology(points: points, counts: counts, indices: indices)
        if finite { checkAreas(mesh, topology, into: &findings) }
        return topology
    }

    /// Faces whose polygon normal (Newell's method) is zero against the mesh's size: collapsed
    /// or repeated corners.
    private static func checkAreas(_ mesh: USDComposedPrim, _ topology: Topology, into findings: inout USDFindings) {
        let p = topology.points
        var low = SIMD3<Double>(repeating: .infinity), high = SIMD3<Double>(repeating: -.infinity)
        for i in stride(from: 0, to: p.count - 2, by: 3) {
            let v = SIMD3(p[i], p[i + 1], p[i + 2])
            low = pointwiseMin(low, v)
            high = pointwiseMax(high, v)
        }
        let extent = high - low
        let tolerance = max((extent * extent).sum() * 1e-14, .leastNormalMagnitude)
        var start = 0
        var flat = 0
        var firstFlat = -1
        for (face, count) in topology.counts.enumerated() {
            var normal = SIMD3<Double>.zero
            for k in 0..<Int(count) {
                let a = Int(topology.indices[start + k]) * 3, b = Int(topology.indices[start + (k + 1) % Int(count)]) * 3
                normal.x += (p[a + 1] - p[b + 1]) * (p[a + 2] + p[b + 2])
                normal.y += (p[a + 2] - p[b + 2]) * (p[a] + p[b])
                normal.z += (p[a] - p[b]) * (p[a + 1] + p[b + 1])
            }
            if !((normal * normal).sum() > tolerance * tolerance) {
                flat += 1
                if firstFlat < 0 { firstFlat = face }
            }
            start += Int(count)
        }
        if flat > 0 {
            findings.append(ValidationFinding(rule: .meshGeometry, severity: .warning,
                                              message: "\(flat) face\(flat == 1 ? "" : "s") of \(topology.counts.count) in <\(mesh.path)> \(flat == 1 ? "has" : "have") no area (first: face \(firstFlat))",
                                              location: USDRuleContext.location(of: mesh)))
        }
    }

    /// Array primvars (and `normals`) hold what their interpolation needs; indexed ones have as many
    /// indices as that, each naming a value.
    private static func checkPrimvars(_ mesh: USDComposedPrim, _ topology: Topology, into findings: inout USDFindings) {
        for property in mesh.properties.values.sorted(by: { $0.name < $1.name }) {
            let name = property.name
            guard !property.isRelationship, property.typeName.hasSuffix("[]"),
                  (name.hasPrefix("primvars:") && !name.hasSuffix(":indices")) || name == "normals",
                  let value = USDRuleContext.value(property) else { continue }
            let interpolation = property.interpolation ?? (name == "normals" ? "vertex" : "constant")
            let elementSize = max(property.elementSize ?? 1, 1)
            let expected: Int
            switch interpolation {
            case "constant": expected = 1
            case "uniform": expected = topology.counts.count
            case "vertex", "varying": expected = topology.pointCount
            case "faceVarying": expected = topology.indices.count
            default:
                findings.append(ValidationFinding(rule: .meshPrimvars, message: "\(name) has interpolation '\(interpolation)', which USD does not define",
                                                  location: USDRuleContext.location(of: mesh, property: property)))
                continue
            }
            let values = elementCount(value, typeName: property.typeName)
            var here: SourceLocation { USDRuleContext.location(of: mesh, property: property) }
            if let indexProperty = mesh.properties[name + ":indices"], let indexValue = USDRuleContext.value(indexProperty),
               let indices = indexValue.int32s {
                if indices.count != expected * elementSize {
                    findings.append(ValidationFinding(rule: .meshPrimvars,
                                                      message: "\(name):indices holds \(indices.count); \(interpolation) interpolation over <\(mesh.path)> needs \(expected * elementSize)",
                                                      location: here))
                } else if let bad = indices.firstIndex(where: { $0 < 0 || Int($0) >= values }) {
                    findings.append(ValidationFinding(rule: .meshPrimvars,
                                                      message: "\(name):indices[\(bad)] is \(indices[bad]); \(name) has \(values) values",
                                                      location: here))
                }
            } else if interpolation != "constant" && values != expected * elementSize {
                findings.append(ValidationFinding(rule: .meshPrimvars,
                                                  message: "\(name) holds \(values) values; \(interpolation) interpolation over <\(mesh.path)> needs \(expected * elementSize)",
                                                  location: here))
            }
        }
    }

    /// Elements in an array value: a `float2[]` of n pairs is n.
    private static func elementCount(_ value: USDValue, typeName: String) -> Int {
        switch value {
        case .numbers(let n, let components): return n.count / max(components, 1)
        case .integers(let n): return n.count
        case .floats(let f): return f.count
        case .list(let items): return items.count
        case .none: return 0
        default: return 1
        }
    }
}

import AssetCore

extension GLTFMeshBuilder {
    /// JOINTS_n / WEIGHTS_n pairs as one `SkinWeights` of four influences per set, joint numbers
    /// counting into the skin's `joints` (the node's skin checks their range).
    func skinWeights(_ primitive: GLTFAsset.Primitive, pointCount: Int, draco: GLTFDracoMesh?, at here: SourceLocation,
                     diagnostics: inout [Diagnostic]) throws(AssetError) -> SkinWeights? {
        let sets = primitive.attributes.keys.compactMap { key -> Int? in
            guard key.hasPrefix("JOINTS_"), let n = Int(key.dropFirst("JOINTS_".count)), primitive.attributes["WEIGHTS_\(n)"] != nil else { return nil }
            return n
        }.sorted()
        guard !sets.isEmpty else {
            if primitive.attributes.keys.contains(where: { $0.hasPrefix("JOINTS_") || $0.hasPrefix("WEIGHTS_") }) {
                diagnostics.append(.warning("JOINTS_n and WEIGHTS_n do not come in pairs; not skinned", at: here))
            }
            return nil
        }
        let k = 4 * sets.count
        try accessors.budget.spend(bytes: pointCount * k * 8, for: "joint influences", at: here)
        var joints = [Int32](repeating: 0, count: pointCount * k)
        var weights = [Float](repeating: 0, count: pointCount * k)
        for (s, set) in sets.enumerated() {
            let j = try attributeValues("JOINTS_\(set)", primitive.attributes["JOINTS_\(set)"]!, [4], draco: draco, at: here).values
            let w = try attributeValues("WEIGHTS_\(set)", primitive.attributes["WEIGHTS_\(set)"]!, [4], draco: draco, at: here).values
            guard j.count == pointCount * 4, w.count == pointCount * 4 else {
                diagnostics.append(.warning("JOINTS_\(set)/WEIGHTS_\(set) do not have one entry per vertex (\(pointCount)); not skinned", at: here))
                return nil
            }
            for p in 0..<pointCount {
                for c in 0..<4 {
                    let joint = j[4 * p + c], weight = w[4 * p + c]
                    guard weight.isFinite else {
                        diagnostics.append(.warning("WEIGHTS_\(set) of vertex \(p) is not a finite number; not skinned", at: here))
                        return nil
                    }
                    // Joint numbers are unsigned bytes or shorts, so exact as Floats; a file that
                    // stores them otherwise is refused rather than converted out of range.
                    guard joint >= 0, joint <= 65535, joint == joint.rounded() else {
                        diagnostics.append(.warning("JOINTS_\(set) of vertex \(p) is \(joint), not a joint number; not skinned", at: here))
                        return nil
                    }
                    joints[p * k + 4 * s + c] = Int32(joint)
                    weights[p * k + 4 * s + c] = weight
                }
            }
        }
        for p in 0..<pointCount {
            var sum: Float = 0
            for e in (p * k)..<(p * k + k) { sum += weights[e] }
            if abs(sum - 1) > 2e-3 {
                diagnostics.append(.warning("weights of vertex \(p) sum to \(sum), not 1 as glTF requires; used as given", at: here))
                break
            }
        }
        return SkinWeights(influencesPerPoint: k, joints: joints, weights: weights)
    }

    /// Morph targets as blend shapes: POSITION and NORMAL displacements for every vertex.
    func blendShapes(_ primitive: GLTFAsset.Primitive, names: [String]?, pointCount: Int, at here: SourceLocation,
                     diagnostics: inout [Diagnostic]) throws(AssetError) -> [BlendShape] {
        guard let targets = primitive.targets, !targets.isEmpty else { return [] }
        var shapes: [BlendShape] = []
        for (t, target) in targets.enumerated() {
            let name = names.flatMap { $0.indices.contains(t) ? $0[t] : nil } ?? "target\(t)"
            var offsets = [SIMD3<Float>](repeating: .zero, count: pointCount)
            if let position = target["POSITION"] {
                offsets = try accessors.vectors3(position, what: "morph target \(t) POSITION")
            }
            var normals: [SIMD3<Float>]?
            if let normal = target["NORMAL"] { normals = try accessors.vectors3(normal, what: "morph target \(t) NORMAL") }
            guard offsets.count == pointCount, normals.map({ $0.count == pointCount }) ?? true else {
                diagnostics.append(.warning("morph target \(t) does not have one displacement per vertex (\(pointCount)); the target is kept empty", at: here))
                shapes.append(BlendShape(name: name, offsets: [SIMD3<Float>](repeating: .zero, count: pointCount)))
                continue
            }
            shapes.append(BlendShape(name: name, offsets: offsets, normalOffsets: normals))
        }
        return shapes
    }
}

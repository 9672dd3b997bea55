import AssetCore

extension USDSkelBuilder {
    static let jointIndicesName = "primvars:skel:jointIndices"
    static let jointWeightsName = "primvars:skel:jointWeights"

    /// Reads a mesh's SkelBindingAPI primvars and blend shapes into `mesh`, and records the binding
    /// for `finish`. Joint numbers stay mesh-local (`skel:joints` order) until then.
    mutating func bind(_ prim: USDComposedPrim, mesh: inout Mesh, meshIndex: Int, context: Inherited,
                       primsByPath: [String: USDComposedPrim]) throws(AssetError) {
        let indicesProperty = prim.attribute(Self.jointIndicesName), weightsProperty = prim.attribute(Self.jointWeightsName)
        let shapeNames = values.value(prim.attribute("skel:blendShapes"))?.strings ?? []
        guard indicesProperty != nil || weightsProperty != nil || !shapeNames.isEmpty else { return }
        guard context.insideSkelRoot else {
            diagnostics.append(.warning("mesh \(prim.path) has skinning primvars but is not under a SkelRoot; UsdSkel ignores them, and so does assetc",
                                        at: prim.location))
            return
        }
        guard let skeleton = context.skeleton else {
            diagnostics.append(.warning("mesh \(prim.path) has skinning primvars but no skel:skeleton on it or an ancestor; not skinned", at: prim.location))
            return
        }
        if let indicesProperty, let weightsProperty {
            mesh.skinWeights = try skinWeights(prim, indicesProperty, weightsProperty, pointCount: mesh.points.count)
        } else if indicesProperty != nil || weightsProperty != nil {
            diagnostics.append(.warning("mesh \(prim.path) has only one of jointIndices and jointWeights; not skinned", at: prim.location))
        }
        mesh.blendShapes = try blendShapes(prim, names: shapeNames, primsByPath: primsByPath, pointCount: mesh.points.count)
        var geomBind = Matrix4x4.identity
        if let numbers = values.numbers(prim.attribute("primvars:skel:geomBindTransform")) {
            if numbers.count == 16 { geomBind = Matrix4x4(columnMajor: numbers) }
            else { diagnostics.append(.warning("mesh \(prim.path): geomBindTransform is not a 4x4 matrix; identity is used", at: prim.location)) }
        }
        let localJoints = values.value(prim.attribute("skel:joints"))?.strings
        pending.append(PendingBinding(nodePath: prim.path, mesh: meshIndex, skeleton: skeleton, localJoints: localJoints,
                                      geomBindTransform: geomBind, location: prim.location, blendShapeNames: mesh.blendShapes.map(\.name)))
    }

    private mutating func skinWeights(_ prim: USDComposedPrim, _ indicesProperty: USDComposedProperty, _ weightsProperty: USDComposedProperty,
                                      pointCount: Int) throws(AssetError) -> SkinWeights? {
        let elementSize = Int(indicesProperty.metadata["elementSize"]?.doubleValue ?? 1)
        let interpolation = indicesProperty.metadata["interpolation"]?.stringValue ?? "vertex"
        guard elementSize >= 1, elementSize <= 1024 else {
            diagnostics.append(.warning("mesh \(prim.path): jointIndices elementSize \(elementSize) is not between 1 and 1024; not skinned", at: prim.location))
            return nil
        }
        guard case .success(var joints)? = values.int32s(indicesProperty), var weights = values.floats(weightsProperty) else {
            diagnostics.append(.warning("mesh \(prim.path): jointIndices or jointWeights are not numbers of the right kind; not skinned", at: prim.location))
            return nil
        }
        guard joints.count == weights.count else {
            diagnostics.append(.warning("mesh \(prim.path): \(joints.count) jointIndices but \(weights.count) jointWeights; not skinned", at: prim.location))
            return nil
        }
        if interpolation == "constant" {
            // One set of influences for every point: a rigid binding.
            guard joints.count == elementSize else {
                diagnostics.append(.warning("mesh \(prim.path): constant jointIndices hold \(joints.count) values for elementSize \(elementSize); not skinned", at: prim.location))
                return nil
            }
            try budget.spend(work: pointCount * elementSize, for: "skin of \(prim.path)", at: prim.location)
            joints = Array((0..<pointCount).map { _ in joints }.joined())
            weights = Array((0..<pointCount).map { _ in weights }.joined())
        } else if joints.count != pointCount * elementSize {
            diagnostics.append(.warning("mesh \(prim.path): \(joints.count) jointIndices for \(pointCount) points of \(elementSize) influences; not skinned",
                                        at: prim.location))
            return nil
        }
        // One pass checks finiteness and sums each point's weights (a million points carry four
        // million weights, so no per-element closures here); the weights are kept as read.
        var firstBad: Int?, firstUnsummed: (point: Int, sum: Float)?
        weights.withUnsafeBufferPointer { source in
            var sum: Float = 0
            for e in 0..<source.count {
                let w = source[e]
                if !w.isFinite, firstBad == nil { firstBad = e }
                sum += w
                if (e + 1) % elementSize == 0 {
                    if abs(sum - 1) > 1e-3, firstUnsummed == nil { firstUnsummed = (e / elementSize, sum) }
                    sum = 0
                }
            }
        }
        if let bad = firstBad {
            diagnostics.append(.warning("mesh \(prim.path): jointWeights[\(bad)] is not a finite number; not skinned", at: prim.location))
            return nil
        }
        if let (point, sum) = firstUnsummed {
            diagnostics.append(.warning("mesh \(prim.path): joint weights of point \(point) sum to \(sum), not 1; used as given, as UsdSkel does",
                                        at: prim.location))
        }
        return SkinWeights(influencesPerPoint: elementSize, joints: joints, weights: weights)
    }

    private mutating func blendShapes(_ prim: USDComposedPrim, names: [String], primsByPath: [String: USDComposedPrim],
                                      pointCount: Int) throws(AssetError) -> [BlendShape] {
        guard !names.isEmpty else { return [] }
        let targets = prim.attribute("skel:blendShapeTargets")?.targets ?? []
        guard targets.count == names.count else {
            diagnostics.append(.warning("mesh \(prim.path): \(names.count) skel:blendShapes but \(targets.count) skel:blendShapeTargets; blend shapes ignored",
                                        at: prim.location))
            return []
        }
        var shapes: [BlendShape] = []
        for (name, target) in zip(names, targets) {
            guard let shapePrim = primsByPath[target], shapePrim.typeName == "BlendShape" else {
                diagnostics.append(.warning("mesh \(prim.path): blend shape target <\(target)> is not a BlendShape prim; ignored", at: prim.location))
                continue
            }
            guard let offsets = float3(shapePrim, "offsets") else {
                diagnostics.append(.warning("blend shape \(target) has no offsets; ignored", at: shapePrim.location))
                continue
            }
            try budget.spend(work: offsets.count, for: "blend shape \(target)", at: shapePrim.location)
            var pointIndices: [Int32]?
            if case .success(let indices)? = values.int32s(shapePrim.attribute("pointIndices")) {
                pointIndices = indices
                if indices.count != offsets.count || indices.contains(where: { $0 < 0 || Int($0) >= pointCount }) {
                    diagnostics.append(.warning("blend shape \(target): pointIndices do not match its offsets or the mesh's \(pointCount) points; ignored",
                                                at: shapePrim.location))
                    continue
                }
            } else if offsets.count != pointCount {
                diagnostics.append(.warning("blend shape \(target) has \(offsets.count) offsets for \(pointCount) points and no pointIndices; ignored",
                                            at: shapePrim.location))
                continue
            }
            var shape = BlendShape(name: name, offsets: offsets, normalOffsets: float3(shapePrim, "normalOffsets"), pointIndices: pointIndices)
            for (propertyName, property) in shapePrim.properties.sorted(by: { $0.key < $1.key })
            where propertyName.hasPrefix("inbetweens:") && !propertyName.hasSuffix(":normalOffsets") {
                guard let weight = property.metadata["weight"]?.doubleValue, weight.isFinite,
                      let inbetweenOffsets = float3(shapePrim, propertyName), inbetweenOffsets.count == offsets.count else {
                    diagnostics.append(.warning("blend shape \(target): in-between '\(propertyName)' has no weight or the wrong number of offsets; ignored",
                                                at: shapePrim.location))
                    continue
                }
                shape.inbetweens.append(BlendShape.Inbetween(name: String(propertyName.dropFirst("inbetweens:".count)), weight: Float(weight),
                                                             offsets: inbetweenOffsets, normalOffsets: float3(shapePrim, propertyName + ":normalOffsets")))
            }
            shape.inbetweens.sort { $0.weight < $1.weight }
            shapes.append(shape)
        }
        return shapes
    }

    private func float3(_ prim: USDComposedPrim, _ name: String) -> [SIMD3<Float>]? {
        guard case .success(let triples)? = values.float3s(prim.attribute(name)) else { return nil }
        return triples
    }
}

import AssetCore

extension USDLayerBuilder {
    /// USD time codes for seconds: the source's rate when it had one, else 24 per second.
    var timeCodesPerSecond: Double { scene.metadata.timeCodesPerSecond ?? 24 }

    /// The time code of a key: whole frames stay whole, so a USD source's keys come back as written
    /// rather than as 7.000000000000001.
    func timeCode(_ seconds: Double) -> Double {
        let code = seconds * timeCodesPerSecond
        return abs(code - code.rounded()) < 1e-9 * max(1, abs(code)) ? code.rounded() : code
    }

    /// The Skeleton prim, with its SkelAnimation child when anything moves.
    func skeletonPrim(_ plan: USDRigPlan, name: String, path: String) -> USDPrimSpec {
        var prim = USDPrimSpec(specifier: .def, typeName: "Skeleton", name: name, line: 0)
        prim.metadata["apiSchemas"] = .list([.string("SkelBindingAPI")])
        prim.properties = [
            .attribute("joints", "token[]", .list(plan.tokens.map { .string($0) }), uniform: true),
            .attribute("bindTransforms", "matrix4d[]", Self.matrices(plan.bindTransforms), uniform: true),
            .attribute("restTransforms", "matrix4d[]", Self.matrices(plan.restTransforms), uniform: true),
        ]
        guard !plan.times.isEmpty else { return prim }
        let animationName = "Animation"
        prim.properties.append(.relationship("skel:animationSource", to: path + "/" + animationName))
        var animation = USDPrimSpec(specifier: .def, typeName: "SkelAnimation", name: animationName, line: 0)
        let codes = plan.times.map(timeCode)
        func sampled(_ name: String, _ type: String, _ value: (Int) -> USDValue) -> USDPropertySpec {
            var spec = USDPropertySpec.attribute(name, type, nil)
            spec.timeSamples = codes.indices.map { (codes[$0], value($0)) }
            return spec
        }
        animation.properties = [
            .attribute("joints", "token[]", .list(plan.tokens.map { .string($0) }), uniform: true),
            sampled("translations", "float3[]") { k in .numbers(plan.jointSamples[k].flatMap { [$0.translation.x, $0.translation.y, $0.translation.z] }, components: 3) },
            sampled("rotations", "quatf[]") { k in
                .numbers(plan.jointSamples[k].flatMap { [$0.rotation.real, $0.rotation.imaginary.x, $0.rotation.imaginary.y, $0.rotation.imaginary.z] }, components: 4)
            },
            sampled("scales", "half3[]") { k in .numbers(plan.jointSamples[k].flatMap { [$0.scale.x, $0.scale.y, $0.scale.z] }, components: 3) },
        ]
        if !plan.animationShapes.isEmpty {
            animation.properties.append(.attribute("blendShapes", "token[]", .list(plan.animationShapes.map { .string($0) }), uniform: true))
            animation.properties.append(sampled("blendShapeWeights", "float[]") { k in .numbers(plan.weightSamples[k].map(Double.init), components: 1) })
        }
        prim.children = [animation]
        return prim
    }

    static func matrices(_ matrices: [Matrix4x4]) -> USDValue {
        .numbers(matrices.flatMap(\.columnMajorElements), components: 16)
    }

    /// SkelBindingAPI on a mesh: joint influences (renumbered into the written Skeleton), the
    /// geometry bind transform, blend shapes as BlendShape children; nil when the instance is not
    /// rigged.
    func skinBinding(_ mesh: Mesh, instance: MeshInstance, scenePath: String, primPath: String,
                     plan: USDRigPlan, skeletonPath: String) -> (properties: [USDPropertySpec], children: [USDPrimSpec])? {
        var properties: [USDPropertySpec] = []
        var influences: (joints: [Int32], weights: [Float], size: Int, constant: Bool)?
        if let binding = instance.skin, let weights = mesh.skinWeights, plan.jointMaps.indices.contains(binding.skeleton) {
            let map = plan.jointMaps[binding.skeleton]
            let joints = weights.joints.map { j in j >= 0 && Int(j) < map.count ? max(map[Int(j)], 0) : 0 }
            // An influence whose joint is not written keeps no weight rather than pulling on joint 0.
            let kept = zip(weights.joints, weights.weights).map { j, w in j >= 0 && Int(j) < map.count && map[Int(j)] >= 0 ? w : 0 }
            influences = (joints, kept, weights.influencesPerPoint, false)
            if !binding.geomBindTransform.isIdentity {
                properties.append(.attribute("primvars:skel:geomBindTransform", "matrix4d", .tuple(binding.geomBindTransform.columnMajorElements)))
            }
        } else if let joint = plan.nodeJoints[scenePath] {
            influences = ([Int32(joint)], [1], 1, true)
        }
        let shapes = plan.shapeTokens[scenePath] ?? []
        guard let influences else { return nil }
        let interpolation: USDValue = .string(influences.constant ? "constant" : "vertex")
        let metadata: [String: USDValue] = ["elementSize": .number(Double(influences.size)), "interpolation": interpolation]
        properties.append(.attribute("primvars:skel:jointIndices", "int[]", .integers(influences.joints), metadata: metadata))
        properties.append(.attribute("primvars:skel:jointWeights", "float[]", .numbers(influences.weights.map(Double.init), components: 1), metadata: metadata))
        properties.append(.relationship("skel:skeleton", to: skeletonPath))
        var children: [USDPrimSpec] = []
        if !shapes.isEmpty {
            var names = USDName.Uniquer()
            var targets: [String] = []
            for (shape, token) in zip(mesh.blendShapes, shapes) {
                let name = names.name(token)
                targets.append(primPath + "/" + name)
                children.append(blendShapePrim(shape, name: name))
            }
            properties.append(.attribute("skel:blendShapes", "token[]", .list(shapes.map { .string($0) }), uniform: true))
            var relationship = USDPropertySpec.relationship("skel:blendShapeTargets", to: targets[0])
            relationship.targets = targets
            properties.append(relationship)
        }
        return (properties, children)
    }

    private func blendShapePrim(_ shape: BlendShape, name: String) -> USDPrimSpec {
        var prim = USDPrimSpec(specifier: .def, typeName: "BlendShape", name: name, line: 0)
        prim.properties = [.attribute("offsets", "vector3f[]", .floatArray(shape.offsets))]
        if let normals = shape.normalOffsets { prim.properties.append(.attribute("normalOffsets", "vector3f[]", .floatArray(normals))) }
        if let indices = shape.pointIndices { prim.properties.append(.attribute("pointIndices", "int[]", .integers(indices), uniform: true)) }
        var names = USDName.Uniquer()
        for inbetween in shape.inbetweens {
            let property = "inbetweens:" + names.name(inbetween.name)
            prim.properties.append(.attribute(property, "point3f[]", .floatArray(inbetween.offsets), uniform: true,
                                              metadata: ["weight": .number(Double(inbetween.weight))]))
            if let normals = inbetween.normalOffsets {
                prim.properties.append(.attribute(property + ":normalOffsets", "vector3f[]", .floatArray(normals), uniform: true))
            }
        }
        return prim
    }

    /// A node's animation as translate, orient and scale ops sampled where its channels have keys
    /// (a matrix channel's keys decomposed), the rest values as defaults; nil when nothing drives it.
    func animatedTransformProperties(_ node: Node, channels: [AnimationChannel]) -> [USDPropertySpec]? {
        let moving = channels.filter { channel in
            channel.property.isTransform && !channel.times.isEmpty
        }
        guard !moving.isEmpty else { return nil }
        let rest = TransformComponents(node.transform)
        var times = Set<Double>()
        for channel in moving { times.formUnion(channel.linearSampleTimes()) }
        // Every op is sampled at every key time of the node: one timeline keeps T, R and S in step
        // where the source keyed them apart, and matrix keys split into all three.
        let sorted = times.sorted()
        var translate = USDPropertySpec.attribute("xformOp:translate", "double3", .tuple([rest.translation.x, rest.translation.y, rest.translation.z]))
        var orient = USDPropertySpec.attribute("xformOp:orient", "quatf", .tuple([rest.rotation.real, rest.rotation.imaginary.x, rest.rotation.imaginary.y, rest.rotation.imaginary.z]))
        var scale = USDPropertySpec.attribute("xformOp:scale", "float3", .tuple([rest.scale.x, rest.scale.y, rest.scale.z]))
        var t: [(Double, USDValue)] = [], r: [(Double, USDValue)] = [], s: [(Double, USDValue)] = []
        var matrices: [(Double, Matrix4x4)] = []
        var decomposes = Self.decomposes(node.transform, rest)
        for time in sorted {
            let local = moving.localTransform(rest: node.transform, at: time) ?? node.transform
            let parts = TransformComponents(local)
            decomposes = decomposes && Self.decomposes(local, parts)
            matrices.append((timeCode(time), local))
            let code = timeCode(time)
            t.append((code, .tuple([parts.translation.x, parts.translation.y, parts.translation.z])))
            r.append((code, .tuple([parts.rotation.real, parts.rotation.imaginary.x, parts.rotation.imaginary.y, parts.rotation.imaginary.z])))
            s.append((code, .tuple([parts.scale.x, parts.scale.y, parts.scale.z])))
        }
        if !decomposes {
            // A shear (Collada skew, a look-at with scale, a matrix key that is no rotation) has no
            // translate/orient/scale: the whole matrix is sampled instead, which USD blends element by element.
            var transform = USDPropertySpec.attribute("xformOp:transform", "matrix4d", .tuple(node.transform.columnMajorElements))
            transform.timeSamples = matrices.map { ($0.0, .tuple($0.1.columnMajorElements)) }
            let order = (node.resetsTransformStack ? ["!resetXformStack!"] : []) + ["xformOp:transform"]
            return [transform, .attribute("xformOpOrder", "token[]", .list(order.map { .string($0) }), uniform: true)]
        }
        // An op whose samples all equal its rest value keeps the default only; a node whose keys all
        // hold its rest pose keeps them on its translate, so the clip that targets it is carried as it is.
        if t.contains(where: { $0.1 != translate.defaultValue }) { translate.timeSamples = t }
        if r.contains(where: { $0.1 != orient.defaultValue }) { orient.timeSamples = r }
        if s.contains(where: { $0.1 != scale.defaultValue }) { scale.timeSamples = s }
        if translate.timeSamples == nil && orient.timeSamples == nil && scale.timeSamples == nil { translate.timeSamples = t }
        let order = (node.resetsTransformStack ? ["!resetXformStack!"] : []) + ["xformOp:translate", "xformOp:orient", "xformOp:scale"]
        return [translate, orient, scale, .attribute("xformOpOrder", "token[]", .list(order.map { .string($0) }), uniform: true)]
    }

    /// Whether translate, orient and scale give the matrix back (to a part in 10^5 of its size).
    static func decomposes(_ matrix: Matrix4x4, _ parts: TransformComponents) -> Bool {
        let rebuilt = parts.matrix.columnMajorElements, original = matrix.columnMajorElements
        let size = original.map(abs).max() ?? 1
        return zip(rebuilt, original).allSatisfy { abs($0 - $1) <= 1e-5 * max(size, 1) }
    }
}

import AssetCore

extension USDSkelBuilder {
    /// Ties bound meshes to their skeletons, turns each skeleton's SkelAnimation into channels, and
    /// puts skeletons and the stage's clip into `scene`.
    mutating func finish(_ scene: inout Scene, primsByPath: [String: USDComposedPrim], clipName: String) throws(AssetError) {
        scene.skeletons = skeletons
        var patches: [String: SkinBinding] = [:]
        for binding in pending {
            guard let index = skeletonByPath[binding.skeleton] else {
                diagnostics.append(.warning("mesh \(binding.nodePath): skel:skeleton <\(binding.skeleton)> is not a Skeleton; not skinned", at: binding.location))
                scene.meshes[binding.mesh].skinWeights = nil
                continue
            }
            if var weights = scene.meshes[binding.mesh].skinWeights {
                weights.joints = remap(weights.joints, binding: binding, skeleton: skeletons[index])
                scene.meshes[binding.mesh].skinWeights = weights
                patches[binding.nodePath] = SkinBinding(skeleton: index, geomBindTransform: binding.geomBindTransform)
            }
        }
        for (index, source) in animationSources.sorted(by: { $0.key < $1.key }) {
            guard let animation = primsByPath[source.path], animation.typeName == "SkelAnimation" else {
                diagnostics.append(.warning("skeleton \(skeletons[index].skeletonPath ?? skeletons[index].name): animationSource <\(source.path)> is not a SkelAnimation; ignored",
                                            at: source.location))
                continue
            }
            try jointChannels(animation, skeleton: skeletons[index])
            try blendShapeChannels(animation, meshes: pending.filter { skeletonByPath[$0.skeleton] == index && !$0.blendShapeNames.isEmpty })
        }
        if !patches.isEmpty {
            var flat = FlatNodeTree(scene.root)
            for i in flat.nodes.indices {
                guard let patch = patches[flat.paths[i]] else { continue }
                for k in flat.nodes[i].meshInstances.indices { flat.nodes[i].meshInstances[k].skin = patch }
            }
            scene.root = flat.rebuilt()
        }
        if !channels.isEmpty { scene.animations = [AnimationClip(name: clipName, channels: channels)] }
    }

    /// Mesh-local joint numbers to the skeleton's; one warning for the first number out of range
    /// (its influences are then skipped by skinning).
    private mutating func remap(_ joints: [Int32], binding: PendingBinding, skeleton: Skeleton) -> [Int32] {
        var mapping = Array(Int32(0)..<Int32(skeleton.jointCount))
        if let local = binding.localJoints {
            mapping = local.map { name in skeleton.jointNames.firstIndex(of: name).map(Int32.init) ?? -1 }
            if let missing = local.first(where: { !skeleton.jointNames.contains($0) }) {
                diagnostics.append(.warning("mesh \(binding.nodePath): skel:joints names '\(missing)', which skeleton \(skeleton.name) does not have", at: binding.location))
            }
        }
        var firstOutOfRange: Int32?
        let remapped = joints.withUnsafeBufferPointer { source in
            mapping.withUnsafeBufferPointer { map in
                [Int32](unsafeUninitializedCapacity: source.count) { out, initialized in
                    for e in 0..<source.count {
                        let j = source[e]
                        if j >= 0 && Int(j) < map.count { out[e] = map[Int(j)] } else {
                            if firstOutOfRange == nil { firstOutOfRange = j }
                            out[e] = -1
                        }
                    }
                    initialized = source.count
                }
            }
        }
        if let j = firstOutOfRange {
            diagnostics.append(.warning("mesh \(binding.nodePath): joint index \(j) is out of range (\(mapping.count) joints); its influences are skipped",
                                        at: binding.location))
        }
        return remapped
    }

    /// An attribute's keys in seconds: its time samples, else its default as one key.
    private mutating func keys(_ prim: USDComposedPrim, _ name: String) -> [(time: Double, value: USDValue)] {
        guard let property = prim.attribute(name) else { return [] }
        if let samples = property.spec.timeSamples, !samples.isEmpty {
            if samples.contains(where: { !$0.time.isFinite }) {
                diagnostics.append(.warning("\(prim.path).\(name) has a time sample at a time that is not a number; ignored", at: prim.location))
                return []
            }
            return samples.map { ($0.time / timeCodesPerSecond, $0.value) }
        }
        return property.spec.defaultValue.map { [(defaultKeyTime, $0)] } ?? []
    }

    private mutating func jointChannels(_ animation: USDComposedPrim, skeleton: Skeleton) throws(AssetError) {
        let names = values.value(animation.attribute("joints"))?.strings ?? []
        let targets = names.map { skeleton.jointNames.firstIndex(of: $0) }
        if let missing = names.indices.first(where: { targets[$0] == nil }) {
            diagnostics.append(.warning("animation \(animation.path) drives joint '\(names[missing])', which skeleton \(skeleton.name) does not have; ignored",
                                        at: animation.location))
        }
        let parts: [(String, AnimationChannel.Property)] = [("translations", .translation), ("rotations", .rotation), ("scales", .scale)]
        for (attribute, property) in parts {
            let keyed = keys(animation, attribute)
            guard !keyed.isEmpty else { continue }
            let n = property.components
            try budget.spend(work: keyed.count * names.count * n, for: "animation \(animation.path).\(attribute)", at: animation.location)
            var perJoint = [[Float]](repeating: [], count: names.count)
            for j in names.indices { perJoint[j].reserveCapacity(keyed.count * n) }
            for (k, key) in keyed.enumerated() {
                guard let numbers = key.value.flatNumbers, numbers.count == names.count * n, numbers.allSatisfy(\.isFinite) else {
                    diagnostics.append(.warning("animation \(animation.path).\(attribute) sample \(k) does not hold \(names.count) finite values of \(n); \(attribute) ignored",
                                                at: animation.location))
                    perJoint = []
                    break
                }
                for j in names.indices {
                    let b = j * n
                    if property == .rotation {
                        // USD writes quaternions real part first; channels store x y z w.
                        perJoint[j] += [Float(numbers[b + 1]), Float(numbers[b + 2]), Float(numbers[b + 3]), Float(numbers[b])]
                    } else {
                        perJoint[j] += numbers[b..<(b + n)].map(Float.init)
                    }
                }
            }
            let times = keyed.map(\.time)
            for (j, jointValues) in perJoint.enumerated() {
                guard let target = targets[j] else { continue }
                channels.append(AnimationChannel(nodePath: skeleton.jointPaths[target], property: property, times: times, values: jointValues))
            }
        }
    }

    private mutating func blendShapeChannels(_ animation: USDComposedPrim, meshes: [PendingBinding]) throws(AssetError) {
        guard !meshes.isEmpty else { return }
        let names = values.value(animation.attribute("blendShapes"))?.strings ?? []
        let keyed = keys(animation, "blendShapeWeights")
        guard !names.isEmpty, !keyed.isEmpty else { return }
        try budget.spend(work: keyed.count * names.count * meshes.count, for: "animation \(animation.path).blendShapeWeights", at: animation.location)
        var samples: [[Double]] = []
        for (k, key) in keyed.enumerated() {
            guard let numbers = key.value.flatNumbers, numbers.count == names.count, numbers.allSatisfy(\.isFinite) else {
                diagnostics.append(.warning("animation \(animation.path).blendShapeWeights sample \(k) does not hold \(names.count) finite weights; ignored",
                                            at: animation.location))
                return
            }
            samples.append(numbers)
        }
        for mesh in meshes {
            let columns = mesh.blendShapeNames.map { names.firstIndex(of: $0) }
            var flat: [Float] = []
            flat.reserveCapacity(samples.count * columns.count)
            for sample in samples { flat += columns.map { $0.map { Float(sample[$0]) } ?? 0 } }
            channels.append(AnimationChannel(nodePath: mesh.nodePath, property: .blendShapeWeights(count: columns.count),
                                             times: keyed.map(\.time), values: flat))
        }
    }

    /// A point cache: a mesh whose `points` are sampled at more than one time, as a points channel
    /// on its node. Samples that do not hold the mesh's point count are warned and the cache dropped.
    mutating func pointsChannel(_ prim: USDComposedPrim, nodePath: String, pointCount: Int) throws(AssetError) {
        guard let samples = prim.attribute("points")?.spec.timeSamples, samples.count > 1 else { return }
        try budget.spend(work: samples.count * pointCount * 3, for: "animated points of \(prim.path)", at: prim.location)
        var values: [Float] = []
        values.reserveCapacity(samples.count * pointCount * 3)
        var times: [Double] = []
        for (k, sample) in samples.enumerated() {
            guard sample.time.isFinite, let numbers = sample.value.flatNumbers, numbers.count == pointCount * 3, numbers.allSatisfy(\.isFinite) else {
                diagnostics.append(.warning("\(prim.path).points sample \(k) does not hold the mesh's \(pointCount) finite points; the animated points are ignored",
                                            at: prim.location))
                return
            }
            times.append(sample.time / timeCodesPerSecond)
            values += numbers.map(Float.init)
        }
        channels.append(AnimationChannel(nodePath: nodePath, property: .points(count: pointCount), times: times, values: values))
    }

    /// Samples of the op stack between two of its time samples, where an op other than a translate moves.
    static let spanSubdivisions = 8

    /// A `matrix` channel for a prim whose xformOps are sampled at more than one time: the whole
    /// op stack evaluated at every time any op has a sample, and between them where it turns or scales.
    mutating func xformChannel(_ prim: USDComposedPrim, nodePath: String) throws(AssetError) {
        guard let order = values.value(prim.attribute("xformOpOrder"))?.strings else { return }
        var times = Set<Double>()
        var onlyTranslations = true
        for name in order {
            let opName = name.hasPrefix(USDXformOps.invertPrefix) ? String(name.dropFirst(USDXformOps.invertPrefix.count)) : name
            let samples = prim.attribute(opName)?.spec.timeSamples ?? []
            if samples.count > 1, !opName.hasPrefix("xformOp:translate") { onlyTranslations = false }
            for sample in samples where sample.time.isFinite { times.insert(sample.time) }
        }
        guard times.count > 1 else { return }
        if !onlyTranslations {
            // USD blends each op's own values (Euler angles, scales, matrices) between samples;
            // the whole stack is sampled between them too, so a matrix channel follows that blend.
            let keys = times.sorted()
            for (a, b) in zip(keys, keys.dropFirst()) {
                for s in 1..<Self.spanSubdivisions { times.insert(a + (b - a) * Double(s) / Double(Self.spanSubdivisions)) }
            }
        }
        try budget.spend(work: times.count * (order.count + 16), for: "animated transform of \(prim.path)", at: prim.location)
        var ignored: [Diagnostic] = []
        var flat: [Float] = []
        let sorted = times.sorted()
        flat.reserveCapacity(sorted.count * 16)
        for time in sorted {
            let matrix = USDXformOps.evaluate(prim, values: USDAttributeValues(time: time), diagnostics: &ignored).transform
            flat += matrix.columnMajorElements.map(Float.init)
        }
        let keys = Set(order.flatMap { name in
            (prim.attribute(name.hasPrefix(USDXformOps.invertPrefix) ? String(name.dropFirst(USDXformOps.invertPrefix.count)) : name)?
                .spec.timeSamples ?? []).map { $0.time / timeCodesPerSecond }
        })
        channels.append(AnimationChannel(nodePath: nodePath, property: .matrix, times: sorted.map { $0 / timeCodesPerSecond }, values: flat)
            .withoutSamplesTheBlendReproduces(keeping: keys))
    }
}

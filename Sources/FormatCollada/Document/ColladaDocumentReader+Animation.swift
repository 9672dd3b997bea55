import AssetCore

/// Skin and morph controllers in full, `<library_animations>` and `<library_animation_clips>`.
/// Broken entries are warnings and are dropped; the rest of the document is still read.
extension ColladaDocumentReader {
    /// Influences one vertex may have; more is a broken or hostile file.
    static let maxInfluences = 256

    /// A `<source>` of floats or of names (Name_array, IDREF_array), with its accessor's stride.
    static func animationSource(_ element: ColladaElement) -> ColladaAnimationSource? {
        let stride = element.child("technique_common")?.child("accessor")?["stride"].flatMap(Int.init) ?? 1
        if let floats = element.child("float_array") {
            guard floats.badNumber == nil else { return nil }
            return ColladaAnimationSource(floats: floats.floats, names: [], stride: max(stride, 1))
        }
        if let names = element.child("Name_array") ?? element.child("IDREF_array") ?? element.child("SIDREF_array") {
            let list = names.trimmedText.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).map(String.init)
            return ColladaAnimationSource(floats: [], names: list, stride: max(stride, 1))
        }
        return nil
    }

    static func sources(of element: ColladaElement) -> [String: ColladaAnimationSource] {
        var sources: [String: ColladaAnimationSource] = [:]
        for source in element.children("source") {
            if let id = source["id"], let read = animationSource(source) { sources[id] = read }
        }
        return sources
    }

    mutating func readSkin(_ skin: ColladaElement, into controller: inout ColladaController) {
        let here = "controller[@id=\(controller.id)]/skin"
        let sources = Self.sources(of: skin)
        let jointInputs = skin.child("joints")?.children("input") ?? []
        func source(_ inputs: [ColladaElement], _ semantic: String) -> (ColladaAnimationSource, String)? {
            guard let input = inputs.first(where: { $0["semantic"] == semantic }), let id = input["source"].map(Self.fragment),
                  let found = sources[id] else { return nil }
            return (found, id)
        }
        guard let (joints, jointsID) = source(jointInputs, "JOINT"), !joints.names.isEmpty else {
            warn("skin has no JOINT names; read at its bind pose without joints", line: skin.line, element: here)
            return
        }
        controller.jointNames = joints.names
        controller.jointsAreIDs = skin.descendant("IDREF_array") != nil
        if let (matrices, _) = source(jointInputs, "INV_BIND_MATRIX") {
            guard matrices.floats.count == joints.names.count * 16 else {
                warn("INV_BIND_MATRIX holds \(matrices.floats.count / 16) matrices for \(joints.names.count) joints; joints dropped", line: skin.line, element: here)
                controller.jointNames = []
                return
            }
            controller.inverseBindMatrices = (0..<joints.names.count).map { j in matrices.floats[(j * 16)..<(j * 16 + 16)].map(Double.init) }
        }
        guard let weightsElement = skin.child("vertex_weights") else { return }
        let inputs = weightsElement.children("input")
        let jointOffset = inputs.first { $0["semantic"] == "JOINT" }?["offset"].flatMap(Int.init) ?? 0
        let weightOffset = inputs.first { $0["semantic"] == "WEIGHT" }?["offset"].flatMap(Int.init) ?? 1
        let stride = (inputs.compactMap { $0["offset"].flatMap(Int.init) }.max() ?? 1) + 1
        guard let (weights, _) = source(inputs, "WEIGHT") else {
            warn("vertex_weights has no WEIGHT source; joints kept, no influences", line: weightsElement.line, element: here)
            return
        }
        let vertexJoints = source(inputs, "JOINT")
        // The vertex weights' JOINT source is normally the joints' own; when it is another list,
        // its names map onto the joints' order.
        var remap: [Int32]?
        if let (other, otherID) = vertexJoints, otherID != jointsID {
            remap = other.names.map { name in joints.names.firstIndex(of: name).map(Int32.init) ?? -1 }
        }
        let vcount = weightsElement.child("vcount")?.ints ?? []
        let v = weightsElement.child("v")?.ints ?? []
        var influences: [[(joint: Int32, weight: Float)]] = []
        influences.reserveCapacity(vcount.count)
        var cursor = 0
        for (vertex, count) in vcount.enumerated() {
            guard count >= 0, count <= Self.maxInfluences, cursor + Int(count) * stride <= v.count else {
                warn("vertex_weights: vertex \(vertex) claims \(count) influences, more than <v> holds or \(Self.maxInfluences); influences dropped",
                     line: weightsElement.line, element: here)
                return
            }
            var list: [(joint: Int32, weight: Float)] = []
            for _ in 0..<Int(count) {
                var joint = v[cursor + jointOffset]
                let weightIndex = Int(v[cursor + weightOffset])
                cursor += stride
                if let remap { joint = joint >= 0 && Int(joint) < remap.count ? remap[Int(joint)] : -1 }
                guard weightIndex >= 0, weightIndex < weights.floats.count else {
                    warn("vertex_weights: weight index \(weightIndex) is outside the \(weights.floats.count) weights; influences dropped",
                         line: weightsElement.line, element: here)
                    return
                }
                list.append((joint, weights.floats[weightIndex]))
            }
            influences.append(list)
        }
        controller.vertexInfluences = influences
    }

    mutating func readMorph(_ morph: ColladaElement, into controller: inout ColladaController) {
        let sources = Self.sources(of: morph)
        let inputs = morph.child("targets")?.children("input") ?? []
        controller.morphMethod = morph["method"] ?? "NORMALIZED"
        if let id = inputs.first(where: { $0["semantic"] == "MORPH_TARGET" })?["source"].map(Self.fragment), let targets = sources[id] {
            controller.morphTargets = targets.names.map(Self.fragment)
        }
        if let id = inputs.first(where: { $0["semantic"] == "MORPH_WEIGHT" })?["source"].map(Self.fragment), let weights = sources[id] {
            controller.morphWeights = weights.floats
            controller.morphWeightsSource = id
        }
        if controller.morphWeights.count != controller.morphTargets.count {
            warn("morph has \(controller.morphTargets.count) targets and \(controller.morphWeights.count) weights; missing weights are 0",
                 line: morph.line, element: "controller[@id=\(controller.id)]/morph")
            controller.morphWeights += [Float](repeating: 0, count: max(0, controller.morphTargets.count - controller.morphWeights.count))
        }
    }

    /// An `<animation>` with its nested animations flattened into one.
    mutating func readAnimation(_ element: ColladaElement) -> ColladaAnimation {
        var animation = ColladaAnimation(id: element["id"] ?? "animation\(document.animations.count)", line: element.line)
        var stack = [(element, [String]())]
        while let (current, within) = stack.popLast() {
            animation.sources.merge(Self.sources(of: current)) { first, _ in first }
            for sampler in current.children("sampler") {
                guard let id = sampler["id"] else { continue }
                var inputs: [String: String] = [:]
                for input in sampler.children("input") {
                    if let semantic = input["semantic"], let source = input["source"] { inputs[semantic] = Self.fragment(source) }
                }
                animation.samplers[id] = .init(inputs: inputs)
            }
            for channel in current.children("channel") {
                guard let source = channel["source"], let target = channel["target"] else { continue }
                animation.channels.append(.init(sampler: Self.fragment(source), target: target, line: channel.line, within: within))
            }
            stack.append(contentsOf: current.children("animation").reversed().map { child in
                (child, child["id"].map { within + [$0] } ?? within)
            })
        }
        return animation
    }

    mutating func readClip(_ element: ColladaElement) {
        let id = element["id"] ?? "clip\(document.animationClips.count)"
        document.animationClips.append(ColladaAnimationClip(
            id: id, name: element["name"] ?? id, start: element["start"].flatMap(Double.init) ?? 0, end: element["end"].flatMap(Double.init),
            animations: element.children("instance_animation").compactMap { $0["url"].map(Self.fragment) }, line: element.line))
    }
}

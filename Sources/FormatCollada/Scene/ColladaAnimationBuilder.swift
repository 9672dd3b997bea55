import AssetCore

/// Collada skins' joints and `<library_animations>` into the scene model, once the node tree is
/// built: joints and channel targets name node ids and sids, which are found through the nodes'
/// origins (`ColladaNodeOrigin`, one per scene node in depth-first order).
///
/// A channel drives one element of a node's transform stack (`rotateY.ANGLE`, `translate.X`,
/// `matrix`); the node's whole stack is re-evaluated at the union of its channels' sample times
/// (Bézier spans subdivided) into one linear matrix channel. Clips come from
/// `<library_animation_clips>`, else all animations are one clip.
struct ColladaAnimationBuilder {
    let document: ColladaDocument
    let origins: [ColladaNodeOrigin]
    let limits: ReadLimits
    var diagnostics: [Diagnostic] = []
    private var ordersByID: [String: [Int]] = [:]
    private var subtreeEnd: [Int] = []

    init(document: ColladaDocument, origins: [ColladaNodeOrigin], limits: ReadLimits) {
        self.document = document
        self.origins = origins
        self.limits = limits
        subtreeEnd = origins.indices.map { $0 + 1 }
        for i in origins.indices.reversed() where origins[i].parent >= 0 {
            subtreeEnd[origins[i].parent] = max(subtreeEnd[origins[i].parent], subtreeEnd[i])
        }
        for (i, origin) in origins.enumerated() { if let id = origin.node.id { ordersByID[id, default: []].append(i) } }
    }

    mutating func build(into scene: inout Scene, pendingSkins: [ColladaPendingSkin], morphPlacements: [ColladaMorphPlacement],
                        materialIndex: [String: Int] = [:], lightIndex: [String: Int] = [:]) throws(AssetError) {
        var flat = FlatNodeTree(scene.root)
        guard flat.nodes.count == origins.count else { return }  // every node made is placed; a mismatch would be a bug here
        var skeletonIndex: [String: Int] = [:]
        // Controllers whose instances name the same <skeleton> roots share one skeleton (BrainStem's
        // 59 meshes on one rig), their joints joined; a mesh's weights are renumbered to the joined order.
        var sharedByRoots: [String: Int] = [:]
        var renumbered: Set<Int> = []
        for pending in pendingSkins {
            guard let controller = document.controllers[pending.controller] else { continue }
            let roots = pending.skeletonRoots.joined(separator: "|")
            let key = pending.controller + "|" + roots
            if skeletonIndex[key] == nil {
                let own = skeleton(controller, roots: pending.skeletonRoots, paths: flat.paths, at: pending.location)
                if !roots.isEmpty, let shared = sharedByRoots[roots], let order = Self.join(own, into: &scene.skeletons[shared]) {
                    skeletonIndex[key] = shared
                    let mesh = flat.nodes[pending.node].meshInstances[pending.instance].mesh
                    if order != Array(0..<Int32(order.count)), scene.meshes.indices.contains(mesh), renumbered.insert(mesh).inserted,
                       var weights = scene.meshes[mesh].skinWeights {
                        weights.joints = weights.joints.map { order.indices.contains(Int($0)) ? order[Int($0)] : $0 }
                        scene.meshes[mesh].skinWeights = weights
                    }
                } else {
                    skeletonIndex[key] = scene.skeletons.count
                    if !roots.isEmpty && sharedByRoots[roots] == nil { sharedByRoots[roots] = scene.skeletons.count }
                    scene.skeletons.append(own)
                }
            }
            flat.nodes[pending.node].meshInstances[pending.instance].skin = SkinBinding(skeleton: skeletonIndex[key]!)
        }
        scene.root = flat.rebuilt()
        var clips: [(name: String, animations: [ColladaAnimation], window: ClosedRange<Double>?)] = []
        if document.animationClips.isEmpty {
            if !document.animations.isEmpty { clips = [("animation", document.animations, nil)] }
        } else {
            for clip in document.animationClips {
                let here = document.location(line: clip.line, element: "animation_clip[@id=\(clip.id)]")
                var parts: [ColladaAnimation] = []
                for id in clip.animations {
                    guard let holder = document.animations.first(where: { $0.holds(id) }) else {
                        diagnostics.append(.warning("clip '\(clip.name)': instance_animation #\(id) names no animation; left out", at: here))
                        continue
                    }
                    parts.append(holder.part(id))
                }
                var window: ClosedRange<Double>?
                if let end = clip.end {
                    if end >= clip.start, clip.start.isFinite, end.isFinite { window = clip.start...end } else {
                        diagnostics.append(.warning("clip '\(clip.name)': start \(clip.start) and end \(end) make no span; its keys' span is used", at: here))
                    }
                }
                clips.append((clip.name, parts, window))
            }
        }
        for (name, animations, window) in clips {
            let (channels, driven) = try self.channels(animations, paths: flat.paths, morphPlacements: morphPlacements, window: window)
            let materialChannels = ColladaMaterialAnimation.channels(driven.effects, document: document, materialIndex: materialIndex, window: window,
                                                                     scene: &scene, diagnostics: &diagnostics)
            let lightChannels = ColladaLightAnimation.channels(driven.lights, document: document, lightIndex: lightIndex, window: window,
                                                               diagnostics: &diagnostics)
            if !channels.isEmpty || !materialChannels.isEmpty || !lightChannels.isEmpty {
                scene.animations.append(AnimationClip(name: name, channels: channels, materialChannels: materialChannels, lightChannels: lightChannels))
            }
        }
    }

    /// `skin`'s joints added to `shared` (those it lacks, at the end), and where each of `skin`'s
    /// joints now is; nil (and `shared` untouched) when a joint both name is bound differently, since
    /// one skeleton holds one bind pose a joint.
    static func join(_ skin: Skeleton, into shared: inout Skeleton) -> [Int32]? {
        var position = Dictionary(shared.jointPaths.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var joined = shared
        var order: [Int32] = []
        for (j, path) in skin.jointPaths.enumerated() {
            if !path.isEmpty, let at = position[path] {
                guard joined.inverseBindMatrices[at].isApproximatelyEqual(to: skin.inverseBindMatrices[j], tolerance: 1e-5) else { return nil }
                order.append(Int32(at))
            } else {
                position[path] = joined.jointPaths.count
                order.append(Int32(joined.jointPaths.count))
                joined.jointPaths.append(path)
                joined.jointNames.append(skin.jointNames[j])
                joined.inverseBindMatrices.append(skin.inverseBindMatrices[j])
            }
        }
        shared = joined
        return order
    }

    /// The node a joint name means: by sid (or id, for IDREF joints) under the instance's
    /// `<skeleton>` roots, else anywhere; then by id or name, as exporters that skip sids expect.
    private mutating func skeleton(_ controller: ColladaController, roots: [String], paths: [String], at here: SourceLocation) -> Skeleton {
        var ranges = roots.compactMap { ordersByID[$0]?.first }.map { $0..<subtreeEnd[$0] }
        if ranges.isEmpty { ranges = [0..<origins.count] }
        var jointPaths: [String] = []
        for name in controller.jointNames {
            let inRoots = ranges.lazy.flatMap { $0 }
            let found = inRoots.first { controller.jointsAreIDs ? self.origins[$0].node.id == name : self.origins[$0].node.sid == name }
                ?? (0..<origins.count).first { self.origins[$0].node.sid == name || self.origins[$0].node.id == name }
                ?? (0..<origins.count).first { self.origins[$0].node.name == name }
            if let found { jointPaths.append(paths[found]) } else {
                diagnostics.append(.warning("skin #\(controller.id): joint '\(name)' names no node; meshes follow it at their bind pose", at: here))
                jointPaths.append("")
            }
        }
        let inverseBinds = controller.jointNames.indices.map { j in
            controller.inverseBindMatrices.indices.contains(j) ? Matrix4x4(rowMajor: controller.inverseBindMatrices[j]) : .identity
        }
        return Skeleton(name: controller.id, jointPaths: jointPaths, jointNames: controller.jointNames, inverseBindMatrices: inverseBinds)
    }

    private struct Driven {
        var transform: Int
        var components: [Int]?
        var curve: ColladaAnimationCurve
    }

    /// The node channels, and the channels that drive effect parameters and light colours (made
    /// into material and light channels by the caller).
    private mutating func channels(_ animations: [ColladaAnimation], paths: [String], morphPlacements: [ColladaMorphPlacement],
                                   window: ClosedRange<Double>?) throws(AssetError)
        -> ([AnimationChannel], (effects: [ColladaMaterialAnimation.Driven], lights: [ColladaLightAnimation.Driven])) {
        var drivenByNode: [Int: [Driven]] = [:]
        var drivenEffects: [ColladaMaterialAnimation.Driven] = []
        var drivenLights: [ColladaLightAnimation.Driven] = []
        var weightsByPlacement: [Int: (defaults: [Float], curves: [(Int, ColladaAnimationCurve)])] = [:]
        var work = 0
        for animation in animations {
            for channel in animation.channels {
                let here = document.location(line: channel.line, element: "animation[@id=\(animation.id)]")
                guard let curve = curve(animation, sampler: channel.sampler, at: here) else { continue }
                work += curve.times.count * curve.stride
                guard work <= limits.maxWork else { throw AssetError(.limitExceeded("animation keys past the work budget (\(limits.maxWork))"), at: here) }
                if let (morph, index) = morphTarget(channel.target) {
                    let placements = morphPlacements.compactMap { placement in
                        placement.controllers.first { $0.id == morph.id }.map { (placement, $0.slots) }
                    }
                    if placements.isEmpty {
                        diagnostics.append(.warning("channel target '\(channel.target)': morph #\(morph.id) is placed by no node; ignored", at: here))
                    }
                    for (placement, slots) in placements {
                        guard slots.indices.contains(index), let slot = slots[index] else {
                            diagnostics.append(.warning("channel target '\(channel.target)': morph #\(morph.id)'s target \(index) was left out; its weight's animation is ignored", at: here))
                            break
                        }
                        weightsByPlacement[placement.node, default: (placement.weights, [])].curves.append((slot, curve))
                    }
                    continue
                }
                if let target = ColladaMaterialAnimation.target(channel.target, in: document) {
                    let wanted = target.component != nil || target.parameter == "transparency" || target.parameter == "shininess"
                        || target.parameter == "index_of_refraction" || target.parameter == "reflectivity" ? [1] : [3, 4]
                    guard wanted.contains(curve.stride) else {
                        diagnostics.append(.warning("channel target '\(channel.target)' takes \(wanted.map(String.init).joined(separator: " or ")) numbers but its sampler gives \(curve.stride); ignored", at: here))
                        continue
                    }
                    drivenEffects.append(.init(target: target, curve: curve, written: channel.target))
                    continue
                }
                if let (light, component) = ColladaLightAnimation.target(channel.target, in: document) {
                    let wanted = component == nil ? 3 : 1
                    guard curve.stride == wanted else {
                        diagnostics.append(.warning("channel target '\(channel.target)' takes \(wanted) numbers but its sampler gives \(curve.stride); ignored", at: here))
                        continue
                    }
                    drivenLights.append(.init(light: light, component: component, curve: curve, written: channel.target))
                    continue
                }
                guard let target = ColladaTarget(channel.target), let orders = ordersByID[target.nodeID] else {
                    if let kind = parameterOwner(channel.target) {
                        diagnostics.append(.warning("channel target '\(channel.target)' animates a \(kind) parameter, which assetc's scene cannot hold as animation; ignored", at: here))
                    } else {
                        diagnostics.append(.warning("channel target '\(channel.target)' names no node; ignored", at: here))
                    }
                    continue
                }
                for order in orders {
                    guard let t = origins[order].node.transforms.firstIndex(where: { $0.sid == target.sid }) else {
                        diagnostics.append(.warning("channel target '\(channel.target)': node #\(target.nodeID) has no transform with sid '\(target.sid)'; ignored", at: here))
                        break
                    }
                    let size = origins[order].node.transforms[t].0.numbers.count
                    let wanted = target.components?.count ?? size
                    guard curve.stride == wanted, target.components?.allSatisfy({ $0 < size }) ?? true else {
                        diagnostics.append(.warning("channel target '\(channel.target)' takes \(wanted) numbers but its sampler gives \(curve.stride); ignored", at: here))
                        break
                    }
                    drivenByNode[order, default: []].append(Driven(transform: t, components: target.components, curve: curve))
                }
            }
        }
        var channels: [AnimationChannel] = []
        for (order, driven) in drivenByNode.sorted(by: { $0.key < $1.key }) {
            let stack = origins[order].node.transforms
            let times = Self.times(driven.map { d in
                // Translations move linearly in the matrix too; everything else is sampled between keys.
                if case .translate = stack[d.transform].0 { return (d.curve, true) }
                return (d.curve, false)
            }, within: window)
            var values: [Float] = []
            values.reserveCapacity(times.count * 16)
            for time in times {
                var stack = origins[order].node.transforms
                for d in driven {
                    var numbers = stack[d.transform].0.numbers
                    let sampled = d.curve.value(at: time)
                    if let components = d.components {
                        for (c, v) in zip(components, sampled) { numbers[c] = v }
                    } else {
                        numbers = sampled
                    }
                    stack[d.transform].0 = stack[d.transform].0.with(numbers)
                }
                values += ColladaTransforms.matrix(stack).columnMajorElements.map(Float.init)
            }
            let keys = Set(driven.flatMap(\.curve.times) + (window.map { [$0.lowerBound, $0.upperBound] } ?? []))
            channels.append(AnimationChannel(nodePath: paths[order], property: .matrix, times: times, values: values)
                .withoutSamplesTheBlendReproduces(keeping: keys))
        }
        for (order, entry) in weightsByPlacement.sorted(by: { $0.key < $1.key }) {
            let count = entry.defaults.count
            let times = Self.times(entry.curves.map { ($0.1, true) }, within: window)
            var values: [Float] = []
            for time in times {
                var weights = entry.defaults
                for (index, curve) in entry.curves where index < count { weights[index] = Float(curve.value(at: time).first ?? 0) }
                values += weights
            }
            channels.append(AnimationChannel(nodePath: paths[order], property: .blendShapeWeights(count: count), times: times, values: values))
        }
        return (channels, (drivenEffects, drivenLights))
    }

    /// What a channel target that names no node points into, when it is an effect or material
    /// parameter not found, a camera or a light: field of view, intensity and the like.
    private func parameterOwner(_ target: String) -> String? {
        let head = target.split(separator: "/").first.map(String.init) ?? target
        if document.effects[head] != nil { return "material (effect #\(head))" }
        if document.materials[head] != nil { return "material (#\(head))" }
        if document.cameras[head] != nil { return "camera (#\(head))" }
        if document.lights[head] != nil { return "light (#\(head))" }
        return nil
    }

    /// The times to sample curves at: every key (Bézier spans subdivided); inside a clip's
    /// `start`...`end`, only the keys within it and the two ends themselves, so the clip plays
    /// exactly its span with the values the curves have there.
    static func times(_ curves: [(ColladaAnimationCurve, linearIsExact: Bool)], within window: ClosedRange<Double>?) -> [Double] {
        var times = Set(curves.flatMap { $0.0.sampleTimes(linearIsExact: $0.linearIsExact) })
        if let window {
            times = times.filter { window.contains($0) }
            times.insert(window.lowerBound)
            times.insert(window.upperBound)
        }
        return times.sorted()
    }

    /// `morph-weights(2)` (or `controller/…(2)`): a morph's weights source and the weight's index.
    private func morphTarget(_ target: String) -> (ColladaController, Int)? {
        guard let open = target.firstIndex(of: "("), let close = target.firstIndex(of: ")"), open < close,
              let index = Int(target[target.index(after: open)..<close]) else { return nil }
        let element = target[..<open].split(separator: "/").last.map(String.init) ?? ""
        let first = target[..<open].split(separator: "/").first.map(String.init) ?? ""
        guard let morph = document.controllers.values.first(where: { $0.isMorph && ($0.morphWeightsSource == element || $0.id == first) }) else { return nil }
        return (morph, index)
    }

    /// A sampler as a curve; nil, with a warning, when its sources are missing or do not agree.
    private mutating func curve(_ animation: ColladaAnimation, sampler id: String, at here: SourceLocation) -> ColladaAnimationCurve? {
        guard let sampler = animation.samplers[id], let input = sampler.inputs["INPUT"].flatMap({ animation.sources[$0] }),
              let output = sampler.inputs["OUTPUT"].flatMap({ animation.sources[$0] }) else {
            diagnostics.append(.warning("sampler #\(id) lacks its INPUT or OUTPUT source; its channel is ignored", at: here))
            return nil
        }
        let times = input.floats.map(Double.init)
        guard !times.isEmpty, output.floats.count == times.count * output.stride else {
            diagnostics.append(.warning("sampler #\(id): \(output.floats.count) output values for \(times.count) keys of \(output.stride); ignored", at: here))
            return nil
        }
        if let bad = times.firstIndex(where: { !$0.isFinite }) ?? times.indices.dropFirst().first(where: { times[$0 - 1] > times[$0] }) {
            diagnostics.append(.warning("sampler #\(id): key time \(bad) (\(times[bad])) is not a number or goes backwards; ignored", at: here))
            return nil
        }
        guard output.floats.allSatisfy(\.isFinite) else {
            diagnostics.append(.warning("sampler #\(id): an output value is not a finite number; ignored", at: here))
            return nil
        }
        let interpolations = sampler.inputs["INTERPOLATION"].flatMap { animation.sources[$0]?.names } ?? []
        return ColladaAnimationCurve(times: times, values: output.floats.map(Double.init), stride: output.stride, interpolations: interpolations,
                                     inTangents: sampler.inputs["IN_TANGENT"].flatMap { animation.sources[$0]?.floats.map(Double.init) },
                                     outTangents: sampler.inputs["OUT_TANGENT"].flatMap { animation.sources[$0]?.floats.map(Double.init) })
    }
}

extension ColladaTransform {
    /// The element's numbers in document order.
    var numbers: [Double] {
        switch self {
        case .matrix(let v), .translate(let v), .rotate(let v), .scale(let v), .lookat(let v), .skew(let v): return v
        }
    }

    func with(_ numbers: [Double]) -> ColladaTransform {
        switch self {
        case .matrix: return .matrix(numbers)
        case .translate: return .translate(numbers)
        case .rotate: return .rotate(numbers)
        case .scale: return .scale(numbers)
        case .lookat: return .lookat(numbers)
        case .skew: return .skew(numbers)
        }
    }
}

import AssetCore

/// Every `AnimationStack` as a clip: its layers' `AnimationCurveNode`s on a model's Lcl
/// Translation / Rotation / Scaling, and on a blend shape channel's DeformPercent. A model's
/// curves are sampled together at their keys (and inside cubic segments) and each sample goes
/// through the model's whole transform stack (rotation order, pre/post rotation, pivots), then
/// into translation, rotation and scale channels; DeformPercent becomes the mesh's blend shape
/// weights. The clip runs from the stack's LocalStart to LocalStop.
struct FBXAnimationBuilder {
    let objects: FBXObjects
    let pathOf: [String: String]
    let transformOf: [String: FBXTransform]
    let meshNodes: [(path: String, mesh: Int)]
    let channelsOfMesh: [Int: [String]]
    let correction: Matrix4x4
    let rootModels: Set<String>
    let budget: ReadBudget
    var diagnostics: [Diagnostic] = []
    /// The stack being read, for the budget's messages.
    private var stackLocation = SourceLocation(file: "")

    init(builder: FBXSceneBuilder, correction: Matrix4x4) {
        objects = builder.objects
        pathOf = builder.pathOf
        transformOf = builder.transformOf
        meshNodes = builder.meshNodes
        channelsOfMesh = builder.channelsOfMesh
        budget = builder.budget
        self.correction = correction
        rootModels = Set(builder.objects.objects.values.filter { $0.kind == "Model" && builder.objects.parents(of: $0.id, kind: "Model").isEmpty }.map(\.id))
    }

    /// A curve node's curves by component (`d|X` -> 0 ...), and its defaults.
    private struct Driven {
        var curves: [Int: FBXCurve] = [:]
        var defaults: [Int: Double] = [:]
    }

    mutating func clips() throws(AssetError) -> [AnimationClip] {
        var clips: [AnimationClip] = []
        for id in objects.order {
            guard let stack = objects.objects[id], stack.kind == "AnimationStack" else { continue }
            stackLocation = stack.node.location
            let layers = objects.children(of: stack.id, kind: "AnimationLayer")
            if layers.count > 1 {
                diagnostics.append(.warning("animation stack \(stack.name) has \(layers.count) layers; the first is read, the others are not blended in",
                                            at: stack.node.location))
            }
            guard let layer = layers.first else { continue }
            // Model id -> property -> driven components; channel id -> DeformPercent curve.
            var transforms: [String: [String: Driven]] = [:]
            var deform: [String: FBXCurve] = [:]
            for curveNode in objects.children(of: layer.id, kind: "AnimationCurveNode") {
                var driven = Driven()
                for (curve, property) in objects.propertyChildren(of: curveNode.id) where curve.kind == "AnimationCurve" {
                    guard let component = Self.component(property), let parsed = FBXCurve(curve, diagnostics: &diagnostics) else { continue }
                    try budget.spend(work: parsed.times.count, for: "animation curve \(curve.id)", at: curve.node.location)
                    driven.curves[component] = parsed
                }
                for (key, value) in curveNode.properties { if let c = Self.component(key), let v = value.first?.double { driven.defaults[c] = v } }
                for link in objects.parentsOf[curveNode.id] ?? [] {
                    guard let property = link.property, let target = objects.objects[link.parent] else { continue }
                    if target.kind == "Model", ["Lcl Translation", "Lcl Rotation", "Lcl Scaling"].contains(property) {
                        transforms[target.id, default: [:]][property] = driven
                    } else if property == "DeformPercent", let curve = driven.curves[0] {
                        deform[target.id] = curve
                    } else if target.kind == "Geometry", let curve = driven.curves[0], let channel = channel(named: property, of: target) {
                        deform[channel] = curve  // Blender writes a channel's weight as a property of the geometry named after it
                    } else {
                        diagnostics.append(.warning("animation of \(target.kind) \(target.name)'s \(property) is not carried", at: curveNode.node.location))
                    }
                }
            }
            let ticks = FBXCurve.ticksPerSecond
            let start = (stack.number("LocalStart") ?? stack.number("ReferenceStart")).map { $0 / ticks }
            let stop = (stack.number("LocalStop") ?? stack.number("ReferenceStop")).map { $0 / ticks }
            var clip = AnimationClip(name: stack.name)
            for model in objects.order where transforms[model] != nil {
                if let channels = try transformChannels(model, transforms[model]!, start: start, stop: stop) { clip.channels += channels }
            }
            clip.channels += try weightChannels(deform, start: start, stop: stop)
            if !clip.channels.isEmpty { clips.append(clip) }
        }
        return clips
    }

    /// The blend shape channel of `geometry` called `name`.
    private func channel(named name: String, of geometry: FBXObject) -> String? {
        for deformer in objects.children(of: geometry.id, kind: "Deformer") where deformer.subclass == "BlendShape" {
            if let found = objects.children(of: deformer.id, kind: "Deformer").first(where: { $0.subclass == "BlendShapeChannel" && $0.name == name }) {
                return found.id
            }
        }
        return nil
    }

    static func component(_ property: String) -> Int? {
        switch property {
        case "d|X": return 0
        case "d|Y": return 1
        case "d|Z": return 2
        case let other where other.hasPrefix("d|"): return 0  // the one value of DeformPercent (or a named weight)
        default: return nil
        }
    }

    /// The times every curve given is sampled at within the clip, the clip's ends included.
    private func times(_ curves: [FBXCurve], start: Double?, stop: Double?) throws(AssetError) -> [Double] {
        let low = start ?? curves.map { $0.times[0] }.min() ?? 0, high = stop ?? curves.map { $0.times[$0.times.count - 1] }.max() ?? 0
        var all = Set(curves.flatMap { $0.sampleTimes(from: low, to: high) })
        all.insert(low)
        all.insert(high)
        try budget.spend(work: all.count, for: "animation samples", at: stackLocation)
        return all.sorted()
    }

    private func transformChannels(_ model: String, _ driven: [String: Driven], start: Double?, stop: Double?) throws(AssetError) -> [AnimationChannel]? {
        guard let path = pathOf[model], let stack = transformOf[model] else { return nil }
        let curves = driven.values.flatMap { $0.curves.values }
        guard !curves.isEmpty else { return nil }
        let times = try times(curves, start: start, stop: stop)
        func sample(_ property: String, _ fallback: SIMD3<Double>, at t: Double) -> SIMD3<Double> {
            guard let d = driven[property] else { return fallback }
            var v = fallback
            for c in 0..<3 { v[c] = d.curves[c].map { Double($0.value(at: t)) } ?? d.defaults[c] ?? fallback[c] }
            return v
        }
        var translation: [Float] = [], rotation: [Float] = [], scale: [Float] = []
        var previous = Quaternion.identity
        for t in times {
            var local = stack.matrix(translation: sample("Lcl Translation", stack.translation, at: t),
                                     rotation: sample("Lcl Rotation", stack.rotation, at: t), scaling: sample("Lcl Scaling", stack.scaling, at: t))
            if rootModels.contains(model) && !correction.isIdentity { local = correction * local }
            let parts = TransformComponents(local)
            var q = parts.rotation
            if q.dot(previous) < 0 { q = -q }  // the shorter way round, so sampled keys do not flip
            previous = q
            translation += [Float(parts.translation.x), Float(parts.translation.y), Float(parts.translation.z)]
            rotation += [Float(q.imaginary.x), Float(q.imaginary.y), Float(q.imaginary.z), Float(q.real)]
            scale += [Float(parts.scale.x), Float(parts.scale.y), Float(parts.scale.z)]
        }
        return [AnimationChannel(nodePath: path, property: .translation, times: times, values: translation),
                AnimationChannel(nodePath: path, property: .rotation, times: times, values: rotation),
                AnimationChannel(nodePath: path, property: .scale, times: times, values: scale)]
    }

    /// DeformPercent curves as each animated mesh's weights channel, on every node showing the mesh.
    private func weightChannels(_ deform: [String: FBXCurve], start: Double?, stop: Double?) throws(AssetError) -> [AnimationChannel] {
        guard !deform.isEmpty else { return [] }
        var out: [AnimationChannel] = []
        for (mesh, channels) in channelsOfMesh.sorted(by: { $0.key < $1.key }) {
            let curves = channels.compactMap { deform[$0] }
            guard !curves.isEmpty else { continue }
            let times = try times(curves, start: start, stop: stop)
            var values: [Float] = []
            values.reserveCapacity(times.count * channels.count)
            for t in times {
                for channel in channels {
                    values.append((deform[channel].map { $0.value(at: t) } ?? Float(objects.objects[channel]?.number("DeformPercent") ?? 0)) / 100)
                }
            }
            for node in meshNodes where node.mesh == mesh {
                out.append(AnimationChannel(nodePath: node.path, property: .blendShapeWeights(count: channels.count), times: times, values: values))
            }
        }
        return out
    }
}

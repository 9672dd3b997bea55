import AssetCore

/// Clips as FBX animation: one `AnimationStack` per clip, named as the clip, spanning its first to
/// last key, with one `AnimationLayer`. A node's translation and scale keep their keys and their
/// interpolation (constant, linear, or cubic with the source's tangents as user slopes); rotations,
/// which FBX keys as Euler angles, are sampled at the scene's frame rate and at every key, turned
/// into eEulerXYZ degrees without jumps and keyed linearly (constant for stepped keys); whole-matrix
/// channels are split into the three per key. Blend-shape weights key each channel's
/// `DeformPercent`. Point caches are named in a warning.
extension FBXSceneEncoder {
    mutating func writeAnimation() -> [(name: String, start: Int64, stop: Int64)] {
        var stacks: [(name: String, start: Int64, stop: Int64)] = []
        var pointCaches = 0, unplaced: Set<String> = []
        for clip in scene.animations {
            guard let range = clip.timeRange else { continue }
            animatedChannels = []
            let stack = newID(), layer = newID()
            let (start, stop) = (FBXTime.ticks(range.lowerBound), FBXTime.ticks(range.upperBound))
            var p = FBXProperties70()
            p.time("LocalStart", start); p.time("LocalStop", stop)
            p.time("ReferenceStart", start); p.time("ReferenceStop", stop)
            add(FBXRecord("AnimationStack", .int64(stack), FBXRecord.objectName(clip.name, "AnimStack"), .string(""), children: [p.record]),
                type: "AnimationStack")
            var layerRecord = FBXRecord("AnimationLayer", .int64(layer), FBXRecord.objectName("BaseLayer", "AnimLayer"), .string(""))
            layerRecord.hasScope = true
            add(layerRecord, type: "AnimationLayer")
            connect(layer, to: stack)
            stacks.append((clip.name, start, stop))
            var byNode: [String: [AnimationChannel]] = [:], order: [String] = []
            for channel in clip.channels {
                if case .points = channel.property { pointCaches += 1; continue }
                if byNode[channel.nodePath] == nil { order.append(channel.nodePath) }
                byNode[channel.nodePath, default: []].append(channel)
            }
            for path in order {
                guard let model = modelOf[path] else { unplaced.insert(path); continue }
                let channels = byNode[path]!
                writeTransformCurves(channels.filter { $0.property.isTransform }, model: model, path: path, layer: layer)
                for channel in channels {
                    if case .blendShapeWeights = channel.property { writeWeightCurves(channel, path: path, layer: layer) }
                }
            }
        }
        if pointCaches > 0 {
            diagnostics.append(.warning("FBX holds no point caches: \(pointCaches) animated point channel(s) left out (the meshes keep their rest points)"))
        }
        if !unplaced.isEmpty {
            diagnostics.append(.warning("animation of \(unplaced.count) node(s) not in the written hierarchy left out: \(unplaced.sorted().prefix(3).joined(separator: ", "))"))
        }
        return stacks
    }

    private mutating func writeTransformCurves(_ channels: [AnimationChannel], model: Int64, path: String, layer: Int64) {
        guard !channels.isEmpty else { return }
        let rest = TransformComponents(localOf[path] ?? .identity)
        if let matrix = channels.first(where: { $0.property == .matrix }) {
            var t: [Float] = [], r: [Float] = [], s: [Float] = []
            var previous = FBXEuler.degrees(rest.rotation)
            for k in matrix.times.indices {
                guard let m = matrix.sample(at: matrix.times[k]), m.count == 16 else { continue }
                let parts = TransformComponents(Matrix4x4(columnMajor: m.map(Double.init)))
                previous = FBXEuler.nearest(FBXEuler.degrees(parts.rotation), to: previous)
                t += parts.translation.floats; r += previous.floats; s += parts.scale.floats
            }
            let style: AnimationChannel.Interpolation = matrix.interpolation == .step ? .step : .linear
            curveNode("T", "Lcl Translation", times: matrix.times, values: t, interpolation: style, rest: rest.translation, model: model, layer: layer)
            curveNode("R", "Lcl Rotation", times: matrix.times, values: r, interpolation: style, rest: FBXEuler.degrees(rest.rotation), model: model, layer: layer)
            curveNode("S", "Lcl Scaling", times: matrix.times, values: s, interpolation: style, rest: rest.scale, model: model, layer: layer)
            return
        }
        for channel in channels {
            switch channel.property {
            case .translation:
                curveNode("T", "Lcl Translation", times: channel.times, values: channel.values, interpolation: channel.interpolation,
                          rest: rest.translation, model: model, layer: layer)
            case .scale:
                curveNode("S", "Lcl Scaling", times: channel.times, values: channel.values, interpolation: channel.interpolation,
                          rest: rest.scale, model: model, layer: layer)
            case .rotation:
                let times = rotationSampleTimes(channel)
                var values: [Float] = []
                values.reserveCapacity(times.count * 3)
                var previous = FBXEuler.degrees(rest.rotation)
                for t in times {
                    guard let q = channel.sample(at: t), q.count == 4 else { continue }
                    let rotation = Quaternion(real: Double(q[3]), imaginary: SIMD3(Double(q[0]), Double(q[1]), Double(q[2]))).normalized
                    previous = FBXEuler.nearest(FBXEuler.degrees(rotation), to: previous)
                    values += previous.floats
                }
                curveNode("R", "Lcl Rotation", times: times, values: values, interpolation: channel.interpolation == .step ? .step : .linear,
                          rest: FBXEuler.degrees(rest.rotation), model: model, layer: layer)
            default:
                break
            }
        }
    }

    /// Every key, and between keys the frames of the scene's rate (30 when it has none): Euler
    /// angles keyed linearly follow a quaternion's turn between them closely only at that spacing.
    private func rotationSampleTimes(_ channel: AnimationChannel) -> [Double] {
        guard channel.interpolation != .step, let first = channel.times.first, let last = channel.times.last, last > first else { return channel.times }
        let rate = scene.metadata.timeCodesPerSecond ?? 30
        var times: [Double] = []
        for k in channel.times.indices {
            let t0 = channel.times[k]
            times.append(t0)
            guard k + 1 < channel.times.count else { break }
            let t1 = channel.times[k + 1]
            var frame = (t0 * rate).rounded(.down) + 1
            while frame / rate < t1 - 1e-9 {
                if frame / rate > t0 + 1e-9 { times.append(frame / rate) }
                frame += 1
            }
        }
        return times
    }

    /// A curve node with one curve per component, on the model's property.
    private mutating func curveNode(_ name: String, _ property: String, times: [Double], values: [Float], interpolation: AnimationChannel.Interpolation,
                                    rest: SIMD3<Double>, model: Int64, layer: Int64) {
        let node = newID()
        var p = FBXProperties70()
        let labels = ["d|X", "d|Y", "d|Z"]
        for c in 0..<3 { p.number(labels[c], rest[c], animated: true) }
        add(FBXRecord("AnimationCurveNode", .int64(node), FBXRecord.objectName(name, "AnimCurveNode"), .string(""), children: [p.record]),
            type: "AnimationCurveNode")
        connect(node, to: layer)
        connect(node, to: model, property: property)
        for c in 0..<3 {
            let curve = writeCurve(times: times, values: values, components: 3, component: c, interpolation: interpolation)
            connect(curve, to: node, property: labels[c])
        }
    }

    /// One curve node per blend-shape channel of the node's mesh, on its `DeformPercent`.
    private mutating func writeWeightCurves(_ channel: AnimationChannel, path: String, layer: Int64) {
        guard let mesh = meshModels.first(where: { $0.path == path })?.instance.mesh, let channels = blendChannelsOf[mesh] else { return }
        let n = channel.property.components
        guard n == channels.count else {
            diagnostics.append(.warning("node \(path): its weights animation keys \(n) shapes, its mesh has \(channels.count); left out"))
            return
        }
        guard !animatedChannels.contains(channels.first ?? -1) else { return }  // a mesh shown twice keys its channels once
        for (s, target) in channels.enumerated() {
            let node = newID()
            var p = FBXProperties70()
            p.number("d|DeformPercent", 0, animated: true)
            add(FBXRecord("AnimationCurveNode", .int64(node), FBXRecord.objectName("DeformPercent", "AnimCurveNode"), .string(""), children: [p.record]),
                type: "AnimationCurveNode")
            connect(node, to: layer)
            connect(node, to: target, property: "DeformPercent")
            let curve = writeCurve(times: channel.times, values: channel.values, components: n, component: s, interpolation: channel.interpolation,
                                   scale: 100)
            connect(curve, to: node, property: "d|DeformPercent")
        }
        animatedChannels.insert(channels.first ?? -1)
    }

    /// An `AnimationCurve` of one component of interleaved keys (cubic keys as in-tangent, value,
    /// out-tangent, as the model stores them). Key attributes: FBX's interpolation flags (constant
    /// 0x2, linear 0x4, cubic 0x8 with user, broken tangents 0x400 | 0x800), and for cubic keys the
    /// right slope and the next key's left slope, per second as the model's tangents are.
    private mutating func writeCurve(times: [Double], values: [Float], components n: Int, component c: Int,
                                     interpolation: AnimationChannel.Interpolation, scale: Float = 1) -> Int64 {
        let id = newID()
        let stride = interpolation == .cubic ? 3 * n : n
        let keys = min(times.count, values.count / max(stride, 1))
        let valueOffset = interpolation == .cubic ? n : 0
        var keyTimes = [Int64](repeating: 0, count: keys), keyValues = [Float](repeating: 0, count: keys)
        for k in 0..<keys {
            keyTimes[k] = FBXTime.ticks(times[k])
            keyValues[k] = values[k * stride + valueOffset + c] * scale
        }
        var flags: [Int32] = [], data: [Float] = [], refCounts: [Int32] = []
        switch interpolation {
        case .step, .linear:
            flags = [interpolation == .step ? 0x2 : 0x4]
            data = [0, 0, 0, 0]
            refCounts = [Int32(keys)]
        case .cubic:
            for k in 0..<keys {
                let right = values[k * stride + 2 * n + c] * scale
                let nextLeft = k + 1 < keys ? values[(k + 1) * stride + c] * scale : 0
                flags.append(0x8 | 0x400 | 0x800)
                data += [right, nextLeft, 0, 0]
                refCounts.append(1)
            }
        }
        add(FBXRecord("AnimationCurve", .int64(id), FBXRecord.objectName("", "AnimCurve"), .string(""), children: [
            FBXRecord("Default", .double(Double(keyValues.first ?? 0))), FBXRecord("KeyVer", .int32(4008)),
            FBXRecord("KeyTime", .int64s(keyTimes)), FBXRecord("KeyValueFloat", .floats(keyValues)),
            FBXRecord("KeyAttrFlags", .int32s(flags)), FBXRecord("KeyAttrDataFloat", .floats(data)),
            FBXRecord("KeyAttrRefCount", .int32s(refCounts)),
        ]), type: "AnimationCurve")
        return id
    }
}

extension SIMD3 where Scalar == Double {
    var floats: [Float] { [Float(x), Float(y), Float(z)] }
}

import AssetCore

/// Channels on a `<light>`'s colour (`light/color`, `light/color.R`, `light/color(0)`: the colour
/// element's sid, which exporters name `color`) as light animation. The light's other parameters
/// (attenuation, falloff) have no place in the light model; the caller names those in a warning.
struct ColladaLightAnimation {
    struct Driven {
        var light: String
        /// One component of the colour; nil for the whole colour.
        var component: Int?
        var curve: ColladaAnimationCurve
        /// The channel's `target` as written, for warnings.
        var written: String
    }

    /// The light and colour component `target` addresses; nil when it names no light's colour.
    static func target(_ target: String, in document: ColladaDocument) -> (light: String, component: Int?)? {
        // The same target syntax as a node's transform: the light's id, then the colour's sid and member.
        guard target.split(separator: "/").count == 2, let parsed = ColladaTarget(target), document.lights[parsed.nodeID] != nil,
              parsed.sid == "color" else { return nil }
        guard let components = parsed.components else { return (parsed.nodeID, nil) }
        guard components.count == 1, (0..<3).contains(components[0]) else { return nil }
        return (parsed.nodeID, components[0])
    }

    /// One colour channel per animated light a node places, sampled at the union of its curves'
    /// times (Bézier spans subdivided); curves that all hold (STEP) stay step keys. `lightIndex`
    /// maps Collada light ids to scene lights.
    static func channels(_ driven: [Driven], document: ColladaDocument, lightIndex: [String: Int], window: ClosedRange<Double>?,
                         diagnostics: inout [Diagnostic]) -> [LightAnimationChannel] {
        var byLight: [String: [Driven]] = [:]
        for d in driven { byLight[d.light, default: []].append(d) }
        var result: [LightAnimationChannel] = []
        for (id, drivers) in byLight.sorted(by: { $0.key < $1.key }) {
            guard let light = document.lights[id] else { continue }
            guard let index = lightIndex[id] else {
                let named = drivers.map(\.written).joined(separator: ", ")
                diagnostics.append(.warning("light #\(id) is animated (\(named)) but no node places it; its channels are ignored"))
                continue
            }
            let holds = drivers.allSatisfy { d in !d.curve.interpolations.isEmpty && d.curve.interpolations.allSatisfy { $0 == "STEP" } }
            var times = ColladaAnimationBuilder.times(drivers.map { ($0.curve, true) }, within: window)
            if holds {
                let keys = Set(drivers.flatMap(\.curve.times))
                let ends: Set<Double> = window.map { [$0.lowerBound, $0.upperBound] } ?? []
                times = times.filter { keys.contains($0) || ends.contains($0) }
            }
            var values: [Float] = []
            values.reserveCapacity(times.count * 3)
            for time in times {
                var colour = SIMD3<Double>(Double(light.color.x), Double(light.color.y), Double(light.color.z))
                for d in drivers {
                    let numbers = d.curve.value(at: time)
                    if let c = d.component { colour[c] = numbers.first ?? colour[c] }
                    else { for c in 0..<min(3, numbers.count) { colour[c] = numbers[c] } }
                }
                values += [Float(colour.x), Float(colour.y), Float(colour.z)]
            }
            result.append(LightAnimationChannel(light: index, input: .color, interpolation: holds ? .step : .linear, times: times, values: values))
        }
        return result
    }
}

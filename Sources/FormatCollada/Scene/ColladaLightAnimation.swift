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
        let parts = target.split(separator: "/").map(String.init)
        guard parts.count == 2, document.lights[parts[0]] != nil else { return nil }
        var last = parts[1]
        var component: Int?
        if let open = last.firstIndex(of: "("), last.hasSuffix(")") {
            guard let n = Int(last[last.index(after: open)..<last.index(before: last.endIndex)]), (0..<3).contains(n) else { return nil }
            component = n
            last = String(last[..<open])
        } else if let dot = last.lastIndex(of: ".") {
            guard let n = ["R": 0, "G": 1, "B": 2, "X": 0, "Y": 1, "Z": 2][last[last.index(after: dot)...].uppercased()] else { return nil }
            component = n
            last = String(last[..<dot])
        }
        return last == "color" ? (parts[0], component) : nil
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

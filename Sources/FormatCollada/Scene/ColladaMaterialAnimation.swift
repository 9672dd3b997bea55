import AssetCore

/// Channels on profile_COMMON effect parameters (`effect/common/diffuse-color`, `effect/transparency`,
/// `effect/common/diffuse-color.A`, a `<newparam>`'s sid) as material animation: diffuse (emission
/// under constant shading) drives base colour, emission drives emissive, transparent and transparency
/// drive opacity through the effect's opaque mode, shininess drives roughness. Parameters the material
/// model has no input for (specular, ambient, reflective, index of refraction) are named in a warning.
struct ColladaMaterialAnimation {
    /// What a channel target addresses inside an effect.
    struct Target {
        var effect: String
        /// The technique channel (`diffuse`, `transparency`, ...).
        var parameter: String
        /// One component of a colour (`.R`, `(3)`); nil for the whole value.
        var component: Int?
    }

    struct Driven {
        var target: Target
        var curve: ColladaAnimationCurve
        /// The channel's `target` as written, for warnings.
        var written: String
    }

    static let parameters: Set<String> = ["emission", "ambient", "diffuse", "specular", "shininess", "reflective", "reflectivity",
                                          "transparent", "transparency", "index_of_refraction"]

    /// The effect parameter `target` addresses: its first part is an effect (or a material, meaning
    /// its effect), its last a sid the effect holds (or a parameter's own name), with an optional member.
    static func target(_ target: String, in document: ColladaDocument) -> Target? {
        let parts = target.split(separator: "/").map(String.init)
        guard parts.count >= 2 else { return nil }
        let effectID = document.effects[parts[0]] != nil ? parts[0] : document.materials[parts[0]]?.effect
        guard let effectID, let effect = document.effects[effectID] else { return nil }
        var last = parts[parts.count - 1]
        var component: Int?
        if let open = last.firstIndex(of: "("), last.hasSuffix(")") {
            guard let n = Int(last[last.index(after: open)..<last.index(before: last.endIndex)]), (0..<4).contains(n) else { return nil }
            component = n
            last = String(last[..<open])
        } else if let dot = last.lastIndex(of: ".") {
            let member = last[last.index(after: dot)...].uppercased()
            guard let n = ["R": 0, "G": 1, "B": 2, "A": 3, "X": 0, "Y": 1, "Z": 2, "W": 3][member] else { return nil }
            component = n
            last = String(last[..<dot])
        }
        let parameter = effect.sids[last].flatMap { $0.isEmpty ? nil : $0 } ?? (parameters.contains(last) ? last : nil)
        return parameter.map { Target(effect: effectID, parameter: $0, component: component) }
    }

    /// Material channels for every scene material whose Collada material uses an animated effect,
    /// sampled at the union of the driving curves' times. `materialIndex` maps Collada material ids
    /// to scene materials (those some mesh binds).
    static func channels(_ driven: [Driven], document: ColladaDocument, materialIndex: [String: Int], window: ClosedRange<Double>?,
                         scene: inout Scene, diagnostics: inout [Diagnostic]) -> [MaterialAnimationChannel] {
        var byEffect: [String: [Driven]] = [:]
        for d in driven { byEffect[d.target.effect, default: []].append(d) }
        var result: [MaterialAnimationChannel] = []
        for (effectID, parts) in byEffect.sorted(by: { $0.key < $1.key }) {
            guard let effect = document.effects[effectID] else { continue }
            let here = document.location(line: effect.line, element: "effect[@id=\(effectID)]")
            let users = document.materials.values.filter { $0.effect == effectID }.compactMap { materialIndex[$0.id] }.sorted()
            guard !users.isEmpty else {
                diagnostics.append(.warning("effect #\(effectID) is animated but no mesh binds a material that uses it; its channels are ignored", at: here))
                continue
            }
            let held: Set<String> = ["diffuse", "emission", "transparent", "transparency", "shininess"]
            let unheld = parts.filter { !held.contains($0.target.parameter) }
            if !unheld.isEmpty {
                let named = unheld.map { "\($0.written) (\($0.target.parameter))" }
                diagnostics.append(.warning("effect #\(effectID): channels \(named.joined(separator: ", ")) animate parameters the material model has no input for; ignored", at: here))
            }
            let constant = effect.shading == "constant"
            let inputs: [(MaterialAnimationChannel.Input, [String])] = [
                (.baseColor, [constant ? "emission" : "diffuse"]), (.emissive, ["emission"]),
                (.opacity, ["transparent", "transparency"]), (.roughness, ["shininess"]),
            ]
            for (input, parameters) in inputs {
                let drivers = parts.filter { parameters.contains($0.target.parameter) }
                guard !drivers.isEmpty else { continue }
                // Curves that all hold (STEP) stay step keys; others are sampled into linear ones.
                let holds = drivers.allSatisfy { d in !d.curve.interpolations.isEmpty && d.curve.interpolations.allSatisfy { $0 == "STEP" } }
                var times = ColladaAnimationBuilder.times(drivers.map { ($0.curve, input != .roughness) }, within: window)
                if holds {
                    let keys = Set(drivers.flatMap(\.curve.times))
                    let ends: Set<Double> = window.map { [$0.lowerBound, $0.upperBound] } ?? []
                    times = times.filter { keys.contains($0) || ends.contains($0) }
                }
                var values: [Float] = []
                values.reserveCapacity(times.count * input.components)
                for time in times {
                    func sampled(_ parameter: String) -> SIMD4<Double>? {
                        var value: SIMD4<Double>?
                        if case .color(let c)? = effect.channels[parameter] { value = c }
                        else if let v = effect.values[parameter] { value = SIMD4(repeating: v) }
                        for d in drivers where d.target.parameter == parameter {
                            let numbers = d.curve.value(at: time)
                            var v = value ?? (parameter == "emission" ? SIMD4(0, 0, 0, 1) : SIMD4(1, 1, 1, 1))
                            if let c = d.target.component { v[c] = numbers.first ?? v[c] }
                            else if numbers.count == 1 { v = SIMD4(repeating: numbers[0]) }
                            else { for c in 0..<min(4, numbers.count) { v[c] = numbers[c] } }
                            value = v
                        }
                        return value
                    }
                    switch input {
                    case .baseColor, .emissive:
                        let c = sampled(parameters[0]) ?? SIMD4(0, 0, 0, 1)
                        values += [Float(c.x), Float(c.y), Float(c.z)]
                    case .opacity:
                        let transparent = sampled("transparent")
                        values.append(effect.opacity(transparent: transparent, transparency: sampled("transparency")?.x))
                    case .roughness:
                        values.append(effect.roughness(shininess: sampled("shininess")?.x))
                    case .metallic:
                        break
                    }
                }
                for material in users {
                    result.append(MaterialAnimationChannel(material: material, input: input, interpolation: holds ? .step : .linear, times: times, values: values))
                    // A material that fades must blend, though at rest it may be opaque.
                    if input == .opacity, values.contains(where: { $0 < 1 }), scene.materials[material].alphaMode == .opaque {
                        scene.materials[material].alphaMode = .blend
                    }
                }
            }
        }
        return result
    }
}

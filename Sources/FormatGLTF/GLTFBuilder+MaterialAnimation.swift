import AssetCore

/// Material channels as KHR_animation_pointer channels on the material's factors: base colour and
/// opacity share `baseColorFactor` (one channel, since a pointer is animated once per animation),
/// emission is `emissiveFactor`, metallic and roughness their factors. A textured input is left
/// out with a warning: glTF multiplies the texture by its factor, where the scene's constant is
/// only the texture's fallback.
extension GLTFBuilder {
    mutating func materialPointerChannels(_ clip: AnimationClip, into animation: inout GLTFDocument.Animation) {
        var byMaterial: [Int: [MaterialAnimationChannel]] = [:]
        for channel in clip.materialChannels where !channel.times.isEmpty && scene.materials.indices.contains(channel.material) {
            byMaterial[channel.material, default: []].append(channel)
        }
        for (index, channels) in byMaterial.sorted(by: { $0.key < $1.key }) {
            let material = scene.materials[index].metallicRoughnessEquivalent
            var textured: [String] = []
            func untextured(_ input: MaterialAnimationChannel.Input) -> MaterialAnimationChannel? {
                guard let channel = channels.first(where: { $0.input == input }) else { return nil }
                // glTF's alpha rides in the base colour factor, which a base colour texture scales too.
                let texture = material.texture(of: input) ?? (input == .opacity ? material.baseColor.texture : nil)
                if texture != nil { textured.append(input.rawValue) }
                return texture == nil ? channel : nil
            }
            let base = "/materials/\(index)"
            let colour = untextured(.baseColor), opacity = untextured(.opacity)
            if colour != nil || opacity != nil {
                let parts = [colour, opacity].compactMap { $0 }
                let (times, interpolation) = Self.sharedKeys(parts)
                var values: [Float] = []
                for t in times {
                    let c = colour?.sample(at: t) ?? material.animatedValue(.baseColor)
                    let a = opacity?.sample(at: t) ?? material.animatedValue(.opacity)
                    values += c + a
                }
                addPointerChannel(base + "/pbrMetallicRoughness/baseColorFactor", times: times, values: values, type: "VEC4",
                                  interpolation: interpolation, into: &animation)
            }
            if let emissive = untextured(.emissive) {
                // The rest value's KHR_materials_emissive_strength (the factor was divided by it) applies to the keys too.
                let rest = material.emissive.value
                let strength = max(1, rest.x, rest.y, rest.z)
                var values = emissive.values.map { $0 / strength }
                if values.contains(where: { $0 > 1 }) {
                    diagnostics.append(.warning("material \(material.name): animated emission above \(strength) is clamped to emissiveFactor's 1"))
                    values = values.map { min($0, 1) }
                }
                addPointerChannel(base + "/emissiveFactor", times: emissive.times, values: values, type: "VEC3",
                                  interpolation: emissive.interpolation, into: &animation)
            }
            for (input, factor) in [(MaterialAnimationChannel.Input.metallic, "metallicFactor"), (.roughness, "roughnessFactor")] {
                guard let channel = untextured(input) else { continue }
                addPointerChannel(base + "/pbrMetallicRoughness/" + factor, times: channel.times, values: channel.values, type: "SCALAR",
                                  interpolation: channel.interpolation, into: &animation)
            }
            if !textured.isEmpty {
                diagnostics.append(.warning("material \(material.name): \(textured.joined(separator: ", ")) is animated and textured; glTF's factor would scale the texture, so the animation is left out"))
            }
        }
    }

    /// Keys at which the merged channel is sampled: the parts' own where they share times and a
    /// step or linear interpolation, else linear keys that follow each (samples carry no tangents).
    private static func sharedKeys(_ parts: [MaterialAnimationChannel]) -> ([Double], AnimationChannel.Interpolation) {
        let first = parts[0]
        if parts.allSatisfy({ $0.times == first.times && $0.interpolation == first.interpolation && $0.interpolation != .cubic }) {
            return (first.times, first.interpolation)
        }
        return (Array(Set(parts.flatMap { $0.linearSampleTimes() })).sorted(), .linear)
    }

    mutating func addPointerChannel(_ pointer: String, times: [Double], values: [Float], type: String,
                                            interpolation: AnimationChannel.Interpolation, into animation: inout GLTFDocument.Animation) {
        let mode = ["step": "STEP", "linear": "LINEAR", "cubic": "CUBICSPLINE"][interpolation.rawValue]!
        let perKey = Self.width(type) * (interpolation == .cubic ? 3 : 1)
        guard !times.isEmpty, values.count == times.count * perKey else { return }
        let input = addFloats(times.map(Float.init), type: "SCALAR", count: times.count, bounds: true)
        let output = addFloats(values, type: type, count: values.count / Self.width(type))
        for view in [document.accessors[input].bufferView, document.accessors[output].bufferView].compactMap({ $0 }) { document.bufferViews[view].target = nil }
        animation.samplers.append(.init(input: input, interpolation: mode, output: output))
        animation.channels.append(.init(sampler: animation.samplers.count - 1, target: .init(pointer: pointer)))
        if document.extensionsUsed?.contains("KHR_animation_pointer") != true {
            document.extensionsUsed = (document.extensionsUsed ?? []) + ["KHR_animation_pointer"]
        }
    }
}

import AssetCore

/// UsdLux lights, with their animated colour and intensity as time samples (the default stays
/// the rest value, which readers that take no time see).
extension USDLayerBuilder {
    func lightPrim(_ index: Int, name: String) -> USDPrimSpec {
        let light = scene.lights[index]
        let type: String
        switch light.kind {
        case .directional: type = "DistantLight"
        case .ambient: type = "DomeLight"
        case .point, .spot: type = "SphereLight"
        }
        var prim = USDPrimSpec(specifier: .def, typeName: type, name: name, line: 0)
        var color = USDPropertySpec.attribute("inputs:color", "color3f", .floats(light.color))
        var intensity = USDPropertySpec.attribute("inputs:intensity", "float", .number(Double(light.intensity)))
        for channel in scene.animations.first?.lightChannels ?? [] where channel.light == index && !channel.times.isEmpty {
            // Step and cubic keys are written as the linear samples that follow them (USD interpolates linearly).
            let times = channel.interpolation == .linear ? channel.times : channel.linearSampleTimes()
            let samples: [(time: Double, value: USDValue)] = times.compactMap { t in
                guard let v = channel.sample(at: t), v.count == channel.input.components else { return nil }
                return (timeCode(t), channel.input == .color ? .floats(SIMD3(v[0], v[1], v[2])) : .number(Double(v[0])))
            }
            switch channel.input {
            case .color: color.timeSamples = samples
            case .intensity: intensity.timeSamples = samples
            }
        }
        prim.properties = [color, intensity]
        return prim
    }
}

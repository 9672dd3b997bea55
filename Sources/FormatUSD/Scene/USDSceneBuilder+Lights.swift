import AssetCore

/// UsdLux lights: colour and intensity at rest, and their time samples as light animation.
extension USDSceneBuilder {
    func light(_ prim: USDComposedPrim, kind: Light.Kind) -> Light {
        var light = Light(name: prim.name, kind: kind)
        if let c = values.numbers(lightAttribute(prim, "color")), c.count == 3 {
            light.color = SIMD3(Float(c[0]), Float(c[1]), Float(c[2]))
        }
        if let i = values.double(lightAttribute(prim, "intensity")) { light.intensity = Float(i) }
        return light
    }

    /// UsdLux attributes carry the `inputs:` prefix since 21.02; older files omit it.
    private func lightAttribute(_ prim: USDComposedPrim, _ name: String) -> USDComposedProperty? {
        prim.attribute("inputs:" + name) ?? prim.attribute(name)
    }

    /// Channels for a light's colour and intensity when they hold more than one time sample. A
    /// sample that is not the input's finite numbers leaves that input's animation out, with a warning.
    mutating func animatedInputs(ofLight prim: USDComposedPrim, index: Int) -> [LightAnimationChannel] {
        let rate = Self.timeCodesPerSecond(stage.rootLayer)
        var channels: [LightAnimationChannel] = []
        for input in LightAnimationChannel.Input.allCases {
            guard let property = lightAttribute(prim, input.rawValue), let samples = property.spec.timeSamples, samples.count > 1 else { continue }
            var times: [Double] = [], values: [Float] = []
            for sample in samples {
                guard sample.time.isFinite, let numbers = sample.value.flatNumbers, numbers.count == input.components, numbers.allSatisfy(\.isFinite) else {
                    times = []
                    break
                }
                times.append(sample.time / rate)
                values += numbers.map(Float.init)
            }
            guard !times.isEmpty else {
                diagnostics.append(.warning("light \(prim.name): \(property.spec.name) has a time sample that is not \(input.components) finite numbers; its animation is ignored",
                                            at: prim.location))
                continue
            }
            channels.append(LightAnimationChannel(light: index, input: input, times: times, values: values))
        }
        return channels
    }
}

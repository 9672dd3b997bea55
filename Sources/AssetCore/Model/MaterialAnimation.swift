/// Keys that drive one input of one material over time: Collada's animated effect colours and
/// transparency, time-sampled UsdPreviewSurface inputs, glTF `KHR_animation_pointer` on material
/// factors. Values are flat Floats, `input.components` per key (three sets per key when cubic, as
/// `AnimationChannel` stores them).
public struct MaterialAnimationChannel: ElementWiseChannel, Sendable, Equatable {
    /// Index into `Scene.materials`.
    public var material: Int
    public var input: Input
    public var interpolation: AnimationChannel.Interpolation
    /// Key times in seconds, ascending.
    public var times: [Double]
    public var values: [Float]

    public init(material: Int, input: Input, interpolation: AnimationChannel.Interpolation = .linear, times: [Double], values: [Float]) {
        self.material = material
        self.input = input
        self.interpolation = interpolation
        self.times = times
        self.values = values
    }

    /// The material constants that formats animate. A texture on the same input is not animated:
    /// the constant is its fallback (USD) or its factor (glTF).
    public enum Input: String, Sendable, Hashable, CaseIterable {
        case baseColor
        case emissive
        case opacity
        case metallic
        case roughness

        public var components: Int {
            switch self {
            case .baseColor, .emissive: 3
            case .opacity, .metallic, .roughness: 1
            }
        }
    }

    public var width: Int { input.components }
}

extension Material {
    /// The constant an animated input holds (what a channel's keys replace), as the channel lays it out.
    public func animatedValue(_ input: MaterialAnimationChannel.Input) -> [Float] {
        switch input {
        case .baseColor: [baseColor.value.x, baseColor.value.y, baseColor.value.z]
        case .emissive: [emissive.value.x, emissive.value.y, emissive.value.z]
        case .opacity: [opacity.value]
        case .metallic: [metallic.value]
        case .roughness: [roughness.value]
        }
    }

    /// The texture that drives an animatable input, if one does (its constant is then a fallback).
    public func texture(of input: MaterialAnimationChannel.Input) -> TextureReference? {
        switch input {
        case .baseColor: baseColor.texture
        case .emissive: emissive.texture
        case .opacity: opacity.texture
        case .metallic: metallic.texture
        case .roughness: roughness.texture
        }
    }

    /// Sets an animated input's constant from a channel's sample.
    public mutating func setAnimatedValue(_ input: MaterialAnimationChannel.Input, _ value: [Float]) {
        guard value.count >= input.components else { return }
        switch input {
        case .baseColor: baseColor.value = SIMD3(value[0], value[1], value[2])
        case .emissive: emissive.value = SIMD3(value[0], value[1], value[2])
        case .opacity: opacity.value = value[0]
        case .metallic: metallic.value = value[0]
        case .roughness: roughness.value = value[0]
        }
    }
}

/// Keys that drive one input of a light: a Collada `<light>`'s `color` (whole, or `.R`, `.G`, `.B`),
/// a UsdLux light's time-sampled `inputs:color` or `inputs:intensity`.
public struct LightAnimationChannel: ElementWiseChannel, Sendable, Equatable {
    /// Index into `Scene.lights`.
    public var light: Int
    public var input: Input
    public var interpolation: AnimationChannel.Interpolation
    /// Key times in seconds, ascending.
    public var times: [Double]
    public var values: [Float]

    public init(light: Int, input: Input, interpolation: AnimationChannel.Interpolation = .linear, times: [Double], values: [Float]) {
        self.light = light
        self.input = input
        self.interpolation = interpolation
        self.times = times
        self.values = values
    }

    public enum Input: String, Sendable, Hashable, CaseIterable {
        case color
        case intensity

        public var components: Int {
            switch self {
            case .color: 3
            case .intensity: 1
            }
        }
    }

    public var width: Int { input.components }
}

extension Light {
    /// The constant an animated input holds (what a channel's keys replace), as the channel lays it out.
    public func animatedValue(_ input: LightAnimationChannel.Input) -> [Float] {
        switch input {
        case .color: [color.x, color.y, color.z]
        case .intensity: [intensity]
        }
    }

    /// Sets an animated input from a channel's sample.
    public mutating func setAnimatedValue(_ input: LightAnimationChannel.Input, _ value: [Float]) {
        guard value.count >= input.components else { return }
        switch input {
        case .color: color = SIMD3(value[0], value[1], value[2])
        case .intensity: intensity = value[0]
        }
    }
}

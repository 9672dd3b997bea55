/// A named set of channels that play together: a glTF animation, a Collada `<animation_clip>` (or
/// all of a file's `<animation>`s), a USD stage's time samples (one clip per stage).
public struct AnimationClip: Sendable, Equatable {
    public var name: String
    public var channels: [AnimationChannel]
    /// Material inputs the clip animates (colours, opacity), beside the node channels.
    public var materialChannels: [MaterialAnimationChannel] = []
    /// Light inputs the clip animates (colour, intensity).
    public var lightChannels: [LightAnimationChannel] = []

    public init(name: String, channels: [AnimationChannel] = [], materialChannels: [MaterialAnimationChannel] = [],
                lightChannels: [LightAnimationChannel] = []) {
        self.name = name
        self.channels = channels
        self.materialChannels = materialChannels
        self.lightChannels = lightChannels
    }

    /// First and last key time over all channels, in seconds; nil when no channel has keys.
    public var timeRange: ClosedRange<Double>? {
        var lower = Double.infinity, upper = -Double.infinity
        func include(_ times: [Double]) {
            guard let first = times.first, let last = times.last else { return }
            lower = Swift.min(lower, first)
            upper = Swift.max(upper, last)
        }
        for channel in channels { include(channel.times) }
        for channel in materialChannels { include(channel.times) }
        for channel in lightChannels { include(channel.times) }
        return lower <= upper ? lower...upper : nil
    }
}

/// Keys that drive one property of one node over time.
///
/// Values are flat Floats, `components` per key (translation and scale 3, rotation 4 as x y z w,
/// matrix 16 column-major, blend-shape weights one per shape of the node's mesh, points 3 per point). Cubic channels store
/// three values per key as glTF's CUBICSPLINE does: in-tangent, value, out-tangent.
public struct AnimationChannel: Sendable, Equatable {
    public var nodePath: String
    public var property: Property
    public var interpolation: Interpolation
    /// Key times in seconds, ascending.
    public var times: [Double]
    public var values: [Float]

    public init(nodePath: String, property: Property, interpolation: Interpolation = .linear, times: [Double], values: [Float]) {
        self.nodePath = nodePath
        self.property = property
        self.interpolation = interpolation
        self.times = times
        self.values = values
    }

    public enum Property: Sendable, Hashable {
        case translation
        case rotation
        case scale
        /// The whole local transform (Collada `matrix` targets, USD op stacks sampled whole).
        case matrix
        case blendShapeWeights(count: Int)
        /// Every point of the node's mesh (USD's time-sampled `points`, a point cache): x y z each.
        case points(count: Int)

        public var components: Int {
            switch self {
            case .translation, .scale: 3
            case .rotation: 4
            case .matrix: 16
            case .blendShapeWeights(let count): count
            case .points(let count): 3 * count
            }
        }

        /// Whether the channel moves its node (rather than deforming its mesh).
        public var isTransform: Bool {
            switch self {
            case .translation, .rotation, .scale, .matrix: true
            case .blendShapeWeights, .points: false
            }
        }

        public var name: String {
            switch self {
            case .translation: "translation"
            case .rotation: "rotation"
            case .scale: "scale"
            case .matrix: "matrix"
            case .blendShapeWeights: "weights"
            case .points: "points"
            }
        }
    }

    public enum Interpolation: String, Sendable, Hashable {
        case step
        case linear
        /// Hermite with per-key tangents (glTF CUBICSPLINE, Collada BEZIER converted to Hermite).
        case cubic
    }

    /// Values stored per key: three sets for cubic channels, one otherwise.
    public var valuesPerKey: Int { property.components * (interpolation == .cubic ? 3 : 1) }
}

/// Keys of a material or light input: `width` numbers a key (three sets a key when cubic, as
/// `AnimationChannel` stores them), blended number by number.
public protocol ElementWiseChannel {
    var interpolation: AnimationChannel.Interpolation { get }
    /// Key times in seconds, ascending.
    var times: [Double] { get }
    var values: [Float] { get }
    /// Numbers a key holds.
    var width: Int { get }
}

extension ElementWiseChannel {
    /// The input's value at `time` seconds; nil when the channel has no keys or too few values.
    public func sample(at time: Double) -> [Float]? { elementWise.sample(at: time) }

    /// Times at which linear keys follow the channel (its keys, and points inside cubic spans).
    public func linearSampleTimes() -> [Double] { elementWise.linearSampleTimes().sorted() }

    /// Blend-shape weights are the node property sampled number by number, so the node sampler does
    /// the work (one place for the step, linear and Hermite rules).
    private var elementWise: AnimationChannel {
        AnimationChannel(nodePath: "", property: .blendShapeWeights(count: width), interpolation: interpolation, times: times, values: values)
    }
}

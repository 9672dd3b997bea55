/// Several animation clips laid end to end on one timeline, for a format that plays one animation
/// per file (a USD stage has one time axis, which AR Quick Look plays from start to end). Each clip
/// keeps its keys, shifted to begin a `gap` after the previous one ends; the spans say where each
/// clip lies, so a reader that knows them (assetc's USD reader, through the layer's
/// `customLayerData`) splits the timeline back into the clips, and one that does not plays them
/// one after another.
public struct ClipTimeline: Sendable, Equatable {
    public struct Span: Sendable, Equatable {
        public var name: String
        /// Seconds on the shared timeline.
        public var start: Double
        public var end: Double
        /// Where the clip began in its source, in seconds: a split gives the keys their times back.
        public var sourceStart: Double

        public init(name: String, start: Double, end: Double, sourceStart: Double) {
            self.name = name
            self.start = start
            self.end = end
            self.sourceStart = sourceStart
        }
    }

    public var spans: [Span]

    public init(spans: [Span]) { self.spans = spans }

    /// The clips with keys as one clip named after the first, and where each lies in it. A node
    /// property keyed in several clips becomes one channel through all of them: with one
    /// interpolation where they share it, else resampled to linear keys that follow each. Over
    /// the span of a clip that does not key it, the channel holds its `rest` value (three equal keys:
    /// the span's start, middle and end), so each clip plays as it would alone; `split` leaves such
    /// holds out. (Three, because a clip's own single key held out to its span's ends makes two.)
    ///
    /// Material and light channels are laid out the same way, holding the material's or light's
    /// constant (`materials`, `lights`) where a clip does not key them.
    public static func laidEndToEnd(_ clips: [AnimationClip], gap: Double = 1, materials: [Material] = [], lights: [Light] = [],
                                    rest: (AnimationChannel) -> [Float]? = { _ in nil }) -> (clip: AnimationClip, timeline: ClipTimeline) {
        var spans: [Span] = []
        var shifted: [[AnimationChannel]] = []
        var cursor: Double?
        for clip in clips {
            guard let range = clip.timeRange else { continue }
            let start = cursor.map { $0 + gap } ?? range.lowerBound
            let shift = start - range.lowerBound
            spans.append(Span(name: clip.name, start: start, end: range.upperBound + shift, sourceStart: range.lowerBound))
            shifted.append((clip.channels + ParameterKey.carriers(clip)).map { channel in
                var moved = channel
                moved.times = channel.times.map { $0 + shift }
                return moved
            })
            cursor = range.upperBound + shift
        }
        var order: [String] = []
        var byKey: [String: [Int: AnimationChannel]] = [:]
        for (s, channels) in shifted.enumerated() {
            for channel in channels {
                let key = channel.nodePath + "|" + channel.property.name + "|\(channel.property.components)"
                if byKey[key] == nil { order.append(key) }
                byKey[key, default: [:]][s] = channel
            }
        }
        let merged = order.map { key -> AnimationChannel in
            let parts = byKey[key]!
            let example = parts.values.first!
            var pieces: [AnimationChannel] = []
            for (s, span) in spans.enumerated() {
                if let part = parts[s] { pieces.append(Self.covering(part, span)); continue }
                let held = ParameterKey(example.nodePath).map { $0.rest(materials: materials, lights: lights) } ?? rest(example)
                guard let value = held, value.count == example.property.components else { continue }
                let times = span.end > span.start ? [span.start, (span.start + span.end) / 2, span.end] : [span.start]
                pieces.append(AnimationChannel(nodePath: example.nodePath, property: example.property, interpolation: .linear,
                                               times: times, values: Array(times.map { _ in value }.joined())))
            }
            return Self.concatenated(pieces)
        }
        return (ParameterKey.separated(AnimationClip(name: clips.first?.name ?? "animation", channels: merged)), ClipTimeline(spans: spans))
    }

    /// The timeline cut back into its clips: each span's keys, at the times they had in their clip.
    /// A channel with no key in a span is not part of that clip.
    public func split(_ clip: AnimationClip) -> [AnimationClip] {
        spans.map { span in
            let slack = 1e-6 * max(1, abs(span.end))
            var channels: [AnimationChannel] = []
            for channel in clip.channels + ParameterKey.carriers(clip) {
                let n = channel.valuesPerKey
                let keys = channel.times.indices.filter { channel.times[$0] >= span.start - slack && channel.times[$0] <= span.end + slack }
                guard !keys.isEmpty, channel.values.count >= channel.times.count * n else { continue }
                if Self.isHold(channel, keys: keys, span: span, slack: slack) { continue }
                var part = channel
                part.times = keys.map { channel.times[$0] - span.start + span.sourceStart }
                part.values = keys.flatMap { channel.values[($0 * n)..<($0 * n + n)] }
                channels.append(part)
            }
            return ParameterKey.separated(AnimationClip(name: span.name, channels: channels))
        }
    }

    /// The part held at its first and last values out to the span's ends, so its clip plays over
    /// the whole span as it would alone rather than blending toward the neighbouring clip's keys.
    private static func covering(_ part: AnimationChannel, _ span: Span) -> AnimationChannel {
        guard let first = part.times.first, let last = part.times.last else { return part }
        let slack = 1e-9 * max(1, abs(span.end))
        guard first > span.start + slack || last < span.end - slack else { return part }
        // A key added beside cubic keys would bend the curve into it; linear samples follow it instead.
        var held = part.interpolation == .cubic ? linearized(part) : part
        let n = held.valuesPerKey
        if first > span.start + slack {
            held.times.insert(span.start, at: 0)
            held.values.insert(contentsOf: Array(held.values[0..<n]), at: 0)
        }
        if last < span.end - slack {
            held.times.append(span.end)
            held.values += Array(held.values[(held.values.count - n)...])
        }
        return held
    }

    /// Three equal keys at the span's start, middle and end: what `laidEndToEnd` puts where a clip
    /// does not key the channel.
    private static func isHold(_ channel: AnimationChannel, keys: [Int], span: Span, slack: Double) -> Bool {
        let expected = [span.start, (span.start + span.end) / 2, span.end]
        guard span.end > span.start, keys.count == 3, zip(keys, expected).allSatisfy({ abs(channel.times[$0] - $1) <= slack }) else { return false }
        let n = channel.valuesPerKey
        let first = channel.values[(keys[0] * n)..<(keys[0] * n + n)]
        return keys.dropFirst().allSatisfy { channel.values[($0 * n)..<($0 * n + n)].elementsEqual(first) }
    }

    /// The channel as linear keys that follow it (its own, an instant before each step, points inside cubic spans).
    private static func linearized(_ part: AnimationChannel) -> AnimationChannel {
        let times = part.linearSampleTimes().sorted()
        return AnimationChannel(nodePath: part.nodePath, property: part.property, interpolation: .linear, times: times,
                                values: times.flatMap { part.sample(at: $0) ?? [] })
    }

    private static func concatenated(_ parts: [AnimationChannel]) -> AnimationChannel {
        guard parts.count > 1 else { return parts[0] }
        var parts = parts
        if Set(parts.map(\.interpolation)).count > 1 { parts = parts.map(linearized) }
        var result = parts[0]
        for part in parts.dropFirst() {
            result.times += part.times
            result.values += part.values
        }
        return result
    }
}

/// A material or light channel carried through the timeline's node-channel machinery as a channel
/// on a path no node can have (paths never hold a NUL), blended element-wise as weights are.
private enum ParameterKey {
    case material(Int, MaterialAnimationChannel.Input)
    case light(Int, LightAnimationChannel.Input)

    private static let materialPrefix = "\u{0}material/"
    private static let lightPrefix = "\u{0}light/"

    init?(_ path: String) {
        let prefix = path.hasPrefix(Self.materialPrefix) ? Self.materialPrefix : path.hasPrefix(Self.lightPrefix) ? Self.lightPrefix : nil
        guard let prefix else { return nil }
        let parts = path.dropFirst(prefix.count).split(separator: "/")
        guard parts.count == 2, let index = Int(parts[0]) else { return nil }
        if prefix == Self.materialPrefix, let input = MaterialAnimationChannel.Input(rawValue: String(parts[1])) {
            self = .material(index, input)
        } else if prefix == Self.lightPrefix, let input = LightAnimationChannel.Input(rawValue: String(parts[1])) {
            self = .light(index, input)
        } else {
            return nil
        }
    }

    /// The value held where a clip does not key the parameter: the material's or light's constant.
    func rest(materials: [Material], lights: [Light]) -> [Float]? {
        switch self {
        case .material(let m, let input): materials.indices.contains(m) ? materials[m].animatedValue(input) : nil
        case .light(let l, let input): lights.indices.contains(l) ? lights[l].animatedValue(input) : nil
        }
    }

    static func carriers(_ clip: AnimationClip) -> [AnimationChannel] {
        clip.materialChannels.map { channel in
            AnimationChannel(nodePath: materialPrefix + "\(channel.material)/\(channel.input.rawValue)", property: .blendShapeWeights(count: channel.input.components),
                             interpolation: channel.interpolation, times: channel.times, values: channel.values)
        } + clip.lightChannels.map { channel in
            AnimationChannel(nodePath: lightPrefix + "\(channel.light)/\(channel.input.rawValue)", property: .blendShapeWeights(count: channel.input.components),
                             interpolation: channel.interpolation, times: channel.times, values: channel.values)
        }
    }

    static func separated(_ clip: AnimationClip) -> AnimationClip {
        var result = AnimationClip(name: clip.name)
        for channel in clip.channels {
            switch ParameterKey(channel.nodePath) {
            case .material(let material, let input)?:
                result.materialChannels.append(MaterialAnimationChannel(material: material, input: input, interpolation: channel.interpolation,
                                                                        times: channel.times, values: channel.values))
            case .light(let light, let input)?:
                result.lightChannels.append(LightAnimationChannel(light: light, input: input, interpolation: channel.interpolation,
                                                                  times: channel.times, values: channel.values))
            case nil:
                result.channels.append(channel)
            }
        }
        return result
    }
}

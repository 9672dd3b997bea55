import AssetCore

/// One `AnimationCurve`: key times (FBX ticks, 46,186,158,000 a second), values, and per key the
/// interpolation its KeyAttrFlags give (constant 0x2, linear 0x4, cubic 0x8) with the cubic
/// slopes of KeyAttrDataFloat (right slope, next key's left slope, in value per second), each
/// attribute entry shared by KeyAttrRefCount keys in turn.
struct FBXCurve: Sendable {
    static let ticksPerSecond = 46_186_158_000.0

    enum Interpolation: UInt8 { case constant, linear, cubic }

    var times: [Double]
    var values: [Float]
    var interpolation: [Interpolation]
    var rightSlope: [Float]
    var nextLeftSlope: [Float]

    init?(_ curve: FBXObject, diagnostics: inout [Diagnostic]) {
        guard let ticks = curve.node.value("KeyTime")?.int64s, let values = (curve.node.value("KeyValueFloat") ?? curve.node.value("KeyValueDouble"))?.doubles,
              ticks.count == values.count, !ticks.isEmpty else {
            diagnostics.append(.warning("animation curve \(curve.id) has no keys, or its KeyTime and KeyValueFloat differ in length; left out",
                                        at: curve.node.location))
            return nil
        }
        times = ticks.map { Double($0) / Self.ticksPerSecond }
        self.values = values.map(Float.init)
        let flags = curve.node.value("KeyAttrFlags")?.int32s ?? []
        let data = curve.node.value("KeyAttrDataFloat")?.doubles ?? []
        let counts = curve.node.value("KeyAttrRefCount")?.int32s ?? []
        interpolation = [Interpolation](repeating: .linear, count: ticks.count)
        rightSlope = [Float](repeating: 0, count: ticks.count)
        nextLeftSlope = [Float](repeating: 0, count: ticks.count)
        var key = 0
        for (entry, flag) in flags.enumerated() {
            let run = entry < counts.count ? max(Int(counts[entry]), 0) : ticks.count - key
            let kind: Interpolation = flag & 0x8 != 0 ? .cubic : flag & 0x2 != 0 ? .constant : .linear
            let slopes = 4 * entry + 1 < data.count ? (Float(data[4 * entry]), Float(data[4 * entry + 1])) : (0, 0)
            for _ in 0..<run where key < ticks.count {
                interpolation[key] = kind
                (rightSlope[key], nextLeftSlope[key]) = slopes
                key += 1
            }
        }
        if times.indices.dropFirst().contains(where: { times[$0] < times[$0 - 1] }) {
            diagnostics.append(.warning("animation curve \(curve.id)'s key times go backwards; left out", at: curve.node.location))
            return nil
        }
    }

    /// The value at `t` seconds: held before the first key and after the last.
    func value(at t: Double) -> Float {
        guard t > times[0] else { return values[0] }
        guard t < times[times.count - 1] else { return values[values.count - 1] }
        var low = 0, high = times.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if times[mid] <= t { low = mid } else { high = mid }
        }
        let span = times[high] - times[low]
        guard span > 0 else { return values[high] }
        let f = Float((t - times[low]) / span)
        switch interpolation[low] {
        case .constant: return values[low]
        case .linear: return values[low] + (values[high] - values[low]) * f
        case .cubic:
            let m0 = rightSlope[low] * Float(span), m1 = nextLeftSlope[low] * Float(span)
            let f2 = f * f, f3 = f2 * f
            return (2 * f3 - 3 * f2 + 1) * values[low] + (f3 - 2 * f2 + f) * m0 + (-2 * f3 + 3 * f2) * values[high] + (f3 - f2) * m1
        }
    }

    /// The key times in [start, end], with three more inside each cubic segment so the sampled
    /// channel follows the curve between keys.
    func sampleTimes(from start: Double, to end: Double) -> [Double] {
        var out: [Double] = []
        for k in times.indices where times[k] >= start && times[k] <= end {
            out.append(times[k])
            if interpolation[k] == .cubic, k + 1 < times.count {
                let span = times[k + 1] - times[k]
                for q in 1...3 where times[k] + span * Double(q) / 4 <= end { out.append(times[k] + span * Double(q) / 4) }
            }
        }
        return out
    }
}

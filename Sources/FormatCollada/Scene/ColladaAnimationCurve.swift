import AssetCore

/// One `<sampler>` as a curve: key times, values (`stride` per key) and per-key interpolation,
/// evaluated as Collada defines it: STEP holds, LINEAR blends, BEZIER follows the 2D control points
/// the in- and out-tangents give (time, value per component), HERMITE is treated as BEZIER with
/// the tangents as control points a third of the way along.
struct ColladaAnimationCurve {
    var times: [Double]
    var values: [Double]
    var stride: Int
    var interpolations: [String]
    var inTangents: [Double]?
    var outTangents: [Double]?

    var keyCount: Int { times.count }

    /// Times that, joined linearly, follow the curve: the keys, plus `subdivisions - 1` points
    /// inside every Bézier span, and an instant before each step. A LINEAR span is subdivided too
    /// when `linearIsExact` is false: the numbers blend linearly, but what they drive (an angle,
    /// an axis, a look-at target, a whole matrix) does not move linearly in the node's matrix, so
    /// the samples joined by the writers' interpolation must be close together.
    func sampleTimes(subdivisions: Int = 8, linearIsExact: Bool = true) -> [Double] {
        var out = times
        for k in 0..<max(times.count - 1, 0) {
            let span = times[k + 1] - times[k]
            guard span > 0 else { continue }
            switch interpolation(k) {
            case "BEZIER", "HERMITE":
                for s in 1..<subdivisions { out.append(times[k] + span * Double(s) / Double(subdivisions)) }
            case "LINEAR" where !linearIsExact:
                for s in 1..<subdivisions { out.append(times[k] + span * Double(s) / Double(subdivisions)) }
            case "STEP":
                out.append(times[k + 1] - min(1e-4, span / 10))
            default: break
            }
        }
        return out
    }

    func interpolation(_ k: Int) -> String { k < interpolations.count ? interpolations[k] : (interpolations.last ?? "LINEAR") }

    func value(at time: Double) -> [Double] {
        let n = stride
        func key(_ k: Int) -> ArraySlice<Double> { values[(k * n)..<(k * n + n)] }
        guard let first = times.first, time > first else { return Array(key(0)) }
        guard time < times[times.count - 1] else { return Array(key(times.count - 1)) }
        // Binary search: the curve is sampled at every key and more, so a scan would be quadratic.
        let k = times.partitionPoint { $0 <= time } - 1
        let t0 = times[k], t1 = times[k + 1]
        guard t1 > t0 else { return Array(key(k + 1)) }
        let f = (time - t0) / (t1 - t0)
        switch interpolation(k) {
        case "STEP":
            return Array(key(k))
        case "BEZIER", "HERMITE":
            if let outT = outTangents, let inT = inTangents, outT.count >= (k + 1) * 2 * n, inT.count >= (k + 2) * 2 * n {
                return (0..<n).map { c in
                    let p0 = (t0, values[k * n + c]), p1 = (t1, values[(k + 1) * n + c])
                    let c0 = (outT[(k * n + c) * 2], outT[(k * n + c) * 2 + 1])
                    let c1 = (inT[((k + 1) * n + c) * 2], inT[((k + 1) * n + c) * 2 + 1])
                    return Self.bezier(p0, c0, c1, p1, at: time)
                }
            }
            fallthrough
        default:
            return zip(key(k), key(k + 1)).map { $0 + ($1 - $0) * f }
        }
    }

    /// The value of a 2D cubic Bézier (time, value) at a time: the curve parameter is found by
    /// bisection, which always converges since exporters keep the control times inside the span.
    static func bezier(_ p0: (Double, Double), _ c0: (Double, Double), _ c1: (Double, Double), _ p1: (Double, Double), at time: Double) -> Double {
        func point(_ s: Double) -> (Double, Double) {
            let u = 1 - s
            let a = u * u * u, b = 3 * u * u * s, c = 3 * u * s * s, d = s * s * s
            return (a * p0.0 + b * c0.0 + c * c1.0 + d * p1.0, a * p0.1 + b * c0.1 + c * c1.1 + d * p1.1)
        }
        var low = 0.0, high = 1.0
        for _ in 0..<40 {
            let mid = (low + high) / 2
            if point(mid).0 < time { low = mid } else { high = mid }
        }
        return point((low + high) / 2).1
    }
}

/// A channel target, `nodeID/sid.member` or `nodeID/sid(i)(j)`: the element addressed and which
/// of its numbers the sampler's output replaces (all of them without a member).
struct ColladaTarget {
    var nodeID: String
    var sid: String
    /// Indices into the element's numbers in document order (a matrix's are row-major).
    var components: [Int]?

    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2, !parts[0].isEmpty, let last = parts.last, !last.isEmpty else { return nil }
        nodeID = String(parts[0])
        var element = String(last)
        if let open = element.firstIndex(of: "(") {
            let indices = element[open...].split(whereSeparator: { $0 == "(" || $0 == ")" }).compactMap { Int($0) }
            element = String(element[..<open])
            switch indices.count {
            case 1: components = [indices[0]]
            case 2: components = [indices[0] * 4 + indices[1]]
            default: return nil
            }
        } else if let dot = element.firstIndex(of: ".") {
            let member = element[element.index(after: dot)...]
            element = String(element[..<dot])
            switch member.uppercased() {
            case "X", "R", "S", "U": components = [0]
            case "Y", "G", "T", "V": components = [1]
            case "Z", "B", "P": components = [2]
            case "W", "A", "Q", "ANGLE": components = [3]
            default: return nil
            }
        }
        sid = element
    }
}

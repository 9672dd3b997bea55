extension AnimationChannel {
    /// The channel's value at `time` seconds, `property.components` Floats. Before the first key
    /// and after the last the end values hold, as glTF, USD and Collada players all do. Rotations
    /// are interpolated on the sphere (linear) or normalised after the spline (cubic), as glTF asks.
    /// Nil when the channel has no keys or fewer values than its keys need.
    public func sample(at time: Double) -> [Float]? {
        let n = property.components, stride = valuesPerKey
        let keys = times.count
        guard keys > 0, n > 0, values.count >= keys * stride else { return nil }
        // The value of key k starts here; cubic keys store the in-tangent first.
        let valueOffset = interpolation == .cubic ? n : 0
        func key(_ k: Int) -> ArraySlice<Float> {
            values[(k * stride + valueOffset)..<(k * stride + valueOffset + n)]
        }
        guard time > times[0] else { return Array(key(0)) }
        guard time < times[keys - 1] else { return Array(key(keys - 1)) }
        let upper = times.partitionPoint { $0 <= time }
        let lower = upper - 1
        let t0 = times[lower], t1 = times[upper]
        let span = t1 - t0
        // On a key the key itself: a matrix blended by its parts would lose a shear it holds.
        guard span > 0, interpolation != .step, time > t0 else { return Array(key(lower)) }
        let f = (time - t0) / span
        switch interpolation {
        case .step:
            return Array(key(lower))
        case .linear:
            if property == .rotation { return Self.slerp(key(lower), key(upper), f) }
            if property == .matrix { return Self.blendMatrices(key(lower), key(upper), f) }
            return zip(key(lower), key(upper)).map { a, b in a + (b - a) * Float(f) }
        case .cubic:
            // Hermite between the two values, tangents scaled by the key interval (glTF Appendix C).
            let f2 = f * f, f3 = f2 * f
            let h00 = Float(2 * f3 - 3 * f2 + 1), h10 = Float((f3 - 2 * f2 + f) * span)
            let h01 = Float(-2 * f3 + 3 * f2), h11 = Float((f3 - f2) * span)
            let out = lower * stride + 2 * n, into = upper * stride
            var result = [Float](repeating: 0, count: n)
            for c in 0..<n {
                let v0 = values[lower * stride + n + c], v1 = values[upper * stride + n + c]
                result[c] = h00 * v0 + h10 * values[out + c] + h01 * v1 + h11 * values[into + c]
            }
            if property == .rotation { return Self.normalized(result) }
            return result
        }
    }

    private static func slerp(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>, _ f: Double) -> [Float] {
        let qa = quaternion(Array(a)), qb = quaternion(Array(b))
        let q = Quaternion.slerp(qa, qb, f)
        return [Float(q.imaginary.x), Float(q.imaginary.y), Float(q.imaginary.z), Float(q.real)]
    }

    /// Matrices blend by their parts (translation and scale linearly, rotation on the sphere), so a
    /// turning node does not shrink between keys as an element-wise blend would make it.
    private static func blendMatrices(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>, _ f: Double) -> [Float] {
        let ta = TransformComponents(Matrix4x4(columnMajor: a.map(Double.init)))
        let tb = TransformComponents(Matrix4x4(columnMajor: b.map(Double.init)))
        let blended = TransformComponents(translation: ta.translation + (tb.translation - ta.translation) * f,
                                          rotation: Quaternion.slerp(ta.rotation, tb.rotation, f),
                                          scale: ta.scale + (tb.scale - ta.scale) * f)
        return blended.matrix.columnMajorElements.map(Float.init)
    }

    private static func normalized(_ v: [Float]) -> [Float] {
        let q = quaternion(v).normalized
        return [Float(q.imaginary.x), Float(q.imaginary.y), Float(q.imaginary.z), Float(q.real)]
    }

    /// x y z w, as channels store rotations.
    static func quaternion(_ v: [Float]) -> Quaternion {
        Quaternion(real: Double(v[3]), imaginary: SIMD3(Double(v[0]), Double(v[1]), Double(v[2])))
    }
}

extension RandomAccessCollection where Index == Int {
    /// The first index whose element fails `belongs`, for a collection partitioned by it.
    public func partitionPoint(_ belongs: (Element) -> Bool) -> Int {
        var low = startIndex, high = endIndex
        while low < high {
            let mid = low + (high - low) / 2
            if belongs(self[mid]) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

extension AnimationChannel {
    /// Times at which sampling this channel and joining the samples linearly reproduces it, for
    /// formats that interpolate linearly only (USD): the keys; for step channels also an instant
    /// before each change; for cubic channels also `cubicSubdivisions - 1` points inside each span.
    public func linearSampleTimes(cubicSubdivisions: Int = 8) -> [Double] {
        guard times.count > 1 else { return times }
        var out = times
        for k in 1..<times.count {
            let span = times[k] - times[k - 1]
            guard span > 0 else { continue }
            switch interpolation {
            case .linear: break
            case .step: out.append(times[k] - Swift.min(1e-4, span / 10))
            case .cubic:
                for s in 1..<cubicSubdivisions { out.append(times[k - 1] + span * Double(s) / Double(cubicSubdivisions)) }
            }
        }
        return out
    }
}

extension Collection where Element == AnimationChannel {
    /// A node's local transform at `time` under these channels (all on that node): a matrix channel
    /// replaces the whole transform, translation, rotation and scale channels replace their part of
    /// `rest`. Blend-shape weights are not transforms and are passed over. Nil when no channel
    /// here moves the node.
    public func localTransform(rest: Matrix4x4, at time: Double) -> Matrix4x4? {
        var parts: TransformComponents?
        var whole: Matrix4x4?
        for channel in self {
            guard let value = channel.sample(at: time) else { continue }
            let v = value.map(Double.init)
            switch channel.property {
            case .matrix:
                whole = Matrix4x4(columnMajor: v)
            case .translation:
                parts = parts ?? TransformComponents(whole ?? rest)
                parts?.translation = SIMD3(v[0], v[1], v[2])
            case .rotation:
                parts = parts ?? TransformComponents(whole ?? rest)
                parts?.rotation = Quaternion(real: v[3], imaginary: SIMD3(v[0], v[1], v[2])).normalized
            case .scale:
                parts = parts ?? TransformComponents(whole ?? rest)
                parts?.scale = SIMD3(v[0], v[1], v[2])
            case .blendShapeWeights, .points:
                continue
            }
        }
        return parts?.matrix ?? whole
    }
}

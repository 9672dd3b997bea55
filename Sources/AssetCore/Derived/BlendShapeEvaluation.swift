/// Adds blend-shape offsets to a mesh's points in proportion to their weights, the way UsdSkel,
/// glTF and Collada's RELATIVE morphs define it; USD in-betweens split a shape's path into pieces
/// that are interpolated piecewise.
public enum BlendShapeEvaluation {
    public static func apply(_ shapes: [BlendShape], weights: [Float], to points: inout [SIMD3<Float>]) {
        let count = points.count
        points.withUnsafeMutableBufferPointer { out in
            for (shape, weight) in zip(shapes, weights) where weight != 0 {
                let (offsets, scale) = piece(of: shape, at: weight)
                for (offsetList, factor) in zip(offsets, scale) where factor != 0 {
                    offsetList.withUnsafeBufferPointer { o in
                        if let indices = shape.pointIndices {
                            for (n, index) in indices.enumerated() where n < o.count && index >= 0 && Int(index) < count {
                                out[Int(index)] += factor * o[n]
                            }
                        } else {
                            for i in 0..<Swift.min(count, o.count) { out[i] += factor * o[i] }
                        }
                    }
                }
            }
        }
    }

    /// The offsets to add and their factors at `weight`: the primary shape scaled when there are no
    /// in-betweens, else a blend of the two neighbouring targets (0 being the rest shape).
    static func piece(of shape: BlendShape, at weight: Float) -> ([[SIMD3<Float>]], [Float]) {
        guard !shape.inbetweens.isEmpty else { return ([shape.offsets], [weight]) }
        var targets: [(weight: Float, offsets: [SIMD3<Float>]?)] = [(0, nil)]
        targets += shape.inbetweens.map { ($0.weight, $0.offsets) }
        targets.append((1, shape.offsets))
        targets.sort { $0.weight < $1.weight }
        var upper = targets.firstIndex { $0.weight > weight } ?? targets.count - 1
        upper = Swift.max(upper, 1)
        let a = targets[upper - 1], b = targets[upper]
        let span = b.weight - a.weight
        guard span > 0 else { return ([b.offsets ?? []], [1]) }
        let f = (weight - a.weight) / span
        var lists: [[SIMD3<Float>]] = [], factors: [Float] = []
        if let offsets = a.offsets { lists.append(offsets); factors.append(1 - f) }
        if let offsets = b.offsets { lists.append(offsets); factors.append(f) }
        return (lists, factors)
    }
}

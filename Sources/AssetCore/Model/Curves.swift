/// Linear curves (polylines) shaped like UsdGeomBasisCurves with `type = "linear"`: Collada
/// `<lines>` and `<linestrips>`, glTF LINES. Each curve owns its run of `points`, so a curve of n
/// vertices is n consecutive points and has n - 1 segments; nothing is shared between curves, as
/// in USD, so writers need no index bookkeeping.
public struct Curves: Sendable, Equatable {
    public var name: String
    public var points: [SIMD3<Float>]
    /// Vertices per curve, each at least 2; they sum to `points.count`.
    public var curveVertexCounts: [Int32]

    public init(name: String, points: [SIMD3<Float>] = [], curveVertexCounts: [Int32] = []) {
        self.name = name
        self.points = points
        self.curveVertexCounts = curveVertexCounts
    }

    /// Sum of (n - 1) over curves: the line segments drawn.
    public var segmentCount: Int { curveVertexCounts.reduce(0) { $0 + max(Int($1) - 1, 0) } }

    /// (first, second) point of every segment, curve after curve.
    public func segments() -> [(Int, Int)] {
        var pairs: [(Int, Int)] = []
        pairs.reserveCapacity(segmentCount)
        var start = 0
        for count in curveVertexCounts {
            let n = Int(count)
            if n >= 2 { for k in start..<(start + n - 1) { pairs.append((k, k + 1)) } }
            start += max(n, 0)
        }
        return pairs
    }

    /// Why these curves cannot be used, or nil: counts must be at least 2 and sum to the points.
    public var topologyProblem: String? {
        var total = 0
        for (k, count) in curveVertexCounts.enumerated() {
            guard count >= 2 else { return "curveVertexCounts[\(k)] = \(count); a curve needs at least 2 vertices" }
            total += Int(count)
        }
        guard total == points.count else { return "curveVertexCounts sum to \(total) but there are \(points.count) points" }
        return nil
    }
}

/// Curves placed under a node, with the material they are drawn in.
public struct CurvesInstance: Sendable, Equatable {
    public var curves: Int
    public var material: Int?

    public init(curves: Int, material: Int? = nil) {
        self.curves = curves
        self.material = material
    }
}

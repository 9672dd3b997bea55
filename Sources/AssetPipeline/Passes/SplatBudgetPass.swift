import AssetCore

/// Brings splat sets under a budget (`--max-splats`, `--sh-degree`): the least visible splats go
/// first, visibility being opacity times the ellipsoid's volume (the product of the three scales),
/// which is how much a splat can cover and how much of it shows; a lower degree drops the higher
/// SH bands, which only shade the colour by direction. The budget is over every placed splat, so a
/// set placed twice costs twice; each set keeps the same share of its splats. One note says what
/// was done.
public struct SplatBudgetPass: ScenePass {
    public let name = "splat budget"
    public var maxSplats: Int?
    public var shDegree: Int?

    public init(maxSplats: Int?, shDegree: Int?) {
        self.maxSplats = maxSplats
        self.shDegree = shDegree
    }

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        guard !scene.splats.isEmpty else { return }
        if let shDegree {
            let lowered = scene.splats.indices.filter { scene.splats[$0].shDegree > shDegree }
            for s in lowered { scene.splats[s] = scene.splats[s].loweringDegree(to: shDegree) }
            if !lowered.isEmpty {
                diagnostics.append(.warning("spherical harmonics lowered to degree \(shDegree) in \(lowered.count) splat set\(lowered.count == 1 ? "" : "s") (--sh-degree)"))
            }
        }
        guard let maxSplats else { return }
        let placed = scene.placedSplats()
        let total = placed.reduce(0) { $0 + scene.splats[$1.instance.splats].count }
        guard total > maxSplats, total > 0 else { return }
        let share = Double(maxSplats) / Double(total)
        var kept = 0
        for s in scene.splats.indices {
            let want = Int((Double(scene.splats[s].count) * share).rounded(.down))
            scene.splats[s] = scene.splats[s].keepingMostVisible(want)
            kept += want * placed.filter { $0.instance.splats == s }.count
        }
        diagnostics.append(.warning("\(total - kept) of \(total) placed splats pruned to fit --max-splats \(maxSplats), the least visible (opacity x volume) first"))
    }
}

extension SplatSet {
    /// The `count` splats of largest opacity x volume, in their original order.
    func keepingMostVisible(_ count: Int) -> SplatSet {
        guard count < self.count else { return self }
        let visibility = (0..<self.count).map { i -> Float in
            let s = scale(i)
            return opacities[i] * s.x * s.y * s.z
        }
        // Ties keep the earlier splat; NaN counts as invisible.
        let order = (0..<self.count).sorted { a, b in
            let (va, vb) = (visibility[a].isNaN ? -1 : visibility[a], visibility[b].isNaN ? -1 : visibility[b])
            return va != vb ? va > vb : a < b
        }
        let keep = order.prefix(count).sorted()
        return selecting(keep)
    }

    /// These splats at degree `degree` (lower than theirs): the higher bands dropped.
    func loweringDegree(to degree: Int) -> SplatSet {
        guard degree < shDegree, degree >= 0 else { return self }
        let from = coefficientsPerSplat, to = (degree + 1) * (degree + 1)
        var out = self
        out.shDegree = degree
        out.sh = sh.selectingRuns(count: count, stride: 3 * from, keep: 3 * to)
        return out
    }

    /// The splats at `indices` (increasing).
    func selecting(_ indices: [Int]) -> SplatSet {
        var out = self
        out.centers = centers.gathering(indices, width: 3)
        out.rotations = rotations.gathering(indices, width: 4)
        out.scales = scales.gathering(indices, width: 3)
        out.opacities = opacities.gathering(indices, width: 1)
        out.sh = sh.gathering(indices, width: 3 * coefficientsPerSplat)
        return out
    }
}

extension SplatScalars {
    /// The `width` values of each element at `indices`.
    func gathering(_ indices: [Int], width: Int) -> SplatScalars {
        switch self {
        case .float(let values): return .float(indices.flatMap { values[($0 * width)..<(($0 + 1) * width)] })
        case .half(let values): return .half(indices.flatMap { values[($0 * width)..<(($0 + 1) * width)] })
        }
    }

    /// The first `keep` values of each of `count` runs of `stride`.
    func selectingRuns(count: Int, stride: Int, keep: Int) -> SplatScalars {
        switch self {
        case .float(let values): return .float((0..<count).flatMap { values[($0 * stride)..<($0 * stride + keep)] })
        case .half(let values): return .half((0..<count).flatMap { values[($0 * stride)..<($0 * stride + keep)] })
        }
    }
}

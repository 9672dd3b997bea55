import AssetCore

/// What drawing a scene does once per placement, made proportional to the distinct placements:
/// a file that places one mesh 20,000 times at the same spot (a crafted amplification, or an
/// exporter's duplicate) is drawn and framed once, and the framing sphere comes from each mesh's
/// own bounding sphere under its placements, so only the placements that can reach farther than
/// the farthest point found so far are walked point by point. The sphere is exact: the same
/// radius as walking every placed point (the framing of every picture is unchanged).
enum PlacementFraming {
    /// The placements with duplicates left out: same mesh, same world transform, same materials.
    static func distinct(_ placed: [PlacedMesh]) -> [PlacedMesh] {
        struct Key: Hashable {
            var mesh: Int
            var transform: Matrix4x4
            var material: Int?
            var subsetMaterials: [Int?]
        }
        var seen: Set<Key> = []
        return placed.filter { p in
            // Variant bindings change materials only in writers; the renderer draws the bound ones.
            seen.insert(Key(mesh: p.instance.mesh, transform: p.worldTransform, material: p.instance.material,
                            subsetMaterials: p.instance.subsetMaterials)).inserted
        }
    }

    /// Distance from `center` to the farthest finite vertex of any placement: the radius of the
    /// bounding sphere the camera frames.
    static func farthestPoint(_ placed: [PlacedMesh], _ shapes: [DrawMesh?], from center: SIMD3<Double>) -> Double {
        var spheres: [Int: (center: SIMD3<Double>, radius: Double)] = [:]
        // Each placement's reach cannot pass the distance to its sphere's placed centre plus the
        // sphere's radius times the placement's largest stretch.
        var candidates: [(reach: Double, placed: PlacedMesh, shape: DrawMesh)] = []
        for instance in placed {
            guard let shape = shapes[instance.instance.mesh] else { continue }
            let sphere = spheres[instance.instance.mesh] ?? localSphere(shape.positions)
            spheres[instance.instance.mesh] = sphere
            let m = instance.worldTransform
            let reach = Vector.length(m.transformPoint(sphere.center) - center) + sphere.radius * largestStretch(m)
            candidates.append((reach.isFinite ? reach : .infinity, instance, shape))
        }
        candidates.sort { $0.reach > $1.reach }
        let c = SIMD3<Float>(Float(center.x), Float(center.y), Float(center.z))
        var farthest: Float = 0
        for candidate in candidates {
            // Float rounding of the points walked below stays far inside this margin.
            guard candidate.reach * (1 + 1e-5) >= Double(farthest.squareRoot()) else { break }
            farthest = max(farthest, farthestSquared(candidate.placed.worldTransform.transformedPoints(candidate.shape.positions), from: c))
        }
        return Double(farthest.squareRoot())
    }

    /// The largest finite squared distance from `c` to a point, the halves on two cores (a maximum
    /// does not depend on the order: the same value as one walk).
    private static func farthestSquared(_ points: [SIMD3<Float>], from c: SIMD3<Float>) -> Float {
        points.withUnsafeBufferPointer { buffer in
            nonisolated(unsafe) let buffer = buffer
            return SplitReduction.reduce(count: buffer.count, { range in
                var farthest: Float = 0
                guard let base = buffer.baseAddress else { return farthest }
                for i in range {
                    let d = base[i] - c
                    let squared = (d * d).sum()
                    if squared.isFinite { farthest = max(farthest, squared) }
                }
                return farthest
            }, max)
        }
    }

    /// A sphere around the mesh's finite points: its box's centre, and the farthest point from it.
    private static func localSphere(_ points: [SIMD3<Float>]) -> (center: SIMD3<Double>, radius: Double) {
        let box = Bounds3(points: points)
        guard !box.isEmpty else { return (.zero, 0) }
        let center = box.center
        let radius = points.withUnsafeBufferPointer { buffer in
            nonisolated(unsafe) let buffer = buffer
            return SplitReduction.reduce(count: buffer.count, { range in
                var radius = 0.0
                guard let base = buffer.baseAddress else { return radius }
                for i in range where base[i].isFinite { radius = max(radius, Vector.length(base[i].double - center)) }
                return radius
            }, max)
        }
        return (center, radius)
    }

    /// An upper bound of how far the transform's linear part stretches a unit vector: the square
    /// root of the largest row sum of |AᵀA| (Gershgorin), exact for rotations and uniform scales.
    static func largestStretch(_ m: Matrix4x4) -> Double {
        let columns = [m.c0, m.c1, m.c2].map { SIMD3($0.x, $0.y, $0.z) }
        var bound = 0.0
        for i in 0..<3 {
            var row = 0.0
            for j in 0..<3 { row += abs((columns[i] * columns[j]).sum()) }
            bound = max(bound, row)
        }
        return bound.squareRoot()
    }

    /// The row that halves the drawing work of a heavy scene: the median screen row of a sample
    /// of its placed points (about 16,000), each weighing its mesh's triangles per point. Nil for
    /// a light scene (under 200,000 triangles), whose time goes to shading pixels, which the
    /// middle row halves about as well. The split changes who draws a row, never a pixel.
    static func balancedSplit(_ placed: [PlacedMesh], _ shapes: [DrawMesh?], viewProjection: Matrix4x4, height: Int) -> Int? {
        let triangles = placed.reduce(0) { $0 + (shapes[$1.instance.mesh]?.triangleCount ?? 0) }
        let points = placed.reduce(0) { $0 + (shapes[$1.instance.mesh]?.positions.count ?? 0) }
        guard triangles >= 200_000, points > 0 else { return nil }
        let step = max(1, points / 16_384)
        var rows: [(row: Float, weight: Float)] = []
        for p in placed {
            guard let shape = shapes[p.instance.mesh], !shape.positions.isEmpty else { continue }
            let m = viewProjection * p.worldTransform
            let weight = Float(shape.triangleCount) / Float(shape.positions.count)
            for i in stride(from: 0, to: shape.positions.count, by: step) {
                let c = m * SIMD4<Double>(SIMD3<Double>(shape.positions[i]), 1)
                guard c.w > 0 else { continue }
                let row = Float((1 - c.y / c.w) * 0.5 * Double(height))
                if row >= 0 && row < Float(height) { rows.append((row, weight)) }
            }
        }
        guard !rows.isEmpty else { return nil }
        rows.sort { $0.row < $1.row }
        let half = rows.reduce(0) { $0 + $1.weight } / 2
        var sum: Float = 0
        for entry in rows {
            sum += entry.weight
            if sum >= half { return Int(entry.row) }
        }
        return nil
    }
}

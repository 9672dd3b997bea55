extension Scene {
    /// World-space box over every counted mesh, curves and splat instance (splats by their 3-sigma ellipsoids), from the points themselves (never an
    /// authored extent, which is often stale), in the file's own units and axes.
    /// Non-finite points are left out. Empty when nothing is placed.
    public var worldBounds: Bounds3 {
        var bounds = Bounds3.empty
        // A mesh placed many times is measured once; instances that only move and scale it along
        // the axes map that box exactly (each axis's extremes stay extremes), so only rotated or
        // sheared instances transform every point.
        var local = [Bounds3?](repeating: nil, count: meshes.count)
        for placed in placedMeshes() {
            let index = placed.instance.mesh
            let transform = placed.worldTransform
            if transform.isAxisAligned {
                if local[index] == nil { local[index] = meshes[index].bounds() }
                let box = local[index]!
                guard !box.isEmpty else { continue }
                let scale = SIMD3(transform.c0.x, transform.c1.y, transform.c2.z)
                let offset = SIMD3(transform.c3.x, transform.c3.y, transform.c3.z)
                let a = box.min * scale + offset, b = box.max * scale + offset
                bounds.formUnion(Bounds3(min: pointwiseMin(a, b), max: pointwiseMax(a, b)))
            } else {
                bounds.formUnion(meshes[index].bounds(transformedBy: transform))
            }
        }
        for placed in placedCurves() {
            bounds.formUnion(Bounds3(points: curves[placed.instance.curves].points, transformedBy: placed.worldTransform))
        }
        for placed in placedSplats() {
            bounds.formUnion(splats[placed.instance.splats].bounds(transformedBy: placed.worldTransform))
        }
        return bounds
    }

    /// `worldBounds` scaled to metres with `metadata.metersPerUnit`.
    public var worldBoundsInMeters: Bounds3 { worldBounds.scaled(by: metadata.metersPerUnit) }
}

extension Mesh {
    /// Box over the points after `transform`, skipping non-finite points.
    public func bounds(transformedBy transform: Matrix4x4 = .identity) -> Bounds3 {
        Bounds3(points: points, transformedBy: transform)
    }
}

extension Bounds3 {
    /// Box over `points` after `transform`, skipping non-finite points.
    public init(points: [SIMD3<Float>], transformedBy transform: Matrix4x4 = .identity) {
        var lo = SIMD3<Double>(repeating: .infinity), hi = SIMD3<Double>(repeating: -.infinity)
        points.withUnsafeBufferPointer { buffer in
            if transform.isIdentity {
                // In Float, then widened: widening is exact and keeps order, so the box is the same.
                nonisolated(unsafe) let buffer = buffer
                let infinite = SIMD3<Float>(repeating: .infinity)
                let (low, high) = SplitReduction.reduce(count: buffer.count, { range in
                    var low = infinite, high = -infinite
                    // By pointer, not the slice's iterator (a generic call per point in debug builds).
                    guard let base = buffer.baseAddress else { return (low, high) }
                    var i = range.lowerBound
                    while i < range.upperBound {
                        let p = base[i]
                        if p.x.isFinite && p.y.isFinite && p.z.isFinite { low = pointwiseMin(low, p); high = pointwiseMax(high, p) }
                        i += 1
                    }
                    return (low, high)
                }, { (pointwiseMin($0.0, $1.0), pointwiseMax($0.1, $1.1)) })
                if low.x <= high.x { lo = low.double; hi = high.double }
            } else {
                for p in buffer {
                    let d = transform.transformPoint(p.double)
                    guard d.isFinite else { continue }
                    lo = pointwiseMin(lo, d); hi = pointwiseMax(hi, d)
                }
            }
        }
        self.init(min: lo, max: hi)
    }
}

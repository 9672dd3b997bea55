extension Scene {
    /// World-space box over every counted mesh instance, from the points themselves (never an
    /// authored extent, which is often stale), in the file's own units and axes.
    /// Non-finite points are left out. Empty when nothing is placed.
    public var worldBounds: Bounds3 {
        var bounds = Bounds3.empty
        for placed in placedMeshes() {
            bounds.formUnion(meshes[placed.instance.mesh].bounds(transformedBy: placed.worldTransform))
        }
        return bounds
    }

    /// `worldBounds` scaled to metres with `metadata.metersPerUnit`.
    public var worldBoundsInMeters: Bounds3 { worldBounds.scaled(by: metadata.metersPerUnit) }
}

extension Mesh {
    /// Box over the points after `transform`, skipping non-finite points.
    public func bounds(transformedBy transform: Matrix4x4 = .identity) -> Bounds3 {
        var lo = SIMD3<Double>(repeating: .infinity), hi = SIMD3<Double>(repeating: -.infinity)
        points.withUnsafeBufferPointer { buffer in
            if transform.isIdentity {
                for p in buffer {
                    let d = p.double
                    guard d.isFinite else { continue }
                    lo = pointwiseMin(lo, d); hi = pointwiseMax(hi, d)
                }
            } else {
                for p in buffer {
                    let d = transform.transformPoint(p.double)
                    guard d.isFinite else { continue }
                    lo = pointwiseMin(lo, d); hi = pointwiseMax(hi, d)
                }
            }
        }
        return Bounds3(min: lo, max: hi)
    }
}

extension SplatSet {
    /// How many standard deviations out a splat is drawn and bounded: the 3DGS renderers' cut-off.
    public static let extentSigmas: Float = 3

    /// The rotation matrix of splat `i`'s quaternion (normalised here, so a reader's rounding does
    /// not scale the ellipsoid), columns first.
    @inlinable public func rotationMatrix(_ i: Int) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) {
        Self.rotationMatrix(rotation(i))
    }

    /// The rotation matrix of quaternion `q` (x, y, z, w), columns first; identity for a zero one.
    @inlinable public static func rotationMatrix(_ q: SIMD4<Float>) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) {
        let length = (q * q).sum().squareRoot()
        guard length > 0, length.isFinite else { return (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)) }
        let (x, y, z, w) = (q.x / length, q.y / length, q.z / length, q.w / length)
        return (SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)),
                SIMD3(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)),
                SIMD3(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)))
    }

    /// The box around every splat's 3-sigma ellipsoid after `transform`; splats with a
    /// non-finite value are left out. The half-width of the ellipsoid M R S along world axis a is
    /// 3 |row a of M R S|, so each splat costs one 3x3 product, no sampling.
    public func bounds(transformedBy transform: Matrix4x4 = .identity) -> Bounds3 {
        let linear = (SIMD3<Float>(SIMD3(transform.c0.x, transform.c0.y, transform.c0.z)),
                      SIMD3<Float>(SIMD3(transform.c1.x, transform.c1.y, transform.c1.z)),
                      SIMD3<Float>(SIMD3(transform.c2.x, transform.c2.y, transform.c2.z)))
        let offset = SIMD3<Float>(SIMD3(transform.c3.x, transform.c3.y, transform.c3.z))
        let infinite = SIMD3<Float>(repeating: .infinity)
        let (low, high) = withBuffers { buffers in
            nonisolated(unsafe) let buffers = buffers
            return SplitReduction.reduce(count: count, { range in
                var low = infinite, high = -infinite
                for i in range {
                    let c = buffers.center(i), s = buffers.scale(i) * Self.extentSigmas
                    let r = Self.rotationMatrix(buffers.rotation(i))
                    // The ellipsoid's axes in the world: M times each scaled column of R.
                    let a0 = Self.apply(linear, r.0 * s.x), a1 = Self.apply(linear, r.1 * s.y), a2 = Self.apply(linear, r.2 * s.z)
                    let squares: SIMD3<Float> = a0 * a0 + a1 * a1 + a2 * a2
                    let half = squares.squareRoot()
                    let placed = Self.apply(linear, c) + offset
                    let lo = placed - half, hi = placed + half
                    guard (lo - hi).isFinite else { continue }
                    // Lane by lane: the generic pointwiseMin and pointwiseMax were calls here.
                    low = SIMD3(min(low.x, lo.x), min(low.y, lo.y), min(low.z, lo.z))
                    high = SIMD3(max(high.x, hi.x), max(high.y, hi.y), max(high.z, hi.z))
                }
                return (low, high)
            }, { (pointwiseMin($0.0, $1.0), pointwiseMax($0.1, $1.1)) })
        }
        guard low.x <= high.x else { return .empty }
        return Bounds3(min: low.double, max: high.double)
    }
}

/// Baking a placement into splat data, for writers of formats with no node hierarchy (PLY, SPZ)
/// and for flattening: centres move, each Gaussian's covariance becomes A Σ Aᵀ, and the view-
/// dependent colour turns with the directions (SH bands through `SplatHarmonics.bandMatrices`).
extension SplatSet {
    /// These splats as placed by `transform` (affine; a projective part is ignored).
    public func transformed(by transform: Matrix4x4) -> SplatSet {
        guard !transform.isIdentity else { return self }
        let a = (SIMD3(transform.c0.x, transform.c0.y, transform.c0.z), SIMD3(transform.c1.x, transform.c1.y, transform.c1.z),
                 SIMD3(transform.c2.x, transform.c2.y, transform.c2.z))
        let t = SIMD3(transform.c3.x, transform.c3.y, transform.c3.z)
        let q = Self.orthogonalFactor(a)
        // A is q times a scale when its columns are orthogonal and of one length: then each splat
        // keeps its shape and turns with q; otherwise its covariance is decomposed again.
        let lengths = SIMD3(Vector.length(a.0), Vector.length(a.1), Vector.length(a.2))
        let uniform = lengths.max() - lengths.min() <= 1e-9 * lengths.max()
            && abs(Vector.dot(a.0, a.1)) + abs(Vector.dot(a.1, a.2)) + abs(Vector.dot(a.0, a.2)) <= 1e-9 * lengths.max() * lengths.max()
        let af = (SIMD3<Float>(a.0), SIMD3<Float>(a.1), SIMD3<Float>(a.2)), qf = (SIMD3<Float>(q.0), SIMD3<Float>(q.1), SIMD3<Float>(q.2))
        let scale = Float(lengths.x)
        var centers = [Float](repeating: 0, count: 3 * count), rotations = [Float](repeating: 0, count: 4 * count)
        var scales = [Float](repeating: 0, count: 3 * count)
        withBuffers { b in
            for i in 0..<count {
                let c = SIMD3<Double>(b.center(i))
                let placed: SIMD3<Double> = Self.apply(a, c) + t
                for k in 0..<3 { centers[3 * i + k] = Float(placed[k]) }
                let r = Self.rotationMatrix(b.rotation(i))
                var columns: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
                var s: SIMD3<Float>
                if uniform {
                    columns = (Self.apply(qf, r.0), Self.apply(qf, r.1), Self.apply(qf, r.2))
                    s = b.scale(i) * scale
                } else {
                    let sigma = b.scale(i)
                    let m = (Self.apply(af, r.0) * sigma.x, Self.apply(af, r.1) * sigma.y, Self.apply(af, r.2) * sigma.z)
                    (columns, s) = Self.principalAxes(m)
                }
                if Vector.dot(Vector.cross(columns.0, columns.1), columns.2) < 0 { columns.0 = -columns.0 }  // stay a rotation
                let quaternion = Quaternion(rotationColumns: SIMD3<Double>(columns.0), SIMD3<Double>(columns.1), SIMD3<Double>(columns.2)).normalized
                let v = SIMD4<Float>(Float(quaternion.imaginary.x), Float(quaternion.imaginary.y), Float(quaternion.imaginary.z), Float(quaternion.real))
                for k in 0..<4 { rotations[4 * i + k] = v[k] }
                for k in 0..<3 { scales[3 * i + k] = s[k] }
            }
        }
        var out = self
        out.centers = centers.asScalars(like: self.centers)
        out.rotations = rotations.asScalars(like: self.rotations)
        out.scales = scales.asScalars(like: self.scales)
        out.sh = turnedHarmonics(q)
        return out
    }

    /// The coefficients with every band of degree 1 and up re-expressed for directions turned by `q`.
    func turnedHarmonics(_ q: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)) -> SplatScalars {
        guard shDegree > 0 else { return sh }
        let bands = SplatHarmonics.bandMatrices(for: q, degree: shDegree).map { $0.map(Float.init) }
        var values = sh.floats
        let perSplat = 3 * coefficientsPerSplat
        values.withUnsafeMutableBufferPointer { buffer in
            var band = [Float](repeating: 0, count: 7 * 3)
            for i in 0..<count {
                let base = i * perSplat
                for l in 1...shDegree {
                    let n = 2 * l + 1, first = base + 3 * l * l, m = bands[l - 1]
                    for k in 0..<(3 * n) { band[k] = buffer[first + k] }
                    for row in 0..<n {
                        var colour = SIMD3<Float>.zero
                        for col in 0..<n {
                            let old = SIMD3<Float>(band[3 * col], band[3 * col + 1], band[3 * col + 2])
                            colour += old * m[row * n + col]
                        }
                        buffer[first + 3 * row] = colour.x; buffer[first + 3 * row + 1] = colour.y; buffer[first + 3 * row + 2] = colour.z
                    }
                }
            }
        }
        return values.asScalars(like: sh)
    }

    /// The orthogonal factor of A's polar decomposition (A = Q P, P symmetric positive), by
    /// Higham's iteration Q <- (Q + Q^-T) / 2: the rotation (or mirror) a general linear map
    /// turns directions by, which is what the SH colour follows.
    static func orthogonalFactor(_ a: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)) -> (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
        var q = a
        for _ in 0..<30 {
            // Columns of Q^-T are the cross products of Q's columns over the determinant.
            let det = Vector.dot(q.0, Vector.cross(q.1, q.2))
            guard det != 0, det.isFinite else { return (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)) }
            let inverseTransposed = (Vector.cross(q.1, q.2) / det, Vector.cross(q.2, q.0) / det, Vector.cross(q.0, q.1) / det)
            let next = ((q.0 + inverseTransposed.0) / 2, (q.1 + inverseTransposed.1) / 2, (q.2 + inverseTransposed.2) / 2)
            let change = Vector.length(next.0 - q.0) + Vector.length(next.1 - q.1) + Vector.length(next.2 - q.2)
            q = next
            if change < 1e-12 { break }
        }
        return q
    }

    /// The 3x3 matrix with columns `m` times `v`.
    @inlinable @inline(__always) static func apply<T: SIMDScalar & BinaryFloatingPoint>(_ m: (SIMD3<T>, SIMD3<T>, SIMD3<T>), _ v: SIMD3<T>) -> SIMD3<T> {
        let x: SIMD3<T> = m.0 * v.x, y: SIMD3<T> = m.1 * v.y, z: SIMD3<T> = m.2 * v.z
        return x + y + z
    }

    /// The axes and standard deviations of the Gaussian whose covariance is M Mᵀ (M's columns the
    /// scaled, placed axes of the old one), by cyclic Jacobi rotations on the symmetric 3x3.
    static func principalAxes(_ m: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)) -> ((SIMD3<Float>, SIMD3<Float>, SIMD3<Float>), SIMD3<Float>) {
        var c = [[Double]](repeating: [0, 0, 0], count: 3)
        let cols = [SIMD3<Double>(m.0), SIMD3<Double>(m.1), SIMD3<Double>(m.2)]
        for i in 0..<3 { for j in 0..<3 { c[i][j] = cols.reduce(0) { $0 + $1[i] * $1[j] } } }
        var v: [[Double]] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
        for _ in 0..<20 {
            let off = c[0][1] * c[0][1] + c[0][2] * c[0][2] + c[1][2] * c[1][2]
            if off < 1e-30 { break }
            for (p, q) in [(0, 1), (0, 2), (1, 2)] where c[p][q] != 0 {
                let theta = (c[q][q] - c[p][p]) / (2 * c[p][q])
                let t = (theta >= 0 ? 1 : -1) / (abs(theta) + (theta * theta + 1).squareRoot())
                let cs = 1 / (t * t + 1).squareRoot(), sn = t * cs
                for k in 0..<3 {
                    let (kp, kq) = (c[k][p], c[k][q])
                    c[k][p] = cs * kp - sn * kq; c[k][q] = sn * kp + cs * kq
                }
                for k in 0..<3 {
                    let (pk, qk) = (c[p][k], c[q][k])
                    c[p][k] = cs * pk - sn * qk; c[q][k] = sn * pk + cs * qk
                }
                for k in 0..<3 {
                    let (kp, kq) = (v[k][p], v[k][q])
                    v[k][p] = cs * kp - sn * kq; v[k][q] = sn * kp + cs * kq
                }
            }
        }
        let axes = (SIMD3<Float>(Float(v[0][0]), Float(v[1][0]), Float(v[2][0])), SIMD3<Float>(Float(v[0][1]), Float(v[1][1]), Float(v[2][1])),
                    SIMD3<Float>(Float(v[0][2]), Float(v[1][2]), Float(v[2][2])))
        let sigma = SIMD3<Float>(Float(max(c[0][0], 0).squareRoot()), Float(max(c[1][1], 0).squareRoot()), Float(max(c[2][2], 0).squareRoot()))
        return (axes, sigma)
    }
}

extension Array where Element == Float {
    /// These values in the precision `other` keeps.
    func asScalars(like other: SplatScalars) -> SplatScalars {
        other.isHalf ? .half(map(Float16.init)) : .float(self)
    }
}

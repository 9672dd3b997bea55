import Dispatch

/// Linear blend skinning on contiguous buffers: each point moves by the weighted sum of its joints'
/// skinning matrices. The matrices arrive already combined (`world(joint) · inverseBind · geomBind`,
/// then into the space the result is placed in), so the per-point loop is multiply-adds only.
public enum LinearBlendSkinning {
    /// A 3x4 affine matrix in Float, columns x y z and translation: what one influence costs.
    public struct AffineColumns: Sendable {
        public var x, y, z, w: SIMD3<Float>

        public init(_ m: Matrix4x4) {
            x = SIMD3(Float(m.c0.x), Float(m.c0.y), Float(m.c0.z))
            y = SIMD3(Float(m.c1.x), Float(m.c1.y), Float(m.c1.z))
            z = SIMD3(Float(m.c2.x), Float(m.c2.y), Float(m.c2.z))
            w = SIMD3(Float(m.c3.x), Float(m.c3.y), Float(m.c3.z))
        }
    }

    /// Points from 64k up are split over the machine's cores.
    static let parallelThreshold = 1 << 16

    /// Skins `points` by `influences`. Influences naming a joint outside `matrices` are skipped and
    /// points beyond the weights keep their input position (readers warn about both); weights are
    /// used as given, unnormalised, as UsdSkel and glTF do.
    public static func skin(points: [SIMD3<Float>], influences: SkinWeights, matrices: [AffineColumns]) -> [SIMD3<Float>] {
        let count = points.count, k = influences.influencesPerPoint
        guard k > 0, !matrices.isEmpty else { return points }
        let covered = Swift.min(count, influences.joints.count / k, influences.weights.count / k)
        return [SIMD3<Float>](unsafeUninitializedCapacity: count) { out, initialized in
            HugePages.advise(UnsafeMutableRawPointer(out.baseAddress), byteCount: count * MemoryLayout<SIMD3<Float>>.stride)
            points.withUnsafeBufferPointer { p in
                influences.joints.withUnsafeBufferPointer { j in
                    influences.weights.withUnsafeBufferPointer { w in
                        matrices.withUnsafeBufferPointer { m in
                            let lanes = covered >= parallelThreshold ? 2 : 1
                            let share = (covered + lanes - 1) / lanes
                            // Each lane reads the shared inputs and writes only its own range of `out`.
                            nonisolated(unsafe) let (p, j, w, m, out) = (p, j, w, m, out)
                            DispatchQueue.concurrentPerform(iterations: lanes) { lane in
                                let start = lane * share, end = Swift.min(covered, start + share)
                                guard start < end else { return }
                                skinRange(start..<end, k: k, points: p, joints: j, weights: w, matrices: m, out: out)
                            }
                            for i in covered..<count { out[i] = p[i] }
                        }
                    }
                }
            }
            initialized = count
        }
    }

    @inline(__always)
    private static func skinRange(_ range: Range<Int>, k: Int, points: UnsafeBufferPointer<SIMD3<Float>>, joints: UnsafeBufferPointer<Int32>,
                                  weights: UnsafeBufferPointer<Float>, matrices: UnsafeBufferPointer<AffineColumns>,
                                  out: UnsafeMutableBufferPointer<SIMD3<Float>>) {
        let jointCount = matrices.count
        if k == 4 {
            // The common case (glTF, most exporters), unrolled: one range check per influence and
            // no branch on the weight, so the loop stays straight-line multiply-adds.
            for i in range {
                let p = points[i]
                var sum = SIMD3<Float>.zero
                for e in (4 * i)..<(4 * i + 4) {
                    let joint = Int(joints[e])
                    let m = matrices[joint >= 0 && joint < jointCount ? joint : 0]
                    let w = joint >= 0 && joint < jointCount ? weights[e] : 0
                    sum += w * (m.x * p.x + m.y * p.y + m.z * p.z + m.w)
                }
                out[i] = sum
            }
            return
        }
        for i in range {
            let p = points[i]
            var sum = SIMD3<Float>.zero
            for e in (i * k)..<(i * k + k) {
                let weight = weights[e], joint = Int(joints[e])
                guard weight != 0, joint >= 0, joint < jointCount else { continue }
                let m = matrices[joint]
                sum += weight * (m.x * p.x + m.y * p.y + m.z * p.z + m.w)
            }
            // A point with no weight lands at the origin, as in usd-core's skinning.
            out[i] = sum
        }
    }

    /// Directions (normals) by the weighted linear parts, renormalised: exact for rigid joints,
    /// the usual approximation otherwise.
    public static func skinDirections(_ directions: [SIMD3<Float>], influences: SkinWeights, matrices: [AffineColumns]) -> [SIMD3<Float>] {
        let k = influences.influencesPerPoint
        guard k > 0 else { return directions }
        var out = directions
        let covered = Swift.min(directions.count, influences.joints.count / k, influences.weights.count / k)
        for i in 0..<covered {
            let d = directions[i]
            var sum = SIMD3<Float>.zero
            for e in (i * k)..<(i * k + k) {
                let joint = Int(influences.joints[e])
                guard joint >= 0, joint < matrices.count else { continue }
                let m = matrices[joint]
                sum += influences.weights[e] * (m.x * d.x + m.y * d.y + m.z * d.z)
            }
            let length = Vector.length(sum)
            if length > 0 { out[i] = sum / length }
        }
        return out
    }
}

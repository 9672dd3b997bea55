import AssetCore
import Foundation

/// Rotations as FBX's default Euler order, eEulerXYZ (R = Rz · Ry · Rx, degrees), which every
/// model of a written file uses.
enum FBXEuler {
    static func degrees(_ m: Matrix4x4) -> SIMD3<Double> {
        // Columns scaled to unit length first, so a scaled matrix gives its rotation.
        func column(_ c: SIMD4<Double>) -> SIMD3<Double> {
            let v = SIMD3(c.x, c.y, c.z), l = Vector.length(v)
            return l > 0 ? v / l : v
        }
        let x = column(m.c0), y = column(m.c1), z = column(m.c2)
        // Row r, column c of the rotation: column c's component r.
        let r20 = x.z, r21 = y.z, r22 = z.z, r10 = x.y, r00 = x.x, r12 = z.y, r11 = y.y
        let beta = asin(min(max(-r20, -1), 1))
        let alpha: Double, gamma: Double
        if abs(r20) < 0.999_999_9 {
            alpha = atan2(r21, r22)
            gamma = atan2(r10, r00)
        } else {
            alpha = atan2(-r12, r11)  // gimbal lock: the X and Z turns share one axis; all of it on X
            gamma = 0
        }
        return SIMD3(alpha, beta, gamma) * (180 / .pi)
    }

    static func degrees(_ q: Quaternion) -> SIMD3<Double> { degrees(Matrix4x4.rotation(q)) }

    /// The triple equal to `angles` as a rotation that lies closest to `previous`: whole turns added
    /// or taken away, or the other solution (x + 180, 180 - y, z + 180), so sampled keys do not jump.
    static func nearest(_ angles: SIMD3<Double>, to previous: SIMD3<Double>) -> SIMD3<Double> {
        func unwrapped(_ a: SIMD3<Double>) -> SIMD3<Double> {
            var out = a
            for k in 0..<3 { out[k] += 360 * ((previous[k] - a[k]) / 360).rounded() }
            return out
        }
        let first = unwrapped(angles)
        let second = unwrapped(SIMD3(angles.x + 180, 180 - angles.y, angles.z + 180))
        let d1 = first - previous, d2 = second - previous
        return (d1 * d1).sum() <= (d2 * d2).sum() ? first : second
    }
}

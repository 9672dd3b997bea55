#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// A 4x4 double-precision affine/projective matrix.
///
/// Storage is column-major and points are column vectors (`p' = M * p`), as in most math texts.
/// USD writes matrices row by row for row vectors (translation in the last row): read in file
/// order, its 16 numbers are exactly this type's column-major storage, so no transpose is needed.
/// Collada writes row-major for column vectors, so its `<matrix>` is read with `init(rowMajor:)`.
public struct Matrix4x4: Sendable, Hashable, Codable {
    public var c0: SIMD4<Double>
    public var c1: SIMD4<Double>
    public var c2: SIMD4<Double>
    public var c3: SIMD4<Double>

    public init(c0: SIMD4<Double>, c1: SIMD4<Double>, c2: SIMD4<Double>, c3: SIMD4<Double>) {
        self.c0 = c0; self.c1 = c1; self.c2 = c2; self.c3 = c3
    }

    public static let identity = Matrix4x4(
        c0: [1, 0, 0, 0], c1: [0, 1, 0, 0], c2: [0, 0, 1, 0], c3: [0, 0, 0, 1])

    /// 16 numbers, one column after another.
    public init(columnMajor m: [Double]) {
        precondition(m.count == 16, "a 4x4 matrix has 16 elements")
        c0 = [m[0], m[1], m[2], m[3]]
        c1 = [m[4], m[5], m[6], m[7]]
        c2 = [m[8], m[9], m[10], m[11]]
        c3 = [m[12], m[13], m[14], m[15]]
    }

    /// 16 numbers, one row after another.
    public init(rowMajor m: [Double]) {
        precondition(m.count == 16, "a 4x4 matrix has 16 elements")
        c0 = [m[0], m[4], m[8], m[12]]
        c1 = [m[1], m[5], m[9], m[13]]
        c2 = [m[2], m[6], m[10], m[14]]
        c3 = [m[3], m[7], m[11], m[15]]
    }

    public var columnMajorElements: [Double] {
        [c0.x, c0.y, c0.z, c0.w, c1.x, c1.y, c1.z, c1.w, c2.x, c2.y, c2.z, c2.w, c3.x, c3.y, c3.z, c3.w]
    }

    public subscript(row: Int, column: Int) -> Double {
        get {
            switch column {
            case 0: return c0[row]
            case 1: return c1[row]
            case 2: return c2[row]
            default: return c3[row]
            }
        }
        set {
            switch column {
            case 0: c0[row] = newValue
            case 1: c1[row] = newValue
            case 2: c2[row] = newValue
            default: c3[row] = newValue
            }
        }
    }

    public var isIdentity: Bool { self == .identity }

    /// Whether the bottom row is (0, 0, 0, 1): no perspective divide. USD allows any matrix4d and
    /// usd-core divides by w when it transforms a point; glTF and most Collada readers do not.
    public var isAffine: Bool { c0.w == 0 && c1.w == 0 && c2.w == 0 && c3.w == 1 }

    /// Translation and scale along the axes only: no rotation, shear or projection.
    public var isAxisAligned: Bool {
        c0.y == 0 && c0.z == 0 && c0.w == 0 && c1.x == 0 && c1.z == 0 && c1.w == 0
            && c2.x == 0 && c2.y == 0 && c2.w == 0 && c3.w == 1
    }

    public static func * (a: Matrix4x4, b: Matrix4x4) -> Matrix4x4 {
        Matrix4x4(c0: a * b.c0, c1: a * b.c1, c2: a * b.c2, c3: a * b.c3)
    }

    public static func * (m: Matrix4x4, v: SIMD4<Double>) -> SIMD4<Double> {
        m.c0 * v.x + m.c1 * v.y + m.c2 * v.z + m.c3 * v.w
    }

    /// Transforms a position (w = 1), dividing by w when the matrix is projective.
    public func transformPoint(_ p: SIMD3<Double>) -> SIMD3<Double> {
        let r = c0 * p.x + c1 * p.y + c2 * p.z + c3
        if r.w == 1 || r.w == 0 { return SIMD3(r.x, r.y, r.z) }
        return SIMD3(r.x, r.y, r.z) / r.w
    }

    /// Transforms a direction (w = 0): translation does not apply.
    public func transformDirection(_ d: SIMD3<Double>) -> SIMD3<Double> {
        let r = c0 * d.x + c1 * d.y + c2 * d.z
        return SIMD3(r.x, r.y, r.z)
    }

    public var transposed: Matrix4x4 {
        Matrix4x4(
            c0: [c0.x, c1.x, c2.x, c3.x], c1: [c0.y, c1.y, c2.y, c3.y],
            c2: [c0.z, c1.z, c2.z, c3.z], c3: [c0.w, c1.w, c2.w, c3.w])
    }

    /// Determinant of the upper 3x3; negative when the transform mirrors, which flips winding.
    public var linearDeterminant: Double {
        let a = SIMD3(c0.x, c0.y, c0.z), b = SIMD3(c1.x, c1.y, c1.z), c = SIMD3(c2.x, c2.y, c2.z)
        return Vector.dot(a, Vector.cross(b, c))
    }

    public var determinant: Double {
        let m = columnMajorElements
        // Cofactor expansion on 2x2 sub-determinants of the first two and last two columns.
        let s0 = m[0] * m[5] - m[4] * m[1], s1 = m[0] * m[6] - m[4] * m[2]
        let s2 = m[0] * m[7] - m[4] * m[3], s3 = m[1] * m[6] - m[5] * m[2]
        let s4 = m[1] * m[7] - m[5] * m[3], s5 = m[2] * m[7] - m[6] * m[3]
        let t5 = m[10] * m[15] - m[14] * m[11], t4 = m[9] * m[15] - m[13] * m[11]
        let t3 = m[9] * m[14] - m[13] * m[10], t2 = m[8] * m[15] - m[12] * m[11]
        let t1 = m[8] * m[14] - m[12] * m[10], t0 = m[8] * m[13] - m[12] * m[9]
        return s0 * t5 - s1 * t4 + s2 * t3 + s3 * t2 - s4 * t1 + s5 * t0
    }

    /// The inverse, or nil when the matrix is singular.
    public var inverse: Matrix4x4? {
        let m = columnMajorElements
        let s0 = m[0] * m[5] - m[4] * m[1], s1 = m[0] * m[6] - m[4] * m[2]
        let s2 = m[0] * m[7] - m[4] * m[3], s3 = m[1] * m[6] - m[5] * m[2]
        let s4 = m[1] * m[7] - m[5] * m[3], s5 = m[2] * m[7] - m[6] * m[3]
        let t5 = m[10] * m[15] - m[14] * m[11], t4 = m[9] * m[15] - m[13] * m[11]
        let t3 = m[9] * m[14] - m[13] * m[10], t2 = m[8] * m[15] - m[12] * m[11]
        let t1 = m[8] * m[14] - m[12] * m[10], t0 = m[8] * m[13] - m[12] * m[9]
        let det = s0 * t5 - s1 * t4 + s2 * t3 + s3 * t2 - s4 * t1 + s5 * t0
        guard det != 0, det.isFinite else { return nil }
        let k = 1 / det
        let r: [Double] = [
            (m[5] * t5 - m[6] * t4 + m[7] * t3) * k,
            (-m[1] * t5 + m[2] * t4 - m[3] * t3) * k,
            (m[13] * s5 - m[14] * s4 + m[15] * s3) * k,
            (-m[9] * s5 + m[10] * s4 - m[11] * s3) * k,
            (-m[4] * t5 + m[6] * t2 - m[7] * t1) * k,
            (m[0] * t5 - m[2] * t2 + m[3] * t1) * k,
            (-m[12] * s5 + m[14] * s2 - m[15] * s1) * k,
            (m[8] * s5 - m[10] * s2 + m[11] * s1) * k,
            (m[4] * t4 - m[5] * t2 + m[7] * t0) * k,
            (-m[0] * t4 + m[1] * t2 - m[3] * t0) * k,
            (m[12] * s4 - m[13] * s2 + m[15] * s0) * k,
            (-m[8] * s4 + m[9] * s2 - m[11] * s0) * k,
            (-m[4] * t3 + m[5] * t1 - m[6] * t0) * k,
            (m[0] * t3 - m[1] * t1 + m[2] * t0) * k,
            (-m[12] * s3 + m[13] * s1 - m[14] * s0) * k,
            (m[8] * s3 - m[9] * s1 + m[10] * s0) * k,
        ]
        return Matrix4x4(columnMajor: r)
    }

    public var translation: SIMD3<Double> { SIMD3(c3.x, c3.y, c3.z) }

    public func isApproximatelyEqual(to other: Matrix4x4, tolerance: Double = 1e-9) -> Bool {
        let a = columnMajorElements, b = other.columnMajorElements
        return zip(a, b).allSatisfy { abs($0 - $1) <= tolerance * max(1, abs($0), abs($1)) }
    }
}

extension Matrix4x4 {
    public static func translation(_ t: SIMD3<Double>) -> Matrix4x4 {
        var m = Matrix4x4.identity
        m.c3 = SIMD4(t.x, t.y, t.z, 1)
        return m
    }

    public static func scale(_ s: SIMD3<Double>) -> Matrix4x4 {
        Matrix4x4(c0: [s.x, 0, 0, 0], c1: [0, s.y, 0, 0], c2: [0, 0, s.z, 0], c3: [0, 0, 0, 1])
    }

    /// Right-handed rotation by `degrees` about `axis` (normalised here; a zero axis gives identity).
    public static func rotation(axis: SIMD3<Double>, degrees: Double) -> Matrix4x4 {
        let len = Vector.length(axis)
        guard len > 0, len.isFinite else { return .identity }
        let a = axis / len
        let r = degrees * .pi / 180
        // Exact values at quarter turns keep axis-aligned results free of 1e-17 noise.
        let (s, c) = exactSinCos(radians: r, degrees: degrees)
        let t = 1 - c
        return Matrix4x4(
            c0: [t * a.x * a.x + c, t * a.x * a.y + s * a.z, t * a.x * a.z - s * a.y, 0],
            c1: [t * a.x * a.y - s * a.z, t * a.y * a.y + c, t * a.y * a.z + s * a.x, 0],
            c2: [t * a.x * a.z + s * a.y, t * a.y * a.z - s * a.x, t * a.z * a.z + c, 0],
            c3: [0, 0, 0, 1])
    }

    public static func rotation(_ q: Quaternion) -> Matrix4x4 {
        let n = q.normalized
        let (w, x, y, z) = (n.real, n.imaginary.x, n.imaginary.y, n.imaginary.z)
        return Matrix4x4(
            c0: [1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y), 0],
            c1: [2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x), 0],
            c2: [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y), 0],
            c3: [0, 0, 0, 1])
    }

    private static func exactSinCos(radians: Double, degrees: Double) -> (Double, Double) {
        let turns = degrees / 90
        if turns == turns.rounded(), abs(turns) < 1e9 {
            switch ((Int(turns) % 4) + 4) % 4 {
            case 0: return (0, 1)
            case 1: return (1, 0)
            case 2: return (0, -1)
            default: return (-1, 0)
            }
        }
        return (sin(radians), cos(radians))
    }
}

/// The real spherical-harmonic basis 3DGS colours its splats with, up to degree 3, with the signs
/// and constants of the INRIA renderer (which the USD schema and the glTF extension adopt): a
/// splat's colour seen along unit direction d (from the camera to the splat) is
/// `sum_k coefficient_k * basis_k(d) + 0.5`.
public enum SplatHarmonics {
    public static let c0: Float = 0.28209479177387814
    public static let c1: Float = 0.4886025119029199
    public static let c2: (Float, Float, Float, Float, Float) = (1.0925484305920792, -1.0925484305920792, 0.31539156525252005,
                                                               -1.0925484305920792, 0.5462742152960396)
    public static let c3: (Float, Float, Float, Float, Float, Float, Float) = (-0.5900435899266435, 2.890611442640554, -0.4570457994644658,
                                                                           0.3731763325901154, -0.4570457994644658, 1.445305721320277,
                                                                           -0.5900435899266435)

    /// The first `(degree + 1)^2` basis values at `d`, in the coefficients' order.
    @inlinable public static func basis(_ d: SIMD3<Float>, degree: Int) -> [Float] {
        var out = [Float](repeating: 0, count: 16)
        basis(d, degree: degree, into: &out)
        return Array(out.prefix((degree + 1) * (degree + 1)))
    }

    /// The basis values at `d` written into `out` (16 long).
    @inlinable public static func basis(_ d: SIMD3<Float>, degree: Int, into out: inout [Float]) {
        let values = basisVector(d, degree: degree), order = min(max(degree, 0), 3) + 1
        for k in 0..<(order * order) { out[k] = values[k] }
    }

    /// The basis values at `d` as one vector (those past `degree` zero): what a loop over a
    /// million splats evaluates, in registers rather than through an array.
    @inlinable @inline(__always) public static func basisVector(_ d: SIMD3<Float>, degree: Int) -> SIMD16<Float> {
        let (x, y, z) = (d.x, d.y, d.z)
        var out = SIMD16<Float>.zero
        out[0] = c0
        guard degree >= 1 else { return out }
        out[1] = -c1 * y; out[2] = c1 * z; out[3] = -c1 * x
        guard degree >= 2 else { return out }
        let (xx, yy, zz, xy, yz, xz) = (x * x, y * y, z * z, x * y, y * z, x * z)
        out[4] = c2.0 * xy
        out[5] = c2.1 * yz
        out[6] = c2.2 * (2 * zz - xx - yy)
        out[7] = c2.3 * xz
        out[8] = c2.4 * (xx - yy)
        guard degree >= 3 else { return out }
        out[9] = c3.0 * y * (3 * xx - yy)
        out[10] = c3.1 * xy * z
        out[11] = c3.2 * y * (4 * zz - xx - yy)
        out[12] = c3.3 * z * (2 * zz - 3 * xx - 3 * yy)
        out[13] = c3.4 * x * (4 * zz - xx - yy)
        out[14] = c3.5 * z * (xx - yy)
        out[15] = c3.6 * x * (xx - 3 * yy)
        return out
    }

    /// `base` plus what `count` coefficients (RGB triples at `coefficients`, `count` a square up
    /// to 16) give along `d`, added in the coefficients' order onto `base`.
    @inlinable @inline(__always)
    public static func colour(_ coefficients: UnsafePointer<Float>, count: Int, direction d: SIMD3<Float>, adding base: SIMD3<Float>) -> SIMD3<Float> {
        let degree = count >= 16 ? 3 : count >= 9 ? 2 : count >= 4 ? 1 : 0
        let b = basisVector(d, degree: degree)
        var colour = base
        for q in 0..<min(count, 16) { colour += SIMD3(coefficients[3 * q], coefficients[3 * q + 1], coefficients[3 * q + 2]) * b[q] }
        return colour
    }

    /// The colour (before the + 0.5) that `coefficients` (RGB triples, `(degree + 1)^2` of them)
    /// give along `d`.
    @inlinable public static func evaluate(_ coefficients: UnsafePointer<Float>, degree: Int, direction d: SIMD3<Float>) -> SIMD3<Float> {
        var basis = [Float](repeating: 0, count: 16)
        Self.basis(d, degree: degree, into: &basis)
        var colour = SIMD3<Float>.zero
        for k in 0..<((degree + 1) * (degree + 1)) {
            let coefficient = SIMD3<Float>(coefficients[3 * k], coefficients[3 * k + 1], coefficients[3 * k + 2])
            colour += coefficient * basis[k]
        }
        return colour
    }

    /// For each degree 1...`degree`, the matrix (row-major, `2l+1` square) that re-expresses that
    /// band's coefficients after the directions turn by the orthogonal `q` (rotation or mirror):
    /// the new coefficients describe f(q^-1 d) where the old described f(d).
    ///
    /// Found numerically instead of by the Ivanic-Ruedenberg recurrences: a band is closed under
    /// orthogonal maps, so fitting the turned band's values at a few more directions than it has
    /// functions gives the matrix exactly (to rounding), and by construction with the same basis,
    /// signs and constants the renderer evaluates.
    public static func bandMatrices(for q: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>), degree: Int) -> [[Double]] {
        let directions = fibonacciSphere(24)
        // q^-1 = q^T for an orthogonal matrix; columns of q are given, so q^T d is (col . d).
        let turned = directions.map { d in SIMD3((q.0 * d).sum(), (q.1 * d).sum(), (q.2 * d).sum()) }
        func values(_ d: SIMD3<Double>) -> [Double] { basis(SIMD3<Float>(Float(d.x), Float(d.y), Float(d.z)), degree: 3).map(Double.init) }
        let before = directions.map(values), after = turned.map(values)
        var matrices: [[Double]] = []
        for l in stride(from: 1, through: degree, by: 1) {
            let first = l * l, n = 2 * l + 1
            // Least squares: B c' = A c for every c, so M = (B^T B)^-1 B^T A.
            var normal = [Double](repeating: 0, count: n * n), right = [Double](repeating: 0, count: n * n)
            for (b, a) in zip(before, after) {
                for i in 0..<n {
                    for j in 0..<n {
                        normal[i * n + j] += b[first + i] * b[first + j]
                        right[i * n + j] += b[first + i] * a[first + j]
                    }
                }
            }
            matrices.append(solve(normal, right, n))
        }
        return matrices
    }

    /// `n` directions spread evenly over the sphere.
    static func fibonacciSphere(_ n: Int) -> [SIMD3<Double>] {
        let golden = Double.pi * (3 - 5.0.squareRoot())
        return (0..<n).map { i in
            let y = 1 - 2 * (Double(i) + 0.5) / Double(n)
            let r = (1 - y * y).squareRoot()
            let phi = golden * Double(i)
            return SIMD3(r * cos(phi), y, r * sin(phi))
        }
    }

    /// X with `a X = b` for n x n row-major matrices, by Gauss-Jordan with partial pivoting
    /// (`a` is a Gram matrix of independent functions: well conditioned).
    static func solve(_ a: [Double], _ b: [Double], _ n: Int) -> [Double] {
        var a = a, b = b
        for col in 0..<n {
            let pivot = (col..<n).max { abs(a[$0 * n + col]) < abs(a[$1 * n + col]) }!
            if pivot != col {
                for k in 0..<n { a.swapAt(col * n + k, pivot * n + k); b.swapAt(col * n + k, pivot * n + k) }
            }
            let p = a[col * n + col]
            for k in 0..<n { a[col * n + k] /= p; b[col * n + k] /= p }
            for row in 0..<n where row != col {
                let f = a[row * n + col]
                guard f != 0 else { continue }
                for k in 0..<n { a[row * n + k] -= f * a[col * n + k]; b[row * n + k] -= f * b[col * n + k] }
            }
        }
        return b
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terms of the glTF 2.0 BRDF (its Appendix B), one function each, with `alpha` the
/// perceptual roughness squared as glTF defines it.
enum BRDF {
    /// Trowbridge-Reitz (GGX) normal distribution.
    @inline(__always) static func distribution(nDotH: Float, alpha: Float) -> Float {
        let a2 = alpha * alpha
        let d = nDotH * nDotH * (a2 - 1) + 1
        return a2 / (Float.pi * d * d)
    }

    /// The height-correlated Smith visibility term V = G / (4 n·l n·v) (Heitz 2014).
    @inline(__always) static func visibility(nDotL: Float, nDotV: Float, alpha: Float) -> Float {
        let a2 = alpha * alpha
        let ggxV = nDotL * (nDotV * nDotV * (1 - a2) + a2).squareRoot()
        let ggxL = nDotV * (nDotL * nDotL * (1 - a2) + a2).squareRoot()
        let sum = ggxV + ggxL
        return sum > 0 ? 0.5 / sum : 0
    }

    /// Schlick's Fresnel weight (1 - cos)^5.
    @inline(__always) static func schlickWeight(_ cosine: Float) -> Float {
        let m = min(max(1 - cosine, 0), 1)
        let m2 = m * m
        return m2 * m2 * m
    }

    /// The reflectance at normal incidence of a dielectric of this index of refraction (0.04 at 1.5).
    @inline(__always) static func dielectricF0(ior: Float) -> Float {
        let r = (ior - 1) / (ior + 1)
        return r * r
    }

    /// The i-th of n points of the Hammersley set in the unit square.
    @inline(__always) static func hammersley(_ i: Int, _ n: Int) -> SIMD2<Float> {
        var bits = UInt32(truncatingIfNeeded: i)
        bits = (bits << 16) | (bits >> 16)
        bits = ((bits & 0x5555_5555) << 1) | ((bits & 0xAAAA_AAAA) >> 1)
        bits = ((bits & 0x3333_3333) << 2) | ((bits & 0xCCCC_CCCC) >> 2)
        bits = ((bits & 0x0F0F_0F0F) << 4) | ((bits & 0xF0F0_F0F0) >> 4)
        bits = ((bits & 0x00FF_00FF) << 8) | ((bits & 0xFF00_FF00) >> 8)
        return SIMD2(Float(i) / Float(n), Float(bits) * 2.328_306_4e-10)
    }

    /// A half vector drawn from the GGX distribution around +Z, for point `xi` of the unit square.
    @inline(__always) static func sampleHalfVector(_ xi: SIMD2<Float>, alpha: Float) -> SIMD3<Float> {
        let a2 = alpha * alpha
        let phi = 2 * Float.pi * xi.x
        let cosTheta = ((1 - xi.y) / (1 + (a2 - 1) * xi.y)).squareRoot()
        let sinTheta = max(1 - cosTheta * cosTheta, 0).squareRoot()
        return SIMD3(cosf(phi) * sinTheta, sinf(phi) * sinTheta, cosTheta)
    }

    /// Two unit vectors completing `n` to an orthonormal frame (Frisvad's, with Duff et al.'s fix).
    @inline(__always) static func frame(_ n: SIMD3<Float>) -> (SIMD3<Float>, SIMD3<Float>) {
        let sign: Float = n.z >= 0 ? 1 : -1
        let a = -1 / (sign + n.z)
        let b = n.x * n.y * a
        return (SIMD3(1 + sign * n.x * n.x * a, sign * b, -sign * n.x), SIMD3(b, sign + n.y * n.y * a, -n.y))
    }
}

/// The split-sum table (Karis 2013): for each n·v and perceptual roughness, the scale A and bias
/// B with which the specular lobe's integral over a uniform white environment is F0·A + B. With the
/// height-correlated visibility, as the direct BRDF uses. A + B below 1 is the energy single
/// scattering loses; the shader gives it back (Fdez-Agüera 2019), so a white furnace stays white.
struct BRDFTable: Sendable {
    static let size = 32
    static let samples = 256
    let values: [SIMD2<Float>]

    static let shared = BRDFTable()
    /// For the headlight, which never looks anything up: the table is computed only when it lights.
    static let unused = BRDFTable(values: Array(repeating: .zero, count: size * size))

    private init(values: [SIMD2<Float>]) { self.values = values }

    init() {
        let n = Self.size
        var values = [SIMD2<Float>](repeating: .zero, count: n * n)
        for row in 0..<n {
            let roughness = (Float(row) + 0.5) / Float(n)
            let alpha = roughness * roughness
            for column in 0..<n {
                let nDotV = (Float(column) + 0.5) / Float(n)
                let v = SIMD3<Float>((1 - nDotV * nDotV).squareRoot(), 0, nDotV)
                var a: Float = 0, b: Float = 0
                for i in 0..<Self.samples {
                    let h = BRDF.sampleHalfVector(BRDF.hammersley(i, Self.samples), alpha: alpha)
                    let vDotH = (v * h).sum()
                    let l = 2 * vDotH * h - v
                    let nDotL = l.z, nDotH = h.z
                    guard nDotL > 0, vDotH > 0 else { continue }
                    // pdf(l) = D n·h / (4 v·h), so each sample weighs V·4·(n·l)(v·h)/(n·h).
                    let weight = BRDF.visibility(nDotL: nDotL, nDotV: nDotV, alpha: alpha) * 4 * nDotL * vDotH / nDotH
                    let fc = BRDF.schlickWeight(vDotH)
                    a += (1 - fc) * weight
                    b += fc * weight
                }
                values[row * n + column] = SIMD2(a, b) / Float(Self.samples)
            }
        }
        self.values = values
    }

    /// (A, B), bilinear between the table's cell centres.
    @inline(__always) func lookup(nDotV: Float, roughness: Float) -> SIMD2<Float> {
        let n = Self.size
        let x = min(max(nDotV * Float(n) - 0.5, 0), Float(n - 1)), y = min(max(roughness * Float(n) - 0.5, 0), Float(n - 1))
        let x0 = Int(x), y0 = Int(y)
        let x1 = min(x0 + 1, n - 1), y1 = min(y0 + 1, n - 1)
        let fx = x - Float(x0), fy = y - Float(y0)
        let top = values[y0 * n + x0] + (values[y0 * n + x1] - values[y0 * n + x0]) * fx
        let bottom = values[y1 * n + x0] + (values[y1 * n + x1] - values[y1 * n + x0]) * fx
        return top + (bottom - top) * fy
    }
}

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

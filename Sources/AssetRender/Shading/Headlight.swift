#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SceneKit's default lighting (`--lighting headlight`): Lambert from a light at the eye over 30%
/// ambient, and a Blinn-Phong highlight whose half vector is the view vector.
enum Headlight {
    static let ambient: Float = 0.3

    static func shade(_ s: SurfaceSample, normal: SIMD3<Float>, v: SIMD3<Float>) -> SIMD3<Float> {
        let nDotV = abs((normal * v).sum())
        let diffuse = ambient + (1 - ambient) * nDotV
        let r = max(s.roughness, 0.05)
        let shininess = min(max(2 / (r * r) - 2, 2), 256)
        let specular = 0.25 * (1 - r) * (1 - r) * powf(nDotV, shininess)
        return s.baseColor * diffuse + SIMD3(repeating: specular)
    }
}

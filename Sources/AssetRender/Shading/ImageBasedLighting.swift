#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The glTF BRDF under an environment, with the split-sum approximation: diffuse from the
/// irradiance harmonics, specular from the prefiltered level of the roughness times F0·A + B, the
/// energy single scattering loses given back as multiple scattering (Fdez-Agüera 2019), so no
/// roughness loses or gains light in a white furnace. Occlusion darkens it all: all of it is
/// indirect light. A clear coat adds a dielectric lobe of its own over the base. One function a
/// lobe, as the Khronos sample renderer's `ibl.glsl` splits them.
enum ImageBasedLighting {
    /// Roughness below this reflects the mirror level and the table's first row anyway.
    static let minimumRoughness: Float = 0.02

    /// How much of the environment the base's specular lobe reflects at this view: single
    /// scattering (F0·A + B with the rough-surface Fresnel) and the multiple scattering that gives
    /// back what single scattering loses. The diffuse lobe gets what both leave.
    struct SpecularWeights {
        let singleScattering: SIMD3<Float>
        let multipleScattering: SIMD3<Float>
    }

    @inline(__always) static func shade(_ s: SurfaceSample, normal n: SIMD3<Float>, v: SIMD3<Float>, setup: LightingSetup) -> SIMD3<Float> {
        let nDotV = min(max((n * v).sum(), 1e-4), 1)
        let roughness = max(s.roughness, minimumRoughness)
        let weights = specularWeights(s, nDotV: nDotV, roughness: roughness, table: setup.table)
        let color = (specular(normal: n, v: v, nDotV: nDotV, roughness: roughness, weights: weights, setup: setup)
                     + diffuse(s, normal: n, weights: weights, setup: setup)) * s.occlusion
        return s.clearcoat > 0 ? clearcoat(s, over: color, v: v, setup: setup) : color
    }

    @inline(__always) static func specularWeights(_ s: SurfaceSample, nDotV: Float, roughness: Float, table: BRDFTable) -> SpecularWeights {
        let ab = table.lookup(nDotV: nDotV, roughness: roughness)
        // Fresnel rising toward grazing angles, held back on rough surfaces (Fdez-Agüera).
        let fr = simd_max0(SIMD3(repeating: 1 - roughness) - s.f0)
        let kS = s.f0 + fr * BRDF.schlickWeight(nDotV)
        let fssEss = kS * ab.x + SIMD3(repeating: ab.y)
        let ess = ab.x + ab.y
        let ems = 1 - ess
        let fAverage = s.f0 + (SIMD3(repeating: 1) - s.f0) / 21
        let fmsEms = ems * fssEss * fAverage / (SIMD3(repeating: 1) - fAverage * ems)
        return SpecularWeights(singleScattering: fssEss, multipleScattering: fmsEms)
    }

    /// The base's specular lobe: the prefiltered level of its roughness toward the mirror direction.
    @inline(__always) static func specular(normal n: SIMD3<Float>, v: SIMD3<Float>, nDotV: Float, roughness: Float,
                                           weights: SpecularWeights, setup: LightingSetup) -> SIMD3<Float> {
        let r = 2 * nDotV * n - v
        return weights.singleScattering * setup.environment.specular(setup.environmentDirection(r), roughness: roughness)
    }

    /// The diffuse lobe (Lambert from the irradiance harmonics), with the multiple scattering of
    /// the specular lobe, which is as spread out as diffuse light.
    @inline(__always) static func diffuse(_ s: SurfaceSample, normal n: SIMD3<Float>, weights: SpecularWeights, setup: LightingSetup) -> SIMD3<Float> {
        let kD = s.diffuseColor * (SIMD3(repeating: 1) - weights.singleScattering - weights.multipleScattering)
        return (weights.multipleScattering + kD) * setup.environment.diffuse(setup.environmentDirection(n))
    }

    /// A dielectric coat (F0 0.04) on the geometric normal over `base`, which it dims by its Fresnel.
    @inline(__always) static func clearcoat(_ s: SurfaceSample, over base: SIMD3<Float>, v: SIMD3<Float>, setup: LightingSetup) -> SIMD3<Float> {
        let g = s.geometricNormal
        let cDotV = min(max((g * v).sum(), 1e-4), 1)
        let cr = 2 * cDotV * g - v
        let cRoughness = max(s.clearcoatRoughness, minimumRoughness)
        let cab = setup.table.lookup(nDotV: cDotV, roughness: cRoughness)
        let coatF0: Float = 0.04
        let fresnel = coatF0 + (1 - coatF0) * BRDF.schlickWeight(cDotV)
        let coat = setup.environment.specular(setup.environmentDirection(cr), roughness: cRoughness) * (coatF0 * cab.x + cab.y) * s.occlusion
        return base * (1 - s.clearcoat * fresnel) + coat * s.clearcoat
    }
}

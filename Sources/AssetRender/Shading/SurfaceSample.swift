#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A material's inputs at one fragment, gathered once before any lighting (as the Khronos sample
/// renderer's `MaterialInfo`): every constant times its texture, in linear light.
struct SurfaceSample {
    var baseColor: SIMD3<Float>
    var opacity: Float
    var metallic: Float
    /// Perceptual roughness, glTF's; alpha is its square.
    var roughness: Float
    var occlusion: Float
    var emissive: SIMD3<Float>
    /// Reflectance at normal incidence; from the ior (dielectric), the base colour (metal), or the
    /// specular colour in the specular workflow.
    var f0: SIMD3<Float>
    var diffuseColor: SIMD3<Float>
    var clearcoat: Float
    var clearcoatRoughness: Float
    var normal = SIMD3<Float>(0, 1, 0)
    var geometricNormal = SIMD3<Float>(0, 1, 0)
    var usesSpecularWorkflow: Bool

    static func unbound(color: SIMD3<Float>) -> SurfaceSample {
        SurfaceSample(baseColor: color, opacity: 1, metallic: 0, roughness: 0.5, occlusion: 1, emissive: .zero,
                      f0: SIMD3(repeating: 0.04), diffuseColor: color, clearcoat: 0, clearcoatRoughness: 0, usesSpecularWorkflow: false)
    }

    init(baseColor: SIMD3<Float>, opacity: Float, metallic: Float, roughness: Float, occlusion: Float, emissive: SIMD3<Float>,
         f0: SIMD3<Float>, diffuseColor: SIMD3<Float>, clearcoat: Float, clearcoatRoughness: Float, usesSpecularWorkflow: Bool) {
        self.baseColor = baseColor
        self.opacity = opacity
        self.metallic = metallic
        self.roughness = roughness
        self.occlusion = occlusion
        self.emissive = emissive
        self.f0 = f0
        self.diffuseColor = diffuseColor
        self.clearcoat = clearcoat
        self.clearcoatRoughness = clearcoatRoughness
        self.usesSpecularWorkflow = usesSpecularWorkflow
    }

    /// `tint`, the vertex colour, multiplies the base colour before the diffuse colour and F0 are
    /// made from it (multiplied after, it reached the headlight's shading only, and environment
    /// light drew vertex-coloured materials in their plain base colour).
    // Borrowed: an initializer takes its arguments owned, which copied the draw mesh (a retain of
    // each of its arrays) at every fragment.
    @inline(__always) init(_ input: borrowing MaterialInputs, mesh: borrowing DrawMesh, triangle: Int, _ b: SIMD3<Float>, tint: SIMD3<Float> = .one) {
        if let t = input.baseColor?.texel(mesh, triangle: triangle, b) { baseColor = SIMD3(t.x, t.y, t.z) } else { baseColor = input.baseColorValue }
        baseColor *= tint
        opacity = input.opacity?.scalar(mesh, triangle: triangle, b) ?? input.opacityValue
        metallic = Self.unit(input.metallic?.scalar(mesh, triangle: triangle, b) ?? input.metallicValue)
        roughness = Self.unit(input.roughness?.scalar(mesh, triangle: triangle, b) ?? input.roughnessValue)
        occlusion = Self.unit(input.occlusion?.scalar(mesh, triangle: triangle, b) ?? 1)
        if let t = input.emissive?.texel(mesh, triangle: triangle, b) { emissive = simd_max0(SIMD3(t.x, t.y, t.z)) } else { emissive = simd_max0(input.emissiveValue) }
        clearcoat = Self.unit(input.clearcoat?.scalar(mesh, triangle: triangle, b) ?? input.clearcoatValue)
        clearcoatRoughness = Self.unit(input.clearcoatRoughness?.scalar(mesh, triangle: triangle, b) ?? input.clearcoatRoughnessValue)
        usesSpecularWorkflow = input.usesSpecularWorkflow
        baseColor = simd_max0(baseColor)
        if input.usesSpecularWorkflow {
            var s = input.specularColorValue
            if let t = input.specularColor?.texel(mesh, triangle: triangle, b) { s = SIMD3(t.x, t.y, t.z) }
            f0 = simd_max0(s)
            diffuseColor = baseColor
        } else {
            let dielectric = SIMD3<Float>(repeating: input.dielectricF0)
            f0 = dielectric + (baseColor - dielectric) * metallic
            diffuseColor = baseColor * (1 - metallic)
        }
    }

    @inline(__always) static func unit(_ x: Float) -> Float { x.isNaN ? 0 : min(max(x, 0), 1) }
}

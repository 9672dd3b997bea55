import AssetCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lighting like SceneKit's `autoenablesDefaultLighting`: an omni light at the camera plus ambient.
/// Base colour from the material (constant or texture) times vertex colours, a touch of specular
/// from roughness, emission added; double-sided (the normal turns to face the viewer).
/// Returns premultiplied linear RGBA.
struct SurfaceShader: FragmentShader {
    static let ambient: Float = 0.3
    static let defaultColor = SIMD3<Float>(0.8, 0.8, 0.8)

    let mesh: DrawMesh
    let materials: [Material]
    let samplers: [Int: TextureSampler]
    let eye: SIMD3<Float>
    /// Per material, which of the mesh's texcoord sets its base colour texture reads.
    let baseColorSet: [Int]

    func shade(triangle: Int, barycentric b: SIMD3<Float>) -> SIMD4<Float> {
        let i0 = Int(mesh.indices[3 * triangle]), i1 = Int(mesh.indices[3 * triangle + 1]), i2 = Int(mesh.indices[3 * triangle + 2])
        let position = mesh.positions[i0] * b.x + mesh.positions[i1] * b.y + mesh.positions[i2] * b.z
        let (n0, n1, n2) = mesh.normals.corners(of: triangle)
        var normal = n0 * b.x + n1 * b.y + n2 * b.z
        let toEye = eye - position
        let viewLength = (toEye * toEye).sum().squareRoot()
        let v = viewLength > 0 ? toEye / viewLength : SIMD3(0, 0, 1)
        let nLength = (normal * normal).sum().squareRoot()
        normal = nLength > 0 ? normal / nLength : v
        var nDotV = (normal * v).sum()
        if nDotV < 0 { nDotV = -nDotV }  // back faces light like front faces

        let materialIndex = Int(mesh.triangleMaterials[triangle])
        var base = Self.defaultColor
        var opacity: Float = 1
        var roughness: Float = 0.5
        var emissive = SIMD3<Float>.zero
        if materialIndex >= 0 && materialIndex < materials.count {
            let m = materials[materialIndex]
            base = m.baseColor.value
            opacity = m.opacity.value
            roughness = m.roughness.value
            emissive = m.emissive.value
            if let sampler = samplers[materialIndex] {
                let set = baseColorSet[materialIndex]
                if set < mesh.texcoords.count {
                    let (t0, t1, t2) = mesh.texcoords[set].corners(of: triangle)
                    var st = t0 * b.x + t1 * b.y + t2 * b.z
                    if let transform = m.baseColor.texture?.transform { st = transform.apply(st) }
                    var texel = sampler.sample(st)
                    // UsdUVTexture's scale and bias (glTF's base colour factor) apply to the texel.
                    if let reference = m.baseColor.texture { texel = texel * (reference.scale ?? .one) + (reference.bias ?? .zero) }
                    base = SIMD3(texel.x, texel.y, texel.z)
                    opacity *= texel.w
                }
            }
        }
        if let colors = mesh.colors {
            let (c0, c1, c2) = colors.corners(of: triangle)
            let c = c0 * b.x + c1 * b.y + c2 * b.z
            base *= SIMD3(c.x, c.y, c.z)
            opacity *= c.w
        }
        let diffuse = Self.ambient + (1 - Self.ambient) * nDotV
        // Blinn-Phong with the light at the eye: the half vector is the view vector.
        let r = max(roughness, 0.05)
        let shininess = min(max(2 / (r * r) - 2, 2), 256)
        let specular = 0.25 * (1 - r) * (1 - r) * Float(pow(Double(nDotV), Double(shininess)))
        let rgb = base * diffuse + SIMD3(repeating: specular) + emissive
        let a = min(max(opacity, 0), 1)
        return SIMD4(rgb * a, a)
    }
}

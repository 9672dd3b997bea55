import AssetCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How surfaces are lit.
public enum Lighting: String, Sendable, CaseIterable {
    /// The glTF BRDF lit by an environment (`RenderOptions.environment`, else the studio).
    case environment
    /// SceneKit's `autoenablesDefaultLighting`: an omni light at the camera plus ambient, Lambert
    /// and a Blinn-Phong highlight; the look thumbnails had before environment lighting.
    case headlight
}

/// Where a fragment's light comes from and how it reaches the picture, shared by every mesh of a render.
struct LightingSetup {
    let lighting: Lighting
    let environment: PrefilteredEnvironment
    /// World direction -> the environment's Y-up frame (up-axis correction, then the rotation about up).
    let toEnvironment: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
    /// 2^EV.
    let exposure: Float
    let toneMapping: ToneMapping
    let table: BRDFTable

    @inline(__always) func environmentDirection(_ d: SIMD3<Float>) -> SIMD3<Float> {
        toEnvironment.0 * d.x + toEnvironment.1 * d.y + toEnvironment.2 * d.z
    }
}

/// The fragment shader: gathers the material's inputs at the fragment (`SurfaceSample`), then
/// lights them. Returns premultiplied, tone-mapped linear RGBA, or nil where a MASK material cuts.
struct SurfaceShader: FragmentShader {
    static let defaultColor = SIMD3<Float>(0.8, 0.8, 0.8)

    let mesh: DrawMesh
    /// Per scene material.
    let inputs: [MaterialInputs]
    let eye: SIMD3<Float>
    let setup: LightingSetup

    var windingFlipped: Bool { mesh.windingFlipped }

    func cullsBackFaces(triangle: Int) -> Bool {
        let m = Int(mesh.triangleMaterials[triangle])
        return m >= 0 && m < inputs.count && !inputs[m].doubleSided
    }

    func shade(triangle: Int, barycentric b: SIMD3<Float>, frontFacing: Bool) -> SIMD4<Float>? {
        let i0 = Int(mesh.indices[3 * triangle]), i1 = Int(mesh.indices[3 * triangle + 1]), i2 = Int(mesh.indices[3 * triangle + 2])
        let position = mesh.positions[i0] * b.x + mesh.positions[i1] * b.y + mesh.positions[i2] * b.z
        let toEye = eye - position
        let viewLength = (toEye * toEye).sum().squareRoot()
        let v = viewLength > 0 ? toEye / viewLength : SIMD3(0, 0, 1)
        let (n0, n1, n2) = mesh.normals.corners(of: triangle)
        var normal = n0 * b.x + n1 * b.y + n2 * b.z
        let nLength = (normal * normal).sum().squareRoot()
        normal = nLength > 0 ? normal / nLength : v
        // A back face (of a double-sided material) is lit as the surface's other side.
        if !frontFacing { normal = -normal }

        let m = Int(mesh.triangleMaterials[triangle])
        guard m >= 0 && m < inputs.count else {
            return finish(SurfaceSample.unbound(color: vertexColor(triangle, b)), normal: normal, v: v, alpha: 1)
        }
        let input = inputs[m]
        // No closures here (`Optional.map`): one that captures the shader copied the whole draw
        // mesh, a retain and release of each of its arrays, at every fragment.
        var vertexColor: SIMD4<Float>?
        if mesh.colors != nil { vertexColor = Self.interpolate(mesh.colors.unsafelyUnwrapped, triangle, b) }
        // The vertex colour tints the base colour where the material says so (glTF's COLOR_0, a USD
        // primvar reader on diffuseColor); a USD, FBX, Collada or OBJ material bound over vertex
        // colours shades without them, as usdview, Blender and Cycles do. SceneKit's headlight
        // look multiplies them always, as SceneKit does.
        let tints = input.baseColorFromVertexColor || setup.lighting == .headlight
        var tint = SIMD3<Float>.one
        if tints, let c = vertexColor { tint = SIMD3(c.x, c.y, c.z) }
        var sample = SurfaceSample(input, mesh: mesh, triangle: triangle, b, tint: tint)
        var alpha: Float = 1
        // Under OPAQUE the vertex colour's alpha is ignored, as the material's is; its colour is not.
        if input.alphaMode != .opaque {
            alpha = sample.opacity
            if let vertexColor { alpha *= vertexColor.w }
            if input.alphaMode == .mask {
                guard alpha >= input.opacityThreshold else { return nil }
                alpha = 1
            }
            alpha = min(max(alpha, 0), 1)
        }
        var shadingNormal = normal
        if let map = input.normal { shadingNormal = perturb(normal, by: map, triangle: triangle, b, frontFacing: frontFacing) }
        sample.normal = shadingNormal
        sample.geometricNormal = normal
        return finish(sample, normal: shadingNormal, v: v, alpha: alpha)
    }

    @inline(__always) static func interpolate(_ c: CornerAttribute<SIMD4<Float>>, _ triangle: Int, _ b: SIMD3<Float>) -> SIMD4<Float> {
        let (c0, c1, c2) = c.corners(of: triangle)
        return c0 * b.x + c1 * b.y + c2 * b.z
    }

    private func vertexColor(_ triangle: Int, _ b: SIMD3<Float>) -> SIMD3<Float> {
        guard let c = mesh.colors else { return Self.defaultColor }
        let color = Self.interpolate(c, triangle, b)
        return SIMD3(color.x, color.y, color.z)
    }

    /// The normal map's tangent-space normal taken to world space through the fragment's tangent
    /// frame: tangents from the file or generated (`DrawMesh.tangents`), w the bitangent's sign,
    /// so mirrored texture coordinates bend the right way.
    private func perturb(_ n: SIMD3<Float>, by map: TexturedInput, triangle: Int, _ b: SIMD3<Float>, frontFacing: Bool) -> SIMD3<Float> {
        guard let tangents = mesh.tangents else { return n }
        let (t0, t1, t2) = tangents.corners(of: triangle)
        let t4 = t0 * b.x + t1 * b.y + t2 * b.z
        var t = SIMD3(t4.x, t4.y, t4.z)
        t -= n * (n * t).sum()
        let tLength = (t * t).sum().squareRoot()
        guard tLength > 1e-8 else { return n }
        t /= tLength
        // On a back face the normal was flipped: the bitangent stays where the texture put it.
        let sign: Float = (t4.w < 0 ? -1 : 1) * (frontFacing ? 1 : -1)
        let bitangent = Self.cross(n, t) * sign
        let m = map.texel(mesh, triangle: triangle, b)
        let perturbed = t * m.x + bitangent * m.y + n * m.z
        let length = (perturbed * perturbed).sum().squareRoot()
        return length > 1e-8 ? perturbed / length : n
    }

    @inline(__always) static func cross(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    private func finish(_ sample: SurfaceSample, normal: SIMD3<Float>, v: SIMD3<Float>, alpha: Float) -> SIMD4<Float> {
        var rgb: SIMD3<Float>
        switch setup.lighting {
        case .environment: rgb = ImageBasedLighting.shade(sample, normal: normal, v: v, setup: setup)
        case .headlight: rgb = Headlight.shade(sample, normal: normal, v: v)
        }
        rgb = setup.toneMapping.map((rgb + sample.emissive) * setup.exposure)
        return SIMD4(rgb * alpha, alpha)
    }
}

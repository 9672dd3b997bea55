import AssetCore
import AssetImage

/// One textured material input made ready to sample on one mesh: the decoded image, which of the
/// mesh's texcoord sets it reads, and UsdUVTexture's transform, scale and bias.
struct TexturedInput {
    let sampler: TextureSampler
    /// Index into the draw mesh's texcoord sets; texture coordinates (0, 0) when the mesh has none.
    let set: Int
    let transform: TextureTransform?
    let scale: SIMD4<Float>
    let bias: SIMD4<Float>
    let channel: Int

    /// texel × scale + bias at the triangle's barycentric point.
    @inline(__always) func texel(_ mesh: DrawMesh, triangle: Int, _ b: SIMD3<Float>) -> SIMD4<Float> {
        var st = SIMD2<Float>.zero
        if set < mesh.texcoords.count {
            let (t0, t1, t2) = mesh.texcoords[set].corners(of: triangle)
            st = t0 * b.x + t1 * b.y + t2 * b.z
        }
        if let transform { st = transform.apply(st) }
        return sampler.sample(st) * scale + bias
    }

    @inline(__always) func scalar(_ mesh: DrawMesh, triangle: Int, _ b: SIMD3<Float>) -> Float {
        texel(mesh, triangle: triangle, b)[channel]
    }
}

/// A material's inputs for one mesh: constants, and the textured inputs that replace them.
/// Built once per placed mesh, so a fragment only samples. A class: a fragment takes its
/// material by reference, where copying the struct retained every sampler and string in it (a
/// fifth of a small thumbnail went to that traffic, by perf).
final class MaterialInputs {
    let alphaMode: Material.AlphaMode
    /// The material's constants a fragment reads, taken out once: a fragment that read them from
    /// the material copied the whole of it (its name, its references' names, its shading network),
    /// a retain and release of each at every fragment, on both cores at once.
    let baseColorValue, emissiveValue, specularColorValue: SIMD3<Float>
    let opacityValue, opacityThreshold, metallicValue, roughnessValue, clearcoatValue, clearcoatRoughnessValue: Float
    let usesSpecularWorkflow, baseColorFromVertexColor: Bool
    let baseColor: TexturedInput?
    let opacity: TexturedInput?
    let metallic: TexturedInput?
    let roughness: TexturedInput?
    let emissive: TexturedInput?
    let normal: TexturedInput?
    let occlusion: TexturedInput?
    let specularColor: TexturedInput?
    let clearcoat: TexturedInput?
    let clearcoatRoughness: TexturedInput?
    /// F0 of the dielectric part, from the index of refraction.
    let dielectricF0: Float
    /// Back faces are drawn (glTF doubleSided, USD doubleSided on the mesh) and lit from behind.
    let doubleSided: Bool

    /// The texcoord set a reference names, by name among the mesh's sets; set 0 when the name is
    /// not there (USD's `st` against Collada's `UVMap`, say), as every viewer falls back.
    static func set(_ name: String, in source: Mesh) -> Int {
        source.texcoordSets.firstIndex { $0.name == name } ?? 0
    }

    init(_ material: Material, mesh source: Mesh, images: TextureImages) {
        alphaMode = material.alphaMode
        baseColorValue = material.baseColor.value
        opacityValue = material.opacity.value
        opacityThreshold = material.opacityThreshold
        metallicValue = material.metallic.value
        roughnessValue = material.roughness.value
        emissiveValue = material.emissive.value
        clearcoatValue = material.clearcoat.value
        clearcoatRoughnessValue = material.clearcoatRoughness.value
        usesSpecularWorkflow = material.usesSpecularWorkflow
        specularColorValue = material.specularColor.value
        baseColorFromVertexColor = material.baseColorFromVertexColor
        func input(_ reference: TextureReference?, color: Bool, defaultScale: SIMD4<Float> = .one, defaultBias: SIMD4<Float> = .zero) -> TexturedInput? {
            guard let reference, let image = images[reference.texture] else { return nil }
            let channel: Int = switch reference.channels {
            case .r, .rgb, .rgba: 0
            case .g: 1
            case .b: 2
            case .a: 3
            }
            return TexturedInput(sampler: TextureSampler(image: image.image, wrapS: image.wrapS, wrapT: image.wrapT, isColor: color),
                                 set: Self.set(reference.texcoordSet, in: source), transform: reference.transform,
                                 scale: reference.scale ?? defaultScale, bias: reference.bias ?? defaultBias, channel: channel)
        }
        baseColor = input(material.baseColor.texture, color: true)
        opacity = input(material.opacity.texture, color: false)
        metallic = input(material.metallic.texture, color: false)
        roughness = input(material.roughness.texture, color: false)
        emissive = input(material.emissive.texture, color: true)
        normal = input(material.normal, color: false, defaultScale: SIMD4(2, 2, 2, 1), defaultBias: SIMD4(-1, -1, -1, 0))
        occlusion = input(material.occlusion, color: false)
        specularColor = input(material.specularColor.texture, color: true)
        clearcoat = input(material.clearcoat.texture, color: false)
        clearcoatRoughness = input(material.clearcoatRoughness.texture, color: false)
        dielectricF0 = BRDF.dielectricF0(ior: material.ior.isFinite && material.ior >= 1 ? material.ior : 1.5)
        doubleSided = material.isDoubleSided || source.isDoubleSided
    }
}

/// The decoded images of a scene's textures, each decoded once per render whatever uses it.
struct TextureImages {
    struct Entry {
        let image: RGBAImage
        let wrapS: Texture.WrapMode
        let wrapT: Texture.WrapMode
    }
    var entries: [Int: Entry] = [:]

    subscript(texture: Int) -> Entry? { entries[texture] }

    /// Decodes every texture a material samples; a missing or unreadable one leaves its inputs at
    /// their constants, with one warning naming the texture and the first material using it.
    init(_ scene: Scene, bytes: (Texture) -> [UInt8]?, diagnostics: inout [Diagnostic]) {
        var tried: Set<Int> = []
        for material in scene.materials {
            for reference in material.textureReferences where scene.textures.indices.contains(reference.texture) {
                guard tried.insert(reference.texture).inserted else { continue }
                let texture = scene.textures[reference.texture]
                guard let data = bytes(texture) else {
                    diagnostics.append(.warning("texture \(texture.authoredPath) is missing; material \(material.name) renders with its constant inputs"))
                    continue
                }
                do throws(AssetError) {
                    entries[reference.texture] = Entry(image: try ImageDecoder.decode(data), wrapS: texture.wrapS, wrapT: texture.wrapT)
                } catch {
                    diagnostics.append(.warning("texture \(texture.authoredPath) could not be decoded (\(error.message)); material \(material.name) renders with its constant inputs"))
                }
            }
        }
    }
}

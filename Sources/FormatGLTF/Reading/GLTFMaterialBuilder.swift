import AssetCore
import Foundation

/// glTF metallic-roughness materials in UsdPreviewSurface's terms: base colour factor and texture
/// (its alpha feeding opacity for BLEND and MASK, MASK's cutoff becoming `opacityThreshold`),
/// metallic from the metallic-roughness texture's blue channel and roughness from its green,
/// normal, occlusion (red), emissive (times `KHR_materials_emissive_strength`), unlit as emissive,
/// double-sided. Images come from buffer views, `data:` URIs, or files under the asset root.
struct GLTFMaterialBuilder {
    let asset: GLTFAsset
    let file: String
    let loadImage: (Int) throws(AssetError) -> (source: Texture.Source, warning: String?)
    var textures: [Texture] = []
    private var textureIndex: [Int: Int] = [:]
    var diagnostics: [Diagnostic] = []
    /// What the scene model cannot keep of the material extensions, said once with the materials using it
    /// (`finish`).
    var unkept: [String: [String]] = [:]

    init(asset: GLTFAsset, file: String, loadImage: @escaping (Int) throws(AssetError) -> (source: Texture.Source, warning: String?)) {
        self.asset = asset
        self.file = file
        self.loadImage = loadImage
    }

    mutating func build(_ index: Int) throws(AssetError) -> Material {
        let source = asset.materials![index]
        let here = SourceLocation(file: file, elementPath: "materials[\(index)]")
        var material = Material(name: source.name ?? "material\(index)")
        material.shadingSource = source.extensions?.KHR_materials_pbrSpecularGlossiness != nil ? "glTF specular-glossiness"
            : source.extensions?.KHR_materials_unlit != nil ? "glTF unlit" : "glTF metallic-roughness"
        let pbr = source.pbrMetallicRoughness
        let factor = pbr?.baseColorFactor ?? [1, 1, 1, 1]
        guard factor.count == 4 else { throw AssetError(.malformed("baseColorFactor has \(factor.count) numbers, not 4"), at: here) }
        material.baseColor = MaterialProperty(SIMD3(Float(factor[0]), Float(factor[1]), Float(factor[2])))
        let alphaMode = source.alphaMode ?? "OPAQUE"
        switch alphaMode {
        case "OPAQUE": material.alphaMode = .opaque
        case "BLEND":
            material.opacity = MaterialProperty(Float(factor[3]))
            material.alphaMode = .blend
        case "MASK":
            material.opacity = MaterialProperty(Float(factor[3]))
            material.opacityThreshold = Float(source.alphaCutoff ?? 0.5)
            material.alphaMode = .mask
        default:
            material.alphaMode = .opaque
            diagnostics.append(.warning("alphaMode '\(alphaMode)' is not one glTF defines; treated as OPAQUE", at: here))
        }
        // A glTF factor beside a texture multiplies it: UsdUVTexture's scale says the same.
        let colorScale = SIMD4<Float>(Float(factor[0]), Float(factor[1]), Float(factor[2]), Float(factor[3]))
        if let info = pbr?.baseColorTexture, var reference = try texture(info, channels: .rgb, material: index, at: here) {
            if colorScale != .one { reference.scale = colorScale }
            material.baseColor.texture = reference
            if alphaMode != "OPAQUE" {
                material.opacity.texture = TextureReference(texture: reference.texture, texcoordSet: reference.texcoordSet, channels: .a,
                                                            scale: colorScale == .one ? nil : colorScale)
            }
        }
        material.metallic = MaterialProperty(Float(pbr?.metallicFactor ?? 1))
        material.roughness = MaterialProperty(Float(pbr?.roughnessFactor ?? 1))
        if let info = pbr?.metallicRoughnessTexture {
            material.metallic.texture = try texture(info, channels: .b, material: index, at: here)
            material.roughness.texture = try texture(info, channels: .g, material: index, at: here)
            if material.metallic.value != 1 { material.metallic.texture?.scale = SIMD4(repeating: material.metallic.value) }
            if material.roughness.value != 1 { material.roughness.texture?.scale = SIMD4(repeating: material.roughness.value) }
        }
        if let info = source.normalTexture {
            material.normal = try texture(info, channels: .rgb, material: index, at: here)
            // glTF scales the decoded normal's x and y: (2t - 1) · (s, s, 1).
            if let s = info.scale.map(Float.init), s != 1 {
                material.normal?.scale = SIMD4(2 * s, 2 * s, 2, 1)
                material.normal?.bias = SIMD4(-s, -s, -1, 0)
            }
        }
        if let info = source.occlusionTexture {
            material.occlusion = try texture(info, channels: .r, material: index, at: here)
            // glTF blends occlusion toward 1 by strength: 1 + strength · (t - 1).
            if let strength = info.strength.map(Float.init), strength != 1 {
                material.occlusion?.scale = SIMD4(repeating: strength)
                material.occlusion?.bias = SIMD4(repeating: 1 - strength)
            }
        }
        let emissive = source.emissiveFactor ?? [0, 0, 0]
        guard emissive.count == 3 else { throw AssetError(.malformed("emissiveFactor has \(emissive.count) numbers, not 3"), at: here) }
        let strength = Float(source.extensions?.KHR_materials_emissive_strength?.emissiveStrength ?? 1)
        material.emissive = MaterialProperty(SIMD3(Float(emissive[0]), Float(emissive[1]), Float(emissive[2])) * strength)
        if let info = source.emissiveTexture {
            material.emissive.texture = try texture(info, channels: .rgb, material: index, at: here)
            let e = material.emissive.value
            if e != SIMD3(repeating: 1) { material.emissive.texture?.scale = SIMD4(e, 1) }
        }
        if let glossy = source.extensions?.KHR_materials_pbrSpecularGlossiness {
            try specularGlossiness(glossy, into: &material, alphaMode: alphaMode, material: index, at: here)
        }
        try layers(source, into: &material, material: index, at: here)
        if source.extensions?.KHR_materials_unlit != nil {
            // Unlit: the colour is emitted as it is, and nothing is lit.
            material.emissive = material.baseColor
            material.baseColor = MaterialProperty(.zero)
        }
        material.isDoubleSided = source.doubleSided ?? false
        // glTF: COLOR_0, where a primitive has it, multiplies the base colour.
        material.baseColorFromVertexColor = true
        return material
    }

    mutating func texture(_ info: GLTFAsset.TextureInfo, channels: TextureReference.Channels, material: Int,
                                  at here: SourceLocation) throws(AssetError) -> TextureReference? {
        var set = info.texCoord ?? 0
        var transform: TextureTransform?
        if let ext = info.extensions?.KHR_texture_transform {
            if let override = ext.texCoord { set = override }
            let offset = ext.offset ?? [0, 0], scale = ext.scale ?? [1, 1]
            guard offset.count == 2, scale.count == 2 else {
                throw AssetError(.malformed("KHR_texture_transform offset and scale take 2 numbers"), at: here)
            }
            transform = GLTFTextureTransform.usd(offset: offset, rotation: ext.rotation ?? 0, scale: scale)
        }
        guard let index = try textureIndex(info.index, at: here) else { return nil }
        return TextureReference(texture: index, texcoordSet: GLTFMeshBuilder.texcoordName(set), channels: channels,
                                transform: transform?.isIdentity == true ? nil : transform)
    }

    /// The scene texture for glTF texture `index`, made once.
    private mutating func textureIndex(_ index: Int, at here: SourceLocation) throws(AssetError) -> Int? {
        if let known = textureIndex[index] { return known }
        guard let all = asset.textures, all.indices.contains(index) else { throw AssetError(.malformed("texture \(index) does not exist"), at: here) }
        let source = all[index]
        // A WebP image is preferred to its fallback: the renderer decodes it, conversions make it PNG.
        let image = source.extensions?.EXT_texture_webp?.source ?? source.source
        if source.extensions?.KHR_texture_basisu != nil {
            diagnostics.append(.warning("texture \(index): KHR_texture_basisu has no decoder here; \(image.map { "image \($0) is used" } ?? "no fallback image")", at: here))
        }
        guard let imageIndex = image else { return nil }
        guard let images = asset.images, images.indices.contains(imageIndex) else { throw AssetError(.malformed("image \(imageIndex) does not exist"), at: here) }
        let loaded = try loadImage(imageIndex)
        if let warning = loaded.warning { diagnostics.append(.warning(warning, at: SourceLocation(file: file, elementPath: "images[\(imageIndex)]"))) }
        let fileName = images[imageIndex].uri.flatMap { $0.hasPrefix("data:") ? nil : $0.split(separator: "/").last.map(String.init) }
        var name = images[imageIndex].name ?? fileName ?? "image\(imageIndex)"
        // Writers name texture files after the texture, and AR Quick Look goes by the extension.
        if case .embedded(_, let mime) = loaded.source, !name.contains("."), let ext = Self.extensions[mime] { name += "." + ext }
        var texture = Texture(name: name, source: loaded.source)
        if let samplerIndex = source.sampler {
            guard let samplers = asset.samplers, samplers.indices.contains(samplerIndex) else {
                throw AssetError(.malformed("sampler \(samplerIndex) does not exist"), at: here)
            }
            texture.wrapS = Self.wrap(samplers[samplerIndex].wrapS)
            texture.wrapT = Self.wrap(samplers[samplerIndex].wrapT)
        }
        textures.append(texture)
        textureIndex[index] = textures.count - 1
        return textures.count - 1
    }

    static let extensions = ["image/png": "png", "image/jpeg": "jpg", "image/webp": "webp"]

    static func wrap(_ mode: Int?) -> Texture.WrapMode {
        switch mode {
        case 33071: return .clamp
        case 33648: return .mirror
        default: return .repeat
        }
    }
}

/// KHR_texture_transform as UsdTransform2d, and back. glTF: uv' = offset + R(r) · (scale ⊙ uv) in its
/// top-left UV space, with R(r) = [[cos, sin], [-sin, cos]]: the direction Blender's importer,
/// three.js and the TextureTransformTest sample (its green marker) turn, which is the extension's
/// "counter-clockwise" as an image with v down shows it. (Read as a column-major GLSL literal,
/// the extension's own snippet turns the other way; Cycles renders of Blender's import settled
/// it: `test_render_fidelity.py`.) USD's st is (u, 1 - v), and flipping v on both sides keeps the
/// turn: the USD transform keeps the scale, rotates by r (in degrees), and translates by
/// (o.x + sin(r)·s.y, 1 - o.y - cos(r)·s.y).
enum GLTFTextureTransform {
    static func usd(offset: [Double], rotation: Double, scale: [Double]) -> TextureTransform {
        let c = cos(rotation), s = sin(rotation)
        return TextureTransform(scale: SIMD2(Float(scale[0]), Float(scale[1])), rotation: Float(rotation * 180 / .pi),
                                translation: SIMD2(Float(offset[0] + s * scale[1]), Float(1 - offset[1] - c * scale[1])))
    }

    static func gltf(_ t: TextureTransform) -> (offset: [Float], rotation: Float, scale: [Float]) {
        let r = Double(t.rotation) * .pi / 180
        let c = Float(cos(r)), s = Float(sin(r))
        return ([t.translation.x - s * t.scale.y, 1 - t.translation.y - c * t.scale.y], Float(r), [t.scale.x, t.scale.y])
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A physically based material in UsdPreviewSurface's terms. Collada's constant, lambert, phong and
/// blinn effects map onto it (diffuse -> baseColor, shininess -> roughness, transparency -> opacity).
public struct Material: Sendable, Equatable {
    public var name: String
    public var baseColor: MaterialProperty<SIMD3<Float>>
    public var metallic: MaterialProperty<Float>
    public var roughness: MaterialProperty<Float>
    public var emissive: MaterialProperty<SIMD3<Float>>
    public var opacity: MaterialProperty<Float>
    /// UsdPreviewSurface `opacityThreshold`: above 0, opacity is a cut-out mask.
    public var opacityThreshold: Float
    public var normal: TextureReference?
    public var occlusion: TextureReference?
    public var isDoubleSided: Bool
    /// UsdPreviewSurface's specular workflow (glTF's KHR_materials_pbrSpecularGlossiness): the
    /// surface reflects `specularColor`, `metallic` is unused and `baseColor` is the diffuse colour.
    public var usesSpecularWorkflow = false
    public var specularColor = MaterialProperty(SIMD3<Float>.zero)
    /// A second, clear layer over the surface (UsdPreviewSurface `clearcoat`, glTF KHR_materials_clearcoat).
    public var clearcoat = MaterialProperty<Float>(0)
    public var clearcoatRoughness = MaterialProperty<Float>(0.01)
    /// Index of refraction (UsdPreviewSurface `ior`, glTF KHR_materials_ior); 1.5 is both defaults.
    public var ior: Float = 1.5
    /// Light passing through the surface (glTF KHR_materials_transmission, MaterialX transmission
    /// weights). UsdPreviewSurface has no input for it, so `opacity` already holds it folded in
    /// (× (1 − transmission)) for the writers and the renderer that read opacity only; glTF writes it
    /// back as its extension with the opacity unfolded.
    public var transmission: Float = 0
    /// The alpha mode a format stated (glTF's `alphaMode`); nil where the format has none, and
    /// `alphaMode` then reads it off the opacity inputs as UsdPreviewSurface does.
    public var authoredAlphaMode: AlphaMode?
    /// The shading model the material was read from (`UsdPreviewSurface`, `MaterialX open_pbr_surface`,
    /// `glTF metallic-roughness`, `Collada phong` ...), for `info`; nil for one built in memory.
    public var shadingSource: String?
    /// The MaterialX network the material was read from, as authored; USD writers write it back.
    public var network: ShadingNetwork?
    /// The base colour is the mesh's vertex colour (`displayColor`) times `baseColor`: a USD
    /// UsdPreviewSurface whose diffuseColor a UsdPrimvarReader feeds. USD writers write the reader
    /// back; glTF's COLOR_0 multiplies the base colour whatever this says.
    public var baseColorFromVertexColor = false

    /// Defaults are UsdPreviewSurface's fallbacks.
    public init(
        name: String,
        baseColor: MaterialProperty<SIMD3<Float>> = .init(SIMD3(0.18, 0.18, 0.18)),
        metallic: MaterialProperty<Float> = .init(0),
        roughness: MaterialProperty<Float> = .init(0.5),
        emissive: MaterialProperty<SIMD3<Float>> = .init(.zero),
        opacity: MaterialProperty<Float> = .init(1),
        opacityThreshold: Float = 0,
        normal: TextureReference? = nil,
        occlusion: TextureReference? = nil,
        isDoubleSided: Bool = false
    ) {
        self.name = name
        self.baseColor = baseColor
        self.metallic = metallic
        self.roughness = roughness
        self.emissive = emissive
        self.opacity = opacity
        self.opacityThreshold = opacityThreshold
        self.normal = normal
        self.occlusion = occlusion
        self.isDoubleSided = isDoubleSided
    }

    /// How the surface's alpha (opacity, and the alpha of base colour texels and vertex colours)
    /// is used: ignored, a cut-out at `opacityThreshold`, or blended. Without an authored mode,
    /// UsdPreviewSurface's rule: a threshold above 0 masks, opacity below 1 or from a texture blends.
    public var alphaMode: AlphaMode {
        get {
            if let authoredAlphaMode { return authoredAlphaMode }
            if opacityThreshold > 0 { return .mask }
            return opacity.value < 1 || opacity.texture != nil ? .blend : .opaque
        }
        set { authoredAlphaMode = newValue }
    }

    /// glTF's three alpha modes, which every format's opacity inputs fall into.
    public enum AlphaMode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Alpha is ignored: the surface is fully opaque.
        case opaque
        /// Fragments with alpha below `opacityThreshold` are discarded, the rest are opaque.
        case mask
        /// Composited over what is behind by alpha.
        case blend
    }

    /// Every texture the material samples, in a fixed order.
    public var textureReferences: [TextureReference] {
        [baseColor.texture, metallic.texture, roughness.texture, emissive.texture, opacity.texture,
         normal, occlusion, specularColor.texture, clearcoat.texture, clearcoatRoughness.texture].compactMap { $0 }
    }
}

/// A material input: a constant, optionally driven by a texture. The constant stays meaningful when a
/// texture is present (UsdUVTexture's fallback), so a missing texture still renders in a sane colour.
public struct MaterialProperty<Value: Sendable & Equatable>: Sendable, Equatable {
    public var value: Value
    public var texture: TextureReference?

    public init(_ value: Value, texture: TextureReference? = nil) {
        self.value = value
        self.texture = texture
    }
}

/// A texture sampled by a material input.
public struct TextureReference: Sendable, Equatable {
    /// Index into `Scene.textures`.
    public var texture: Int
    /// The texcoord primvar the lookup uses ("st", "st1", Collada's bound set).
    public var texcoordSet: String
    /// Which channels feed the input.
    public var channels: Channels
    /// UsdUVTexture's `inputs:scale` and `inputs:bias`: the input reads texel × scale + bias. nil is
    /// the input's usual decoding (a normal map's (2,2,2,1) and (-1,-1,-1,0), identity elsewhere).
    /// glTF factors beside a texture, a normal map's strength and occlusion strength arrive here.
    public var scale: SIMD4<Float>?
    public var bias: SIMD4<Float>?
    /// UsdTransform2d between the texcoord reader and the texture (glTF's KHR_texture_transform).
    public var transform: TextureTransform?

    public init(texture: Int, texcoordSet: String = "st", channels: Channels = .rgb, scale: SIMD4<Float>? = nil, bias: SIMD4<Float>? = nil,
                transform: TextureTransform? = nil) {
        self.texture = texture
        self.texcoordSet = texcoordSet
        self.channels = channels
        self.scale = scale
        self.bias = bias
        self.transform = transform
    }

    public enum Channels: String, Sendable, Hashable, Codable {
        case r, g, b, a, rgb, rgba
    }
}

/// UsdTransform2d on texture coordinates, in USD's bottom-left st space: scaled, then rotated
/// counter-clockwise by `rotation` degrees about the origin, then moved by `translation`.
public struct TextureTransform: Sendable, Equatable {
    public var scale: SIMD2<Float>
    public var rotation: Float
    public var translation: SIMD2<Float>

    public init(scale: SIMD2<Float> = .one, rotation: Float = 0, translation: SIMD2<Float> = .zero) {
        self.scale = scale
        self.rotation = rotation
        self.translation = translation
    }

    public var isIdentity: Bool { scale == .one && rotation == 0 && translation == .zero }

    public func apply(_ st: SIMD2<Float>) -> SIMD2<Float> {
        let radians = Double(rotation) * .pi / 180
        let c = Float(cos(radians)), s = Float(sin(radians))
        let p = st * scale
        return SIMD2(c * p.x - s * p.y, s * p.x + c * p.y) + translation
    }
}

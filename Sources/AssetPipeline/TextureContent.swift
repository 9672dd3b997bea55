import AssetCore
import AssetImage

/// What a texture holds, as the materials sampling it say: it decides the colour space it is
/// filtered in.
public enum TextureContent: String, Sendable, Encodable {
    /// sRGB colour: base colour, emissive, specular colour.
    case color
    /// Linear numbers: metallic, roughness, occlusion, opacity, clearcoat.
    case data
    /// A tangent-space normal map.
    case normal

    /// How the resampler filters this content: in linear light, as numbers, or as unit vectors.
    var resampling: ImageResampler.Content {
        switch self {
        case .color: .color
        case .data: .data
        case .normal: .normal
        }
    }

    /// Each texture's content as the scene's materials use it. A texture used two ways is taken as
    /// colour before normals before data: filtering colour in linear space would darken it visibly,
    /// while data filtered as colour barely changes.
    static func of(_ scene: Scene) -> [TextureContent] {
        var contents = [TextureContent](repeating: .data, count: scene.textures.count)
        func rank(_ content: TextureContent) -> Int { content == .color ? 2 : content == .normal ? 1 : 0 }
        func mark(_ reference: TextureReference?, _ content: TextureContent) {
            guard let index = reference?.texture, contents.indices.contains(index), rank(content) > rank(contents[index]) else { return }
            contents[index] = content
        }
        for material in scene.materials {
            mark(material.normal, .normal)
            mark(material.baseColor.texture, .color)
            mark(material.emissive.texture, .color)
            mark(material.specularColor.texture, .color)
        }
        return contents
    }
}

enum ImageFormat {
    case png, jpeg, other

    init(_ bytes: [UInt8]) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { self = .png }
        else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { self = .jpeg }
        else { self = .other }
    }
}

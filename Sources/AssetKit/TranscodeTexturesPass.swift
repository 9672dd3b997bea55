import AssetCore
import AssetPipeline
import AssetRender
import Foundation

/// Textures in formats that the writers' readers do not take (WebP from glTF's EXT_texture_webp;
/// AR Quick Look and usdz accept PNG and JPEG only) become embedded PNGs before writing, with one
/// warning naming them. Decoding and encoding are AssetRender's codecs.
struct TranscodeTexturesPass: ScenePass {
    let name = "transcode textures to PNG"

    func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        var converted: [String] = []
        for (index, texture) in scene.textures.enumerated() {
            guard let bytes = TextureBytes.load(texture), WebPDecoder.isWebP(bytes) else { continue }
            do throws(AssetError) {
                let png = try PNGCodec.encode(try WebPDecoder.decode(bytes))
                let stem = (texture.name as NSString).deletingPathExtension
                scene.textures[index].source = .embedded(bytes: png, mimeType: "image/png")
                scene.textures[index].name = (stem.isEmpty ? "texture\(index)" : stem) + ".png"
                converted.append(texture.name)
            } catch {
                diagnostics.append(.warning("texture \(texture.name) is WebP and cannot be converted to PNG: \(error.message)"))
            }
        }
        if !converted.isEmpty {
            diagnostics.append(.warning("WebP textures converted to PNG: \(converted.joined(separator: ", "))"))
        }
    }
}

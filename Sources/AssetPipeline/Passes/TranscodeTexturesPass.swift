import AssetCore
import AssetImage
import Foundation

/// Textures in formats the writers' readers do not take become embedded PNGs before writing: AR
/// Quick Look and usdz take PNG and JPEG only, glTF the same without extensions, so WebP, DDS,
/// TIFF, TGA, BMP, GIF and PSD are decoded (under the image pixel budget) and written again as PNG
/// (WebP written to glTF stays WebP under EXT_texture_webp, with the PNG as its fallback)
/// (`--texture-format jpeg` re-encodes them after). One warning names every texture converted, and
/// what of it one picture cannot hold (a GIF's later frames, a TIFF's later pages, a DDS cube's other faces). A
/// texture that does not decode is unbound from its materials, which keep their constants, with
/// a warning naming the file. Decoding and encoding are AssetImage's codecs.
struct TranscodeTexturesPass: ScenePass {
    let name = "transcode textures to PNG"
    /// glTF carries WebP under EXT_texture_webp: such textures stay WebP there, with a PNG fallback.
    var keepsWebP = false
    /// The read's staged folders, for textures inside a package read by ranges.
    var staged = StagedFiles.none

    func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        var converted: [String] = []
        var undecodable: Set<Int> = []
        for (index, texture) in scene.textures.enumerated() {
            guard let bytes = TextureBytes.load(texture, staged: staged) else { continue }
            let format = ImageDecoder.formatName(of: bytes)
            if format == "PNG" || format == "JPEG" { continue }
            do throws(AssetError) {
                let png = try PNGCodec.encode(try ImageDecoder.decode(bytes))
                if keepsWebP && format == "WebP" {
                    // Kept as it is for readers with the extension; the PNG is for those without.
                    scene.textures[index].source = .embedded(bytes: bytes, mimeType: "image/webp")
                    scene.textures[index].fallbackPNG = png
                    continue
                }
                let stem = (texture.name as NSString).deletingPathExtension
                scene.textures[index].source = .embedded(bytes: png, mimeType: "image/png")
                scene.textures[index].name = (stem.isEmpty ? "texture\(index)" : stem) + ".png"
                // A GIF's later frames, a TIFF's later pages, a DDS cube's other faces do not fit one texture.
                let lost = ImageDecoder.leftOut(of: bytes).map { ", \($0) kept" } ?? ""
                converted.append("\(texture.name) (\(format ?? "TGA")\(lost))")
            } catch {
                undecodable.insert(index)
                diagnostics.append(.warning("texture \(texture.name) (\(format ?? "no known format")) does not decode, so its materials keep their constants: \(error.message)"))
            }
        }
        if !undecodable.isEmpty {
            for m in scene.materials.indices { scene.materials[m].unbind(textures: undecodable) }
        }
        if !converted.isEmpty {
            diagnostics.append(.warning("textures converted to PNG: \(converted.joined(separator: ", "))"))
        }
    }
}

extension Material {
    /// Every input that samples one of `textures` falls back to its constant.
    mutating func unbind(textures: Set<Int>) {
        let inputs: [WritableKeyPath<Material, TextureReference?>] = [
            \.baseColor.texture, \.metallic.texture, \.roughness.texture, \.emissive.texture, \.opacity.texture, \.normal,
            \.occlusion, \.specularColor.texture, \.clearcoat.texture, \.clearcoatRoughness.texture,
        ]
        for input in inputs where self[keyPath: input].map({ textures.contains($0.texture) }) == true { self[keyPath: input] = nil }
    }
}

import AssetCore
import AssetPipeline
import AssetRender

/// The converter's texture codec, made of AssetRender's: libpng, TurboJPEG, libwebp, the legacy
/// decoders behind `ImageDecoder`, and stb_image_resize.
struct RenderTextureCodec: TextureCodec {
    func size(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        ImageDecoder.size(of: bytes)
    }

    func decode(_ bytes: [UInt8]) throws(AssetError) -> RGBAImage {
        try ImageDecoder.decode(bytes)  // every format by content, stb_image's legacy ones last
    }

    func resized(_ image: RGBAImage, width: Int, height: Int, content: TextureContent, wrapsX: Bool, wrapsY: Bool) -> RGBAImage {
        let kind: ImageResampler.Content = switch content {
        case .color: .color
        case .data: .data
        case .normal: .normal
        }
        return ImageResampler.resized(image, width: width, height: height, content: kind, wrapsX: wrapsX, wrapsY: wrapsY)
    }

    func png(_ image: RGBAImage) throws(AssetError) -> [UInt8] {
        try PNGCodec.encode(image)
    }

    func jpeg(_ image: RGBAImage, quality: Int, fullChroma: Bool) throws(AssetError) -> [UInt8] {
        try JPEGEncoder.encode(image, quality: quality, fullChroma: fullChroma)
    }
}

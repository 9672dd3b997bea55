import AssetCore
import CPNG

/// PNG through libpng's simplified `png_image` API (the classic API's setjmp/longjmp error
/// handling is unsafe from Swift).
public enum PNGCodec {
    /// Refuse textures that would decode to more than this many pixels.
    public static let maxPixels = 1 << 26

    public static func encode(_ image: RGBAImage) throws(AssetError) -> [UInt8] {
        var png = png_image()
        png.version = png_uint_32(assetc_png_image_version)
        png.width = png_uint_32(image.width)
        png.height = png_uint_32(image.height)
        png.format = png_uint_32(assetc_png_format_rgba)
        var size: png_alloc_size_t = 0
        // First call measures, second writes.
        let measured = image.pixels.withUnsafeBytes { raw in
            png_image_write_to_memory(&png, nil, &size, 0, raw.baseAddress, 0, nil)
        }
        guard measured != 0, size > 0 else { throw AssetError(.io("PNG encoding failed: \(message(png))")) }
        var out = [UInt8](repeating: 0, count: Int(size))
        let written = out.withUnsafeMutableBytes { buffer in
            image.pixels.withUnsafeBytes { raw in
                png_image_write_to_memory(&png, buffer.baseAddress, &size, 0, raw.baseAddress, 0, nil)
            }
        }
        guard written != 0 else { throw AssetError(.io("PNG encoding failed: \(message(png))")) }
        return Array(out.prefix(Int(size)))
    }

    public static func decode(_ bytes: [UInt8]) throws(AssetError) -> RGBAImage {
        var png = png_image()
        png.version = png_uint_32(assetc_png_image_version)
        let begun = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&png, $0.baseAddress, $0.count) }
        guard begun != 0 else { throw AssetError(.malformed("not a readable PNG: \(message(png))")) }
        guard Int(png.width) * Int(png.height) <= maxPixels else {
            png_image_free(&png)
            throw AssetError(.limitExceeded("PNG of \(png.width)x\(png.height) pixels"))
        }
        png.format = png_uint_32(assetc_png_format_rgba)
        var pixels = [UInt8](repeating: 0, count: Int(png.width) * Int(png.height) * 4)
        let finished = pixels.withUnsafeMutableBytes { png_image_finish_read(&png, nil, $0.baseAddress, 0, nil) }
        guard finished != 0 else { throw AssetError(.malformed("damaged PNG: \(message(png))")) }
        return RGBAImage(width: Int(png.width), height: Int(png.height), pixels: pixels)
    }

    private static func message(_ png: png_image) -> String {
        withUnsafeBytes(of: png.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

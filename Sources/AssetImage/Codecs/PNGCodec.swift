import AssetCore
import CPNG

/// PNG through libpng: decoding by the simplified `png_image` API, encoding by the classic API in
/// C (CPNG's shim), which keeps its setjmp/longjmp error handling out of Swift frames.
public enum PNGCodec {
    /// Refuse textures that would decode to more than this many pixels.
    public static let maxPixels = 1 << 26

    /// How hard the encoder works. Measured with libpng 1.6 on this machine (2 cores) against zlib's
    /// default level 6 with every filter tried per row (what the simplified API writes):
    /// `.balanced` keeps level 6 with the Paeth filter alone, the same bytes within 0.01% on a
    /// 2048 px normal map, a generated colour map and a photograph, 16% faster on the normal map
    /// (lower levels were faster still but made that normal map 39% larger, which counts against
    /// a viewer's budget); `.fast` (level 3, the Up filter alone) made a 256 px thumbnail 13%
    /// larger in a third of the time (4 ms against 13-17 ms).
    public enum Effort: Sendable {
        /// Pictures assetc makes and shows (thumbnails, previews, swatches).
        case fast
        /// Textures written into assets, where bytes count against budgets.
        case balanced
    }

    public static func encode(_ image: RGBAImage, effort: Effort = .balanced) throws(AssetError) -> [UInt8] {
        let (level, filters): (Int32, Int32) = effort == .fast ? (3, assetc_png_filter_up) : (6, assetc_png_filter_paeth)
        var size = 0
        let encoded = image.pixels.withUnsafeBufferPointer { pixels in
            assetc_png_encode_rgba(pixels.baseAddress, UInt32(image.width), UInt32(image.height), level, filters, &size)
        }
        guard let encoded else { throw AssetError(.io("PNG encoding failed (\(image.width)x\(image.height))")) }
        defer { free(encoded) }
        return Array(UnsafeBufferPointer(start: encoded, count: size))
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

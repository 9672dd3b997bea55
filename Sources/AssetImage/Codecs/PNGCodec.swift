import AssetCore
import CPNG

/// PNG: encoding through libdeflate (`PNGStream`); decoding of 8-bit RGB and RGBA through
/// libdeflate too, and of everything else (palettes, grey, 16 bits, interlacing, gamma and colour
/// chunks) by libpng's simplified `png_image` API.
public enum PNGCodec {
    /// Refuse textures that would decode to more than this many pixels.
    public static let maxPixels = 1 << 26

    /// How hard the encoder works, each row filtered one way and the stream compressed by
    /// libdeflate. Measured on this machine on the two 2048 px textures of `Scripts/bench-optimize`
    /// (one smooth, one noisy): `.balanced` (Paeth, libdeflate level 7) made the noisy one 602 KB in
    /// 0.18 s, where zlib's level 6 (what libpng wrote before) made 625 KB in 0.21 s and
    /// libdeflate's level 6 760 KB in 0.10 s; levels past 7 cost two to four times as long for 5%
    /// less. `.fast` (the Up filter, level 3) is for pictures assetc makes and shows, where a
    /// few percent of bytes matter less than the time.
    public enum Effort: Sendable {
        /// Pictures assetc makes and shows (thumbnails, previews, swatches).
        case fast
        /// Textures written into assets, where bytes count against budgets.
        case balanced
    }

    public static func encode(_ image: RGBAImage, effort: Effort = .balanced) throws(AssetError) -> [UInt8] {
        let (level, filter): (Int32, PNGStream.Filter) = effort == .fast ? (fastLevel, .up) : (balancedLevel, .paeth)
        let encoded = image.pixels.withUnsafeBufferPointer { pixels in
            PNGStream.encode(pixels, width: image.width, height: image.height, filter: filter, level: level)
        }
        guard let encoded else { throw AssetError(.io("PNG encoding failed (\(image.width)x\(image.height))")) }
        return encoded
    }

    /// libdeflate's levels for the two efforts.
    static let (fastLevel, balancedLevel): (Int32, Int32) = (3, 7)

    public static func decode(_ bytes: [UInt8]) throws(AssetError) -> RGBAImage {
        if let image = PNGStream.decodeCommon(bytes, maxPixels: maxPixels) { return image }
        return try decodeByLibPNG(bytes)
    }

    /// Every PNG libpng reads (palettes, grey, 16 bits, interlacing, gamma), and the located
    /// message for one it cannot.
    static func decodeByLibPNG(_ bytes: [UInt8]) throws(AssetError) -> RGBAImage {
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

import AssetCore
import CTurboJPEG

/// Decodes a texture by its content: PNG, JPEG and WebP, then what game and DCC exporters also
/// write: DDS (`DDSDecoder`), TIFF (libtiff), and BMP, TGA, GIF's first frame, PSD's composite and
/// PNM (stb_image).
public enum ImageDecoder {
    /// The width and height a PNG's IHDR or a JPEG's frame header gives, without decoding pixels.
    public static func size(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            guard bytes.count >= 24 else { return nil }
            func u32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            return (u32(16), u32(20))
        }
        guard bytes.starts(with: [0xFF, 0xD8, 0xFF]), let handle = tjInitDecompress() else { return nil }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = bytes.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt(bytes.count), &width, &height, &subsampling, &colorspace)
        }
        return status == 0 ? (Int(width), Int(height)) : nil
    }

    public static func decode(_ bytes: [UInt8]) throws(AssetError) -> RGBAImage {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try PNGCodec.decode(bytes) }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return try JPEGDecoder.decode(bytes) }
        if WebPDecoder.isWebP(bytes) { return try WebPDecoder.decode(bytes) }
        if DDSDecoder.isDDS(bytes) { return try DDSDecoder.decode(bytes) }
        if TIFFDecoder.isTIFF(bytes) { return try TIFFDecoder.decode(bytes) }
        return try LegacyImageDecoder.decode(bytes)
    }

    /// The format a texture's bytes are in, by content, for messages; nil when none is recognised
    /// by its first bytes (TGA has no signature: stb_image tries it last, so what it decodes
    /// with no name here is TGA).
    public static func formatName(of bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "PNG" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "JPEG" }
        if WebPDecoder.isWebP(bytes) { return "WebP" }
        if DDSDecoder.isDDS(bytes) { return "DDS" }
        if TIFFDecoder.isTIFF(bytes) { return "TIFF" }
        if bytes.starts(with: Array("BM".utf8)) { return "BMP" }
        if bytes.starts(with: Array("GIF8".utf8)) { return "GIF" }
        if bytes.starts(with: Array("8BPS".utf8)) { return "PSD" }
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(bytes[1]) { return "PNM" }
        return nil
    }
}

import AssetCore
import CWebP

/// WebP images (glTF's EXT_texture_webp) through Debian's libwebp, to straight RGBA.
public enum WebPDecoder {
    /// `RIFF` .... `WEBP`.
    public static func isWebP(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8)
    }

    public static func decode(_ bytes: [UInt8]) throws(AssetError) -> RGBAImage {
        var width: Int32 = 0, height: Int32 = 0
        guard bytes.withUnsafeBufferPointer({ WebPGetInfo($0.baseAddress, $0.count, &width, &height) }) != 0,
              width > 0, height > 0, Int(width) * Int(height) <= 1 << 28 else {
            throw AssetError(.malformed("not a decodable WebP image"))
        }
        guard let decoded = bytes.withUnsafeBufferPointer({ WebPDecodeRGBA($0.baseAddress, $0.count, &width, &height) }) else {
            throw AssetError(.malformed("the WebP image does not decode"))
        }
        defer { WebPFree(decoded) }
        let count = Int(width) * Int(height) * 4
        return RGBAImage(width: Int(width), height: Int(height), pixels: Array(UnsafeBufferPointer(start: decoded, count: count)))
    }
}

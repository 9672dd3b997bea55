import AssetCore
import CSTBImage

/// Images in the formats older tools export and usdz may not carry (BMP, TGA, GIF's first frame,
/// PSD's composite, PNM), decoded by Debian's stb_image to straight RGBA so they can be written
/// again as PNG. The size is checked from the header before any pixel is decoded.
public enum LegacyImageDecoder {
    public static let maxPixels = 1 << 28
    /// The most pixels a byte of these formats can stand for, with room to spare.
    static let pixelsPerByte = 2048

    public static func decode(_ bytes: [UInt8]) throws(AssetError) -> RGBAImage {
        guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else { throw AssetError(.malformed("the image is empty or too large to decode")) }
        var width: Int32 = 0, height: Int32 = 0, channels: Int32 = 0
        guard bytes.withUnsafeBufferPointer({ stbi_info_from_memory($0.baseAddress, Int32($0.count), &width, &height, &channels) }) != 0 else {
            throw AssetError(.unsupportedFormat("not an image assetc reads: PNG, JPEG, WebP, DDS, TIFF, BMP, TGA, GIF, PSD or PNM (stb_image: \(reason()))",
                                                supported: ["png", "jpeg", "webp", "dds", "tiff", "bmp", "tga", "gif", "psd", "pnm"]))
        }
        guard width > 0, height > 0, Int(width) * Int(height) <= maxPixels else {
            throw AssetError(.limitExceeded("the image is \(width) x \(height) pixels (at most \(maxPixels))"))
        }
        // None of these formats packs more than a few hundred pixels into a byte (RLE runs of 128,
        // LZW codes): a header claiming far more pixels than its bytes can hold is refused before
        // stb_image allocates them (a 22-byte TGA claiming 14,880 x 16,640 pixels took 2 GB).
        guard Int(width) * Int(height) <= Self.pixelsPerByte * bytes.count + (1 << 20) else {
            throw AssetError(.malformed("the header claims \(width) x \(height) pixels, more than \(bytes.count) bytes can hold"))
        }
        guard let pixels = bytes.withUnsafeBufferPointer({ stbi_load_from_memory($0.baseAddress, Int32($0.count), &width, &height, &channels, 4) }) else {
            throw AssetError(.malformed("the image does not decode (\(reason()))"))
        }
        defer { stbi_image_free(pixels) }
        return RGBAImage(width: Int(width), height: Int(height), pixels: Array(UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4)))
    }

    private static func reason() -> String {
        let reason = stbi_failure_reason().map { String(cString: $0) } ?? ""
        return reason.isEmpty ? "stb_image gives no reason" : reason
    }
}

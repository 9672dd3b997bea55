import AssetCore
import CSTBImage

/// Environment images as `--environment` takes them: Radiance `.hdr` (RGBE) through Debian's
/// stb_image, which also reads PNG and JPEG (sRGB, taken to linear light), and OpenEXR through
/// Debian's OpenEXRCore (`OpenEXRDecoder`), told apart by their first bytes. The size is checked
/// from the header before a texel is decoded; texels that are NaN, infinite or negative are
/// clamped to zero with one warning, so no texel can poison the prefilter's sums.
public enum EnvironmentDecoder {
    /// 8192 x 4096: a 16k panorama is past what a thumbnail can show and would take 400 MB as floats.
    public static let maxPixels = 8192 * 4096

    /// The image, halved while wider than `maxWidth` (straight from stb_image's buffer, so a large
    /// panorama is never held twice at full size).
    public static func decode(_ bytes: [UInt8], source: String? = nil, maxWidth: Int = .max,
                              maxPixels: Int = EnvironmentDecoder.maxPixels) throws(AssetError) -> (image: HDRImage, warnings: [Diagnostic]) {
        let here = SourceLocation(file: source)
        guard !bytes.isEmpty else { throw AssetError(.malformed("the environment image is empty"), at: here) }
        guard bytes.count <= Int(Int32.max) else { throw AssetError(.limitExceeded("the environment image is past 2 GiB"), at: here) }
        if OpenEXRDecoder.isEXR(bytes) {
            var exr = try OpenEXRDecoder.decode(bytes, source: source, maxPixels: maxPixels)
            let warnings = exr.notes.map { Diagnostic.warning($0, at: here) }
            return try exr.texels.withUnsafeMutableBufferPointer { (raw) throws(AssetError) in
                finish(raw, width: exr.width, height: exr.height, maxWidth: maxWidth, warnings: warnings, here: here)
            }
        }
        var width: Int32 = 0, height: Int32 = 0, channels: Int32 = 0
        let known = bytes.withUnsafeBufferPointer { stbi_info_from_memory($0.baseAddress, Int32($0.count), &width, &height, &channels) }
        guard known != 0 else {
            throw AssetError(.malformed("not an environment image: environments are Radiance .hdr, OpenEXR, PNG or JPEG (stb_image: \(reason()))"), at: here)
        }
        guard width > 0, height > 0, Int(width) * Int(height) <= maxPixels else {
            throw AssetError(.limitExceeded("the environment image is \(width) x \(height) texels; at most \(maxPixels) are read"), at: here)
        }
        guard let floats = bytes.withUnsafeBufferPointer({ stbi_loadf_from_memory($0.baseAddress, Int32($0.count), &width, &height, &channels, 3) }) else {
            throw AssetError(.malformed("the environment image does not decode (\(reason()))"), at: here)
        }
        defer { stbi_image_free(floats) }
        let raw = UnsafeMutableBufferPointer(start: floats, count: Int(width) * Int(height) * 3)
        return finish(raw, width: Int(width), height: Int(height), maxWidth: maxWidth, warnings: [], here: here)
    }

    /// Clamps, checks the shape and halves to `maxWidth`: the same for every decoder.
    private static func finish(_ raw: UnsafeMutableBufferPointer<Float>, width: Int, height: Int, maxWidth: Int,
                               warnings: [Diagnostic], here: SourceLocation) -> (image: HDRImage, warnings: [Diagnostic]) {
        var warnings = warnings
        let bad = clampInvalid(raw)
        if bad > 0 {
            warnings.append(.warning("\(bad) environment texel values were NaN, infinite or negative and are lit as 0", at: here))
        }
        if width != 2 * height {
            warnings.append(.warning("the environment image is \(width) x \(height), not 2:1: it is stretched over the sphere as an equirectangular panorama", at: here))
        }
        let image = width > maxWidth
            ? HDRImage.halved(UnsafeBufferPointer(raw), width: width, height: height).reduced(toWidth: maxWidth)
            : HDRImage(width: width, height: height, texels: Array(raw))
        return (image, warnings)
    }

    /// Sets every value that is not a finite number at or above zero to 0; returns how many were.
    package static func clampInvalid(_ texels: UnsafeMutableBufferPointer<Float>) -> Int {
        var bad = 0
        for i in texels.indices where !(texels[i].isFinite && texels[i] >= 0) {
            texels[i] = 0
            bad += 1
        }
        return bad
    }

    package static func clampInvalid(_ texels: inout [Float]) -> Int {
        texels.withUnsafeMutableBufferPointer { clampInvalid($0) }
    }

    private static func reason() -> String {
        let reason = stbi_failure_reason().map { String(cString: $0) } ?? ""
        return reason.isEmpty ? "stb_image gives no reason" : reason
    }
}

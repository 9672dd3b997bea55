#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Radiance `.hdr` (RGBE, flat scanlines, no run-length coding): how the service hands the
/// environment to the asset page's three.js view (its `RGBELoader`), so the page is lit as the
/// thumbnails are.
public enum RadianceEncoder {
    public static func encode(_ image: HDRImage) -> [UInt8] {
        var out = Array("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y \(image.height) +X \(image.width)\n".utf8)
        out.reserveCapacity(out.count + image.width * image.height * 4)
        for i in 0..<(image.width * image.height) {
            let r = image.texels[3 * i], g = image.texels[3 * i + 1], b = image.texels[3 * i + 2]
            let brightest = max(r, g, b)
            guard brightest > 1e-32, brightest.isFinite else { out += [0, 0, 0, 0]; continue }
            // brightest = m · 2^e with m in [0.5, 1): each channel keeps 8 bits of the shared exponent.
            let e = Int(ilogbf(brightest)) + 1
            let scale = ldexpf(256, Int32(-e))
            out += [UInt8(min(r * scale, 255)), UInt8(min(g * scale, 255)), UInt8(min(b * scale, 255)), UInt8(clamping: e + 128)]
        }
        return out
    }

    /// The image turned about the up axis by `degrees` (counter-clockwise seen from above), as the
    /// renderer turns its lookups: for a viewer that cannot rotate an environment map itself.
    public static func turned(_ image: HDRImage, degrees: Double) -> HDRImage {
        guard degrees.isFinite, degrees.truncatingRemainder(dividingBy: 360) != 0 else { return image }
        var out = image
        // A turn by θ shows at world direction R(θ)·d what the map holds at d: the panorama's
        // columns move toward smaller azimuth (u = atan2(z, x)) by θ.
        let shift = -degrees / 360 * Double(image.width)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let c = image.sample(x: Float(Double(x) - shift), y: Float(y))
                let o = (y * image.width + x) * 3
                out.texels[o] = c.x; out.texels[o + 1] = c.y; out.texels[o + 2] = c.z
            }
        }
        return out
    }
}

import AssetCore
import AssetImage
import Testing

/// Both encoder efforts are lossless: every pixel, alpha included, decodes as it was given, and the
/// effort only trades bytes for time.
@Suite struct PNGEncodingTests {
    static func picture(width: Int, height: Int) -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var state: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let o = (y * width + x) * 4
                // A gradient with noise and a transparent corner: what thumbnails and textures hold.
                pixels[o] = UInt8(truncatingIfNeeded: x * 255 / max(width - 1, 1))
                pixels[o + 1] = UInt8(truncatingIfNeeded: y * 255 / max(height - 1, 1))
                pixels[o + 2] = UInt8(truncatingIfNeeded: state >> 24)
                pixels[o + 3] = x + y < width / 3 ? 0 : UInt8(truncatingIfNeeded: 128 + (state >> 25))
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    @Test(arguments: [PNGCodec.Effort.fast, .balanced])
    func everyPixelComesBack(effort: PNGCodec.Effort) throws {
        for (width, height) in [(1, 1), (37, 5), (256, 256), (300, 17)] {
            let image = Self.picture(width: width, height: height)
            let bytes = try PNGCodec.encode(image, effort: effort)
            #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let back = try PNGCodec.decode(bytes)
            #expect(back.width == width && back.height == height && back.pixels == image.pixels, "\(width)x\(height) at \(effort)")
        }
    }
}

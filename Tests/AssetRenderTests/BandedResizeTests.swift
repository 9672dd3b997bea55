import AssetCore
import Testing

@testable import AssetImage

/// Textures resized in bands of rows on two cores match the one-pass resize: exactly where the cut
/// falls on a representable fraction of the height, and within one level elsewhere (the region's
/// scale is worked out in single precision).
@Suite struct BandedResizeTests {
    @Test(arguments: [(1024, 1024, 512, 512), (1536, 1000, 1031, 677)])
    func bandsMatchOnePass(size: (Int, Int, Int, Int)) {
        let (w, h, ow, oh) = size
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        var state: UInt32 = 7
        for i in 0..<(w * h) {
            state = state &* 1_664_525 &+ 1_013_904_223
            let x = i % w, y = i / w
            pixels[4 * i] = UInt8(truncatingIfNeeded: (x ^ y) & 0xFF)
            pixels[4 * i + 1] = UInt8(truncatingIfNeeded: state >> 24)
            pixels[4 * i + 2] = UInt8(truncatingIfNeeded: y * 255 / h)
            pixels[4 * i + 3] = (x / 64 + y / 64) % 3 == 0 ? 0 : 255
        }
        let image = RGBAImage(width: w, height: h, pixels: pixels)
        for content in [ImageResampler.Content.color, .data, .normal] {
            let one = ImageResampler.resized(image, width: ow, height: oh, content: content, wrapsX: false, wrapsY: true, bands: 1)
            let two = ImageResampler.resized(image, width: ow, height: oh, content: content, wrapsX: false, wrapsY: true, bands: 2)
            let worst = zip(one.pixels, two.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(one.width == ow && two.height == oh)
            #expect(oh.isMultiple(of: 2) ? worst == 0 : worst <= 1, "\(content) at \(ow)x\(oh): largest difference \(worst)")
        }
    }
}

import AssetCore
import Testing

@testable import AssetImage

/// Textures resized in bands of rows on two cores match the one-pass resize exactly: each output
/// row is worked out from the source alone, wherever the cut falls.
@Suite struct BandedResizeTests {
    @Test(arguments: [(1024, 1024, 512, 512), (1536, 1000, 1031, 677)])
    func bandsMatchOnePass(size: (Int, Int, Int, Int)) {
        let (w, h, ow, oh) = size
        let image = ResamplerReferenceTests.testImage(width: w, height: h)
        for content in [ImageResampler.Content.color, .data, .normal] {
            let one = ImageResampler.resized(image, width: ow, height: oh, content: content, wrapsX: false, wrapsY: true, bands: 1)
            let two = ImageResampler.resized(image, width: ow, height: oh, content: content, wrapsX: false, wrapsY: true, bands: 2)
            let worst = zip(one.pixels, two.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(one.width == ow && two.height == oh)
            #expect(worst == 0, "\(content) at \(ow)x\(oh): largest difference \(worst)")
        }
    }
}

import AssetCore
import CSTBImage
import Foundation
import Testing

@testable import AssetImage

/// ImageResampler against stb_image_resize (Debian's libstb), the library it replaced on the
/// budget pipeline's hot path: the same Mitchell filter, weighted by alpha and in linear light the
/// same way, so every texel within a level of it, except the colour of texels the result leaves
/// fully transparent (a ratio of two near-zero sums, invisible). Few differ at all: stb's
/// linear-to-sRGB step is a piecewise-linear fit (within 0.544 of a level, by its notes) where
/// ours is a table within 1/65535, so values near a level's midpoint can round either way.
@Suite struct ResamplerReferenceTests {
    @Test(arguments: [
        (512, 512, 256, 256, false, false), (640, 480, 203, 97, true, false), (300, 517, 300, 129, false, true),
        (64, 48, 150, 101, false, false), (1000, 7, 333, 3, true, true),
    ])
    func matchesStbImageResize(size: (Int, Int, Int, Int, Bool, Bool)) {
        let (w, h, ow, oh, wrapsX, wrapsY) = size
        for content in [ImageResampler.Content.color, .data, .normal] {
            let image = content == .normal ? Self.normalMap(width: w, height: h) : Self.testImage(width: w, height: h)
            let ours = ImageResampler.resized(image, width: ow, height: oh, content: content, wrapsX: wrapsX, wrapsY: wrapsY, bands: 2)
            let theirs = Self.stbResized(image, width: ow, height: oh, content: content, wrapsX: wrapsX, wrapsY: wrapsY)
            var worst = 0, differing = 0
            for i in 0..<(ow * oh) {
                let alpha = theirs[4 * i + 3]
                for c in 0..<4 where c == 3 || content == .normal || alpha > 0 {
                    let d = abs(Int(ours.pixels[4 * i + c]) - Int(theirs[4 * i + c]))
                    worst = max(worst, d)
                    if d > 0 { differing += 1 }
                }
            }
            #expect(worst <= 1, "\(content) \(w)x\(h) -> \(ow)x\(oh): largest difference \(worst)")
            #expect(differing * 50 < ow * oh * 4, "\(content) \(w)x\(h) -> \(ow)x\(oh): \(differing) channels differ")
        }
    }

    /// A shrink by a whole factor keeps a checkerboard's mean in linear light: mid-grey 188 in sRGB
    /// (128 were it filtered as sRGB numbers). Wrapped, since a clamped edge repeats one colour.
    @Test(arguments: [2, 4]) func shrunkCheckerboardIsLinearMidGrey(factor: Int) {
        let w = 64
        var pixels = [UInt8](repeating: 255, count: w * w * 4)
        for y in 0..<w { for x in 0..<w where (x + y) % 2 == 0 { for c in 0..<3 { pixels[4 * (y * w + x) + c] = 0 } } }
        let out = ImageResampler.resized(RGBAImage(width: w, height: w, pixels: pixels), width: w / factor, height: w / factor,
                                         content: .color, wrapsX: true, wrapsY: true)
        #expect(out.pixels.enumerated().allSatisfy { $0.offset % 4 == 3 ? $0.element == 255 : abs(Int($0.element) - 188) <= 1 })
    }

    /// Noise, gradients and a pattern of holes (alpha 0), so weighting by alpha is exercised.
    static func testImage(width w: Int, height h: Int) -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        var state: UInt32 = 11
        for i in 0..<(w * h) {
            state = state &* 1_664_525 &+ 1_013_904_223
            let x = i % w, y = i / w
            pixels[4 * i] = UInt8(truncatingIfNeeded: (x ^ y) & 0xFF)
            pixels[4 * i + 1] = UInt8(truncatingIfNeeded: state >> 24)
            pixels[4 * i + 2] = UInt8(truncatingIfNeeded: y * 255 / h)
            pixels[4 * i + 3] = (x / 16 + y / 16) % 3 == 0 ? 0 : UInt8(truncatingIfNeeded: 128 + (state >> 25))
        }
        return RGBAImage(width: w, height: h, pixels: pixels)
    }

    /// Unit normals tilted by a wave and a little noise, as a baked normal map holds them.
    static func normalMap(width w: Int, height h: Int) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: w * h * 4)
        var state: UInt32 = 5
        for i in 0..<(w * h) {
            state = state &* 1_664_525 &+ 1_013_904_223
            let x = Float(i % w), y = Float(i / w)
            let n = SIMD3<Float>(0.5 * sin(x / 5) + Float(state >> 28) / 64, 0.4 * cos(y / 7), 1)
            let unit = n / (n * n).sum().squareRoot()
            for c in 0..<3 { pixels[4 * i + c] = UInt8(((unit[c] + 1) * 127.5).rounded()) }
        }
        return RGBAImage(width: w, height: h, pixels: pixels)
    }

    static func stbResized(_ image: RGBAImage, width: Int, height: Int, content: ImageResampler.Content, wrapsX: Bool, wrapsY: Bool) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        let alpha: Int32 = content == .normal ? Int32(assetc_stbir_alpha_none) : 3
        let space = content == .color ? STBIR_COLORSPACE_SRGB : STBIR_COLORSPACE_LINEAR
        let status = image.pixels.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                stbir_resize(input.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4),
                             output.baseAddress, Int32(width), Int32(height), Int32(width * 4), STBIR_TYPE_UINT8, 4, alpha, 0,
                             wrapsX ? STBIR_EDGE_WRAP : STBIR_EDGE_CLAMP, wrapsY ? STBIR_EDGE_WRAP : STBIR_EDGE_CLAMP,
                             STBIR_FILTER_MITCHELL, STBIR_FILTER_MITCHELL, space, nil)
            }
        }
        #expect(status == 1)
        if content == .normal {
            // stb_image_resize has no notion of vectors: made unit length again from its 8 bits, as before.
            for i in stride(from: 0, to: out.count, by: 4) {
                let v = SIMD3(Float(out[i]), Float(out[i + 1]), Float(out[i + 2])) / 127.5 - 1
                let length = (v * v).sum().squareRoot()
                guard length > 1e-4 else { continue }
                for c in 0..<3 { out[i + c] = UInt8(min(max((v[c] / length + 1) * 127.5, 0), 255).rounded()) }
            }
        }
        return out
    }
}

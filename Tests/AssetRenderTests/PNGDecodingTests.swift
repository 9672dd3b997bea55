import AssetCore
import Foundation
import Testing

@testable import AssetImage

/// PNG decoding on both paths: files Pillow wrote (`Tests/Fixtures/textures/png/make_png_forms.py`)
/// decode to the pixels Pillow decodes them to, the libdeflate path takes 8-bit RGB and RGBA and
/// leaves the rest (grey, palettes, a gamma chunk) to libpng, and what assetc writes libpng reads
/// back pixel for pixel.
@Suite struct PNGDecodingTests {
    static let forms = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/textures/png").standardizedFileURL

    static func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: forms.appendingPathComponent(name))) }

    @Test(arguments: ["rgb8", "rgba8", "rgba8_every_filter", "grey8", "grey_alpha8", "palette", "palette_transparent"])
    func pillowsFilesDecodeToPillowsPixels(form: String) throws {
        let png = try Self.bytes(form + ".png"), expected = try Self.bytes(form + ".rgba")
        let image = try PNGCodec.decode(png)
        #expect(image.width == 37 && image.height == 23)
        #expect(image.pixels.count == expected.count && zip(image.pixels, expected).allSatisfy { $0 == $1 }, "\(form): Pillow's pixels")
        let direct = PNGStream.decodeCommon(png, maxPixels: PNGCodec.maxPixels)
        let common = ["rgb8", "rgba8", "rgba8_every_filter"].contains(form)
        #expect((direct != nil) == common, "the libdeflate path takes exactly the 8-bit RGB and RGBA forms")
        #expect(try PNGCodec.decodeByLibPNG(png).pixels == expected, "libpng agrees")
    }

    @Test func aGammaChunkIsLeftToLibPNG() throws {
        let png = try Self.bytes("rgb8_gamma.png")
        #expect(PNGStream.decodeCommon(png, maxPixels: PNGCodec.maxPixels) == nil)
        #expect(try PNGCodec.decode(png).pixels == (try PNGCodec.decodeByLibPNG(png)).pixels)
        #expect(try PNGCodec.decode(png).pixels != (try Self.bytes("rgb8.rgba")), "libpng's gamma conversion applies")
    }

    @Test(arguments: [PNGCodec.Effort.fast, .balanced])
    func libPNGReadsWhatAssetcWrites(effort: PNGCodec.Effort) throws {
        for (width, height) in [(1, 1), (37, 5), (256, 256), (300, 17)] {
            let image = PNGEncodingTests.picture(width: width, height: height)
            let back = try PNGCodec.decodeByLibPNG(try PNGCodec.encode(image, effort: effort))
            #expect(back.width == width && back.height == height && back.pixels == image.pixels, "\(width)x\(height) at \(effort)")
        }
    }

    @Test func damageIsLibPNGsToName() throws {
        var png = try Self.bytes("rgba8.png")
        png[png.count / 2] ^= 0x5A  // inside the IDAT: its CRC no longer holds
        #expect(PNGStream.decodeCommon(png, maxPixels: PNGCodec.maxPixels) == nil)
        #expect(throws: AssetError.self) { try PNGCodec.decode(png) }
        let short = Array(try Self.bytes("rgb8.png").prefix(120))
        #expect(PNGStream.decodeCommon(short, maxPixels: PNGCodec.maxPixels) == nil)
        #expect(throws: AssetError.self) { try PNGCodec.decode(short) }
    }
}

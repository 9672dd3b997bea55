import AssetCore
import AssetRender
import Foundation
import Testing

@Suite struct LegacyImageDecoderTests {
    static let textures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/validate/textures").standardizedFileURL

    @Test func bmpAndGIFDecodeToStraightRGBA() throws {
        let bmp = try LegacyImageDecoder.decode(Array(try Data(contentsOf: Self.textures.appendingPathComponent("albedo.bmp"))))
        #expect(bmp.width == 4 && bmp.height == 4)
        #expect(bmp.pixels.count == 64 && stride(from: 0, to: 64, by: 4).allSatisfy { Array(bmp.pixels[$0..<$0 + 4]) == [0x80, 0x80, 0x80, 255] })
        let gif = try LegacyImageDecoder.decode(Array(try Data(contentsOf: Self.textures.appendingPathComponent("albedo.gif"))))
        #expect(gif.width == 1 && gif.height == 1)
    }

    @Test func truncatedAndForeignBytesAreErrors() throws {
        let bmp = Array(try Data(contentsOf: Self.textures.appendingPathComponent("albedo.bmp")))
        #expect(throws: AssetError.self) { try LegacyImageDecoder.decode(Array(bmp.prefix(20))) }
        #expect(throws: AssetError.self) { try LegacyImageDecoder.decode(Array("not an image at all".utf8)) }
        #expect(throws: AssetError.self) { try LegacyImageDecoder.decode([]) }
    }

    @Test func hugeDeclaredSizesAreRefusedBeforeDecoding() {
        // A BMP header claiming 60000 x 60000 pixels over a few bytes of data.
        var header: [UInt8] = Array("BM".utf8) + [0x36, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 40, 0, 0, 0]
        header += [0x60, 0xEA, 0, 0, 0x60, 0xEA, 0, 0, 1, 0, 24, 0] + [UInt8](repeating: 0, count: 24)
        #expect(throws: AssetError.self) { try LegacyImageDecoder.decode(header) }
    }
}

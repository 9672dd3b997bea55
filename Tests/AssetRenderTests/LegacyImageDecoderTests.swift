import AssetCore
import AssetImage
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
        // A fuzzer's 22-byte TGA claiming 14,880 x 16,640 pixels (within the pixel limit): refused
        // for its size before stb_image allocates 990 MB for it.
        let tga: [UInt8] = [0, 0, 2, 0x62, 0, 0, 0, 0, 0, 0, 0, 0, 0x20, 0x3A, 0, 0x41, 0x20, 0x08, 0x87, 0x01, 0xFF, 0]
        #expect { try LegacyImageDecoder.decode(tga) } throws: { error in
            (error as? AssetError)?.message.contains("more than 22 bytes can hold") == true
        }
    }

    /// One-picture files leave nothing out; a TIFF IFD chain that loops, and cut or looping GIF
    /// blocks, end the walk rather than hang or read past the bytes.
    @Test func leftOutWalksContainersWithoutTrustingThem() throws {
        for name in ["albedo.bmp", "albedo.gif", "albedo.tif", "albedo.png"] {
            #expect(ImageDecoder.leftOut(of: Array(try Data(contentsOf: Self.textures.appendingPathComponent(name)))) == nil, "\(name)")
        }
        // Little-endian classic TIFF: two IFDs of no entries, the second pointing back at the first.
        let looping: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0] + [0, 0, 14, 0, 0, 0] + [0, 0, 8, 0, 0, 0]
        #expect(ImageDecoder.leftOut(of: looping) == "the first of 2 TIFF pages")
        let gif = Array(try Data(contentsOf: Self.textures.appendingPathComponent("albedo.gif")))
        for cut in stride(from: 0, through: gif.count, by: 1) { _ = ImageDecoder.leftOut(of: Array(gif.prefix(cut))) }
        // BigTIFF whose IFD points next to Int.max (a fuzzer's find): the walk stops, nothing overflows.
        let far: [UInt8] = [0x49, 0x49, 43, 0, 8, 0, 0, 0] + [16, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 8)
            + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]
        #expect(ImageDecoder.leftOut(of: far) == nil)
        // A DDS header saying cube map with all six faces.
        var dds = [UInt8](repeating: 0, count: 128)
        dds[0..<4] = ArraySlice("DDS ".utf8)
        dds[113] = 0xFE  // caps2 0xFE00: cube map and every face bit
        #expect(ImageDecoder.leftOut(of: dds) == "the first of 6 cube faces")
    }
}

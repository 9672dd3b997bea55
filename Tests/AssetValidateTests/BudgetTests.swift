import AssetCore
import Foundation
import Testing
@testable import AssetValidate

@Suite struct BudgetTests {
    @Test func defaultsAreARQuickLooksGuidanceAndKeysOverrideThem() throws {
        let defaults = ValidationBudget()
        #expect(defaults.triangles == 100_000 && defaults.textureSize == 2048 && defaults.fileBytes == 200 << 20 && defaults.durationSeconds == 10)
        let budget = try ValidationBudget.parse("triangles=5000, texture=1024,size=25MB,duration=2.5s")
        #expect(budget.triangles == 5000 && budget.textureSize == 1024 && budget.fileBytes == 25 << 20 && budget.durationSeconds == 2.5)
        let lifted = try ValidationBudget.parse("texture=none")
        #expect(lifted.textureSize == nil && lifted.triangles == 100_000)
        #expect(try ValidationBudget.parse("none") == .none)
    }

    @Test(arguments: ["triangles", "triangles=-1", "texture=0", "size=lots", "duration=forever", "polygons=5", "triangles=1,,texture=2"])
    func malformedBudgetsAreErrors(text: String) {
        #expect(throws: AssetError.self) { try ValidationBudget.parse(text) }
    }

    @Test func imageSizesComeFromTheHeaderAlone() throws {
        let textures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Fixtures/validate/textures")
        let png = Array(try Data(contentsOf: textures.appendingPathComponent("albedo.png")))
        #expect(ImageHeader.dimensions(png).map { [$0.0, $0.1] } == [4, 4])
        #expect(ImageHeader.dimensions(Array(png.prefix(20))) == nil)
        // SOI, an APP0 segment of 16 bytes, then SOF2 (progressive) for 640 x 480.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + [UInt8](repeating: 0, count: 14)
            + [0xFF, 0xC2, 0x00, 0x11, 0x08, 0x01, 0xE0, 0x02, 0x80, 0x03]
        #expect(ImageHeader.dimensions(jpeg).map { [$0.0, $0.1] } == [640, 480])
        // A DHT segment (0xC4) is not a frame header.
        let tables: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC4, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x10, 0x00, 0x20, 0x03]
        #expect(ImageHeader.dimensions(tables).map { [$0.0, $0.1] } == [32, 16])
        #expect(ImageHeader.dimensions(Array("GIF89a".utf8)) == nil)
    }
}

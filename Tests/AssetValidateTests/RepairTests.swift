import AssetCore
import AssetTestSupport
import AssetValidate
import Foundation
import FormatUSD
import Testing

/// `validate --fix` at the library level: what lands in the package and what is reported. The
/// cross-checks (Tests/CrossCheck/test_validate_fix.py) judge the packages with usd-core.
@Suite struct RepairTests {
    static let fixtures = USDZPackageLayoutTests.fixtures

    static let noTranscoding: TextureTranscoder = { _, name throws(AssetError) in
        throw AssetError(.unsupportedFormat("no decoder in this test for \(name)", supported: []))
    }

    static func repair(_ path: String, transcode: @escaping TextureTranscoder = noTranscoding) throws -> (RepairedPackage, USDZPackageLayout) {
        let repaired = try AssetValidator().repair(path: path, transcode: transcode)
        return (repaired, try USDZPackageLayout(bytes: repaired.bytes, location: "repaired.usdz"))
    }

    @Test func missingMetadataIsAuthoredAndTheRootBecomesACrate() throws {
        let (repaired, layout) = try Self.repair(Self.fixtures.appendingPathComponent("stage_metadata_missing.usda").path)
        #expect(layout.entries.map(\.name) == ["stage_metadata_missing.usdc", "textures/albedo.png", "textures/normal.png"])
        #expect(layout.entries.allSatisfy { $0.dataOffset % 64 == 0 && $0.compressionMethod == 0 })
        #expect(Array(repaired.bytes[layout.entries[0].dataOffset..<layout.entries[0].dataOffset + 8]) == Array("PXR-USDC".utf8))
        let metadata = repaired.changes.filter { $0.rule == "StageMetadataChecker" }.map(\.message)
        #expect(metadata == ["set upAxis to \"Y\"", "set metersPerUnit to 0.01", "set defaultPrim to \"Root\""])
        #expect(repaired.skipped.isEmpty)
    }

    @Test func aLayerInAnotherFormatIsPackagedAsUsda() throws {
        let folder = TemporaryFolder()
        let root = try ARKitRulesTests.stageReferencingATxtLayer(in: folder)
        let (repaired, layout) = try Self.repair(root.path)
        #expect(layout.entries.map(\.name) == ["root.usdc", "part.usda"])
        #expect(repaired.changes.contains { $0.rule == "ARKitLayerChecker" })
        let out = folder.appendingPathComponent("out.usdz")
        try Data(repaired.bytes).write(to: out)
        let after = try AssetValidator().validate(path: out.path, format: .usdz).findings
        #expect(!after.contains { $0.rule == "ARKitLayerChecker" || $0.severity == .error }, "\(after)")
    }

    @Test func aTextureThatCannotBeConvertedIsCarriedAndReported() throws {
        let (repaired, layout) = try Self.repair(Self.fixtures.appendingPathComponent("texture_bmp.usda").path)
        #expect(layout.entries.map(\.name).contains("textures/albedo.bmp"))
        #expect(repaired.skipped.map(\.rule) == ["TextureChecker"])
        #expect(!repaired.changes.contains { $0.rule == "TextureChecker" })
    }

    @Test func aConvertedTextureTakesAFreeName() throws {
        let png: TextureTranscoder = { _, _ throws(AssetError) in TranscodedTexture(png: Array("PNG bytes of the test".utf8)) }
        let (repaired, layout) = try Self.repair(Self.fixtures.appendingPathComponent("texture_bmp.usda").path, transcode: png)
        #expect(layout.entries.map(\.name) == ["texture_bmp.usdc", "textures/albedo.png", "textures/normal.png"])
        #expect(repaired.changes.contains { $0.rule == "TextureChecker" && $0.message.contains("textures/albedo.png") })
    }

    @Test func stagesWithoutARootPrimKeepTheirDefaultPrimUnfixed() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let root = folder.appendingPathComponent("empty.usda")
        try "#usda 1.0\n(\n    metersPerUnit = 1\n    upAxis = \"Y\"\n)\n\nover \"Nothing\"\n{\n}\n".write(to: root, atomically: true, encoding: .utf8)
        let finding = try #require(try AssetValidator().validate(path: root.path, format: .usda).findings.first { $0.rule == "StageMetadataChecker" })
        #expect(!finding.fixable)
    }
}

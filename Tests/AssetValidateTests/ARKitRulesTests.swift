import AssetCore
import AssetTestSupport
import AssetValidate
import Foundation
import Testing

@Suite struct ARKitRulesTests {
    static let fixtures = USDZPackageLayoutTests.fixtures

    static func findings(_ name: String) throws -> [ValidationFinding] {
        try AssetValidator().validate(path: fixtures.appendingPathComponent(name).path, format: .usda).findings
    }

    @Test func cleanStagePassesEveryRule() throws {
        #expect(try Self.findings("clean.usda").isEmpty)
        #expect(try Self.findings("clean.usdz").filter { $0.severity == .error }.isEmpty)
    }

    @Test(arguments: [
        ("unaligned.usdz", "ByteAlignmentChecker"), ("compressed.usdz", "CompressionChecker"),
        ("missing_texture.usda", "MissingReferenceChecker"), ("stage_metadata_zup.usda", "StageMetadataChecker"),
        ("texture_bmp.usda", "TextureChecker"), ("encapsulation_gprim.usda", "PrimEncapsulationChecker"),
        ("normal_map_unscaled.usda", "NormalMapTextureChecker"), ("binding_api_missing.usda", "MaterialBindingAPIAppliedChecker"),
        ("skel_binding_outside_root.usda", "SkelBindingAPIAppliedChecker"), ("shader_input_types.usda", "ShaderPropertyTypeConformanceChecker"),
        ("prim_types.usda", "ARKitPrimTypeChecker"), ("shader_unknown_id.usda", "ARKitShaderChecker"),
        ("binding_not_material.usda", "ARKitMaterialBindingChecker"), ("stray_files.usdz", "ARKitFileExtensionChecker"),
    ])
    func eachBrokenFixtureFailsItsRule(fixture: String, rule: String) throws {
        let failing = Set(try Self.findings(fixture).filter { $0.severity == .error }.map(\.rule))
        #expect(failing.contains(rule), "\(fixture): \(failing.sorted())")
    }

    @Test func findingsSayWhereAndWhat() throws {
        let texture = try #require(try Self.findings("texture_bmp.usda").first { $0.rule == "TextureChecker" })
        #expect(texture.location.elementPath == "/Root/Looks/Paint/Albedo.inputs:file")
        #expect(texture.location.line != nil && texture.message.contains("albedo.bmp"))
        let compressed = try #require(try Self.findings("compressed.usdz").first { $0.rule == "CompressionChecker" })
        #expect(compressed.location.file?.hasSuffix("compressed.usdz[textures/albedo.png]") == true && compressed.fixable)
        #expect(compressed.validators == ["usdUtilsValidators:UsdzPackageValidator", "usdUtilsValidators:RootPackageValidator"])
    }

    @Test func odd8BitNormalMapScaleIsAWarningOnly() throws {
        let findings = try Self.findings("normal_map_odd_scale.usda")
        #expect(findings.map(\.rule) == ["NormalMapTextureChecker"] && findings[0].severity == .warning)
    }

    /// usd-core cannot open a layer named outside the core formats, so no cross-check fixture shows
    /// this rule; assetc reads layers by content, so a usda layer named `.txt` is one it can name.
    @Test func layerWithANonCoreExtensionFailsTheLayerRule() throws {
        let folder = TemporaryFolder()
        let root = try Self.stageReferencingATxtLayer(in: folder)
        let findings = try AssetValidator().validate(path: root.path, format: .usda).findings
        #expect(findings.map(\.rule) == ["ARKitLayerChecker"])
    }

    /// `root.usda` referencing a usda layer named `part.txt`, both written into `folder`.
    static func stageReferencingATxtLayer(in folder: TemporaryFolder) throws -> URL {
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        try "#usda 1.0\n(\n    defaultPrim = \"Part\"\n)\n\ndef Xform \"Part\"\n{\n}\n"
            .write(to: folder.appendingPathComponent("part.txt"), atomically: true, encoding: .utf8)
        let root = folder.appendingPathComponent("root.usda")
        try "#usda 1.0\n(\n    defaultPrim = \"Root\"\n    metersPerUnit = 1\n    upAxis = \"Y\"\n)\n\ndef Xform \"Root\" (\n    references = @./part.txt@\n)\n{\n}\n"
            .write(to: root, atomically: true, encoding: .utf8)
        return root
    }

    @Test func aFileThatIsNotUSDIsAnErrorNotAReport() {
        #expect(throws: AssetError.self) {
            try AssetValidator().validate(path: Self.fixtures.appendingPathComponent("textures/albedo.png").path, format: .usda)
        }
    }
}

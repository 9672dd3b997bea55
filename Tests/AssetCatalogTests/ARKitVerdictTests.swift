import AssetCatalog
import AssetCore
import AssetTestSupport
import CatalogTestSupport
import Foundation
import Testing
@testable import AssetKit

/// The catalog keeps the verdict `assetc validate` gives each USD model, and the query language
/// asks it: `arkitErrors > 0`, `rule = TextureChecker`.
@Suite struct ARKitVerdictTests {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let temporary = TemporaryFolder("assetc-verdict")

    func indexedFixtures(_ backend: CatalogBackend) async throws -> (any Catalog, URL) {
        let folder = temporary.appendingPathComponent("validate")
        try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repository.appendingPathComponent("Tests/Fixtures/validate"), to: folder)
        let catalog = try await TestCatalog.make(backend, folder: temporary.appendingPathComponent("catalog").path)
        _ = try await IndexUseCase().run(roots: [folder.path], catalog: catalog)
        return (catalog, folder)
    }

    @Test(arguments: CatalogBackend.allCases) func everyUSDModelKeepsTheVerdictValidateGives(_ backend: CatalogBackend) async throws {
        let (catalog, folder) = try await indexedFixtures(backend)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { AssetFormat(rawValue: ($0 as NSString).pathExtension)?.isUSD == true }
        #expect(files.count >= 25)
        let validate = ValidateUseCase(options: ReadOptions().rooted(at: folder.path))
        for name in files.sorted() {
            let entry = try #require(try await catalog.record(id: "validate/" + name), "\(name)")
            guard case .report(let report) = validate.run(files: [folder.appendingPathComponent(name).path])[0] else {
                Issue.record("\(name) could not be validated")
                continue
            }
            #expect(entry.record.arkitErrors == report.errorCount && entry.record.arkitWarnings == report.warningCount, "\(name)")
            #expect(entry.arkitRules == report.failingRules, "\(name)")
        }
        // A package the reader refuses still has its verdict; a texture has none.
        let compressed = try #require(try await catalog.record(id: "validate/compressed.usdz"))
        #expect(compressed.record.error != nil && compressed.arkitRules == ["CompressionChecker"])
        #expect(try await catalog.record(id: "validate/textures/albedo.png")?.record.arkitErrors == nil)
    }

    @Test(arguments: CatalogBackend.allCases) func queriesAskTheVerdict(_ backend: CatalogBackend) async throws {
        let (catalog, _) = try await indexedFixtures(backend)
        #expect(try await catalog.query("rule = TextureChecker").map(\.id) == ["validate/texture_bmp.usda", "validate/texture_gif.usda", "validate/texture_tif.usda"])
        #expect(try await catalog.query("rule = texturechecker").count == 3, "rule names compare without case, like other text")
        #expect(try await catalog.query("rule ~ Compression").map(\.id) == ["validate/compressed.usdz"])
        let clean = try await catalog.query("arkitErrors = 0 and arkitWarnings = 0").map(\.id)
        #expect(clean == ["validate/clean.usda", "validate/geometry.usda"])
        let failing = try await catalog.query("arkitErrors > 0")
        #expect(failing.allSatisfy { ($0.arkitErrors ?? 0) > 0 } && failing.count >= 20)
        #expect(try await catalog.query("arkitErrors = null and kind = model").isEmpty, "every model here is USD")
        #expect(try await catalog.query("not rule = TextureChecker and rule = StageMetadataChecker").map(\.id)
            == ["validate/stage_metadata_bad_default.usda", "validate/stage_metadata_missing.usda", "validate/stage_metadata_zup.usda"])
        #expect(try await catalog.query("format = usdz", sort: "-arkitErrors").first?.id == "validate/unaligned.usdz")
        await #expect(throws: AssetError.self) { try await catalog.query("rule > TextureChecker") }
    }
}

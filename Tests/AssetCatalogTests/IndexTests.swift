import AssetTestSupport
import CatalogTestSupport
import AssetCatalog
import AssetCore
import Foundation
import Testing
@testable import AssetKit

@Suite struct IndexTests {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let temporary = TemporaryFolder("assetc-index")

    func copyOfSamples() throws -> URL {
        let work = temporary.appendingPathComponent("Art")
        try FileManager.default.createDirectory(at: work.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repository.appendingPathComponent("Assets"), to: work)
        // A catalog left in Assets/ by `Scripts/run` is not part of the samples.
        let leftover = work.appendingPathComponent(".assetc")
        if FileManager.default.fileExists(atPath: leftover.path) { try FileManager.default.removeItem(at: leftover) }
        return work
    }

    @Test(arguments: CatalogBackend.allCases) func rowsFollowTheFolder(_ backend: CatalogBackend) async throws {
        let art = try copyOfSamples()
        let catalog = try await TestCatalog.make(backend, folder: art.appendingPathComponent(".assetc").path)
        let useCase = IndexUseCase()
        let first = try await useCase.run(roots: [art.path], catalog: catalog)
        #expect(first.added == 6 && first.models == 3 && first.textures == 3 && first.failed == 0)
        #expect(try await catalog.record(id: "Art/Assets.xcassets/Planks.imageset/planks.png")?.record.kind == .texture, "image sets are catalogued")
        let ship = try #require(try await catalog.record(id: "Art/Art.scnassets/ship.dae"))
        #expect(ship.record.triangles == 148)
        #expect(ship.textureReferences.first?.resolvedID == "Art/Art.scnassets/textures/planks.png", "the reference links to the texture's row")
        #expect(try await catalog.linkedTextureCount() == 2)

        // Unchanged: nothing re-read.
        let second = try await useCase.run(roots: [art.path], catalog: catalog)
        #expect(second == IndexUseCase.Report(unchanged: 6, models: 3, textures: 3))

        // Modify one, delete one, add one, add a corrupt one.
        let usda = art.appendingPathComponent("SceneKitAssetCatalog.scnassets/LoomisHead/LoomisHead.usda")
        var text = try String(contentsOf: usda, encoding: .utf8)
        text = text.replacingOccurrences(of: "def Xform \"Guides\" (\n", with: "def Xform \"Guides\" (\n        active = false\n")
        try text.write(to: usda, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: art.appendingPathComponent("SceneKitAssetCatalog.scnassets/LoomisHead.usdz"))
        try FileManager.default.copyItem(at: repository.appendingPathComponent("Tests/Fixtures/collada/minimal_triangles.dae"),
                                         to: art.appendingPathComponent("new.dae"))
        try Data("#usda 1.0\ndef \"Broken\" {\n".utf8).write(to: art.appendingPathComponent("broken.usda"))
        let third = try await useCase.run(roots: [art.path], catalog: catalog)
        // Left: the cranium (14 rings of 32 quads, two of 32 triangles) and the jaw (7 rings of 24
        // quads, two 24-sided caps of 22 triangles each).
        #expect(third.added == 2 && third.updated == 1 && third.removed == 1 && third.failed == 1)
        #expect(try await catalog.record(id: "Art/SceneKitAssetCatalog.scnassets/LoomisHead.usdz") == nil)
        #expect(try await catalog.record(id: "Art/SceneKitAssetCatalog.scnassets/LoomisHead/LoomisHead.usda")?.record.triangles == 960 + 380, "the guides are inactive now")
        #expect(try await catalog.record(id: "Art/new.dae")?.record.triangles == 2)
        let broken = try #require(try await catalog.record(id: "Art/broken.usda"))
        #expect(broken.record.error?.contains("broken.usda:2:") == true, "recorded with its located error, not dropped")
        #expect(try await catalog.query("error != null").map(\.id) == ["Art/broken.usda"])
        #expect(try await catalog.integrityCheck() == "ok")
    }

    @Test(arguments: CatalogBackend.allCases) func thumbnailsAreCachedByContentHash(_ backend: CatalogBackend) async throws {
        let art = try copyOfSamples()
        let catalog = try await TestCatalog.make(backend, folder: art.appendingPathComponent(".assetc").path)
        var useCase = IndexUseCase(thumbnails: true)
        useCase.render.size = 32
        let report = try await useCase.run(roots: [art.path], catalog: catalog)
        #expect(report.thumbnailsFailed == 0)
        let usda = try #require(try await catalog.record(id: "Art/SceneKitAssetCatalog.scnassets/LoomisHead/LoomisHead.usda")?.record)
        let thumbnail = try #require(usda.thumbnail)
        // The service's naming: the same file answers GET .../thumbnail.png?size=32&view=iso.
        #expect(thumbnail == "thumbnails/\(usda.contentHash)-32-iso-\(ThumbnailUseCase().render.lookDigest).png")
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: catalog.folder).appendingPathComponent(thumbnail)))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try await catalog.record(id: "Art/Art.scnassets/textures/planks.png")?.record.thumbnail == nil, "textures get none")
    }

    @Test(arguments: CatalogBackend.allCases) func aThumbnailThatCannotBeWrittenIsReportedNotDropped(_ backend: CatalogBackend) async throws {
        let art = try copyOfSamples()
        let catalog = try await TestCatalog.make(backend, folder: art.appendingPathComponent(".assetc").path)
        // A file where the thumbnails folder should be: every write under it fails.
        try Data("in the way".utf8).write(to: URL(fileURLWithPath: catalog.folder).appendingPathComponent("thumbnails"))
        var useCase = IndexUseCase(thumbnails: true)
        useCase.render.size = 16
        let report = try await useCase.run(roots: [art.path], catalog: catalog)
        #expect(report.models == 3)
        #expect(report.thumbnailsFailed == 3)
        #expect(report.failed == 0, "the models themselves were read")
        let entry = try #require(try await catalog.record(id: "Art/Art.scnassets/ship.dae"))
        #expect(entry.record.thumbnail == nil)
        #expect(entry.record.triangles == 148)
        #expect(entry.warnings.first?.hasPrefix("thumbnail not rendered: ") == true, "\(entry.warnings)")
        #expect(entry.record.warningCount == entry.warnings.count)
    }

    @Test(arguments: CatalogBackend.allCases) func hostileFilesAmongGoodOnesAreRecordedAndTheRestIndexed(_ backend: CatalogBackend) async throws {
        let art = try copyOfSamples()
        let fixtures = repository.appendingPathComponent("Tests/Fixtures")
        let hostile = ["usd/fail-case/bad_crc.usdz", "usd/fail-case/malformed_nan.usda", "usd/fail-case/crate_huge_spec_count.usdc",
                       "collada/fail-case/accessor_huge_stride.dae", "collada/fail-case/input_huge_offset.dae"]
        try FileManager.default.createDirectory(at: art.appendingPathComponent("hostile"), withIntermediateDirectories: true)
        for path in hostile {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(path),
                                             to: art.appendingPathComponent("hostile/" + (path as NSString).lastPathComponent))
        }
        let catalog = try await TestCatalog.make(backend, folder: art.appendingPathComponent(".assetc").path)
        let report = try await IndexUseCase(thumbnails: true).run(roots: [art.path], catalog: catalog)
        #expect(report.models == 3 + hostile.count)
        #expect(report.failed == 3, "the CRC, number and crate files fail; the two Collada files read with warnings")
        for good in ["Art/SceneKitAssetCatalog.scnassets/LoomisHead.usdz", "Art/SceneKitAssetCatalog.scnassets/LoomisHead/LoomisHead.usda", "Art/Art.scnassets/ship.dae"] {
            let record = try #require(try await catalog.record(id: good)?.record)
            #expect(record.error == nil && record.thumbnail != nil, "\(good)")
        }
        #expect(try await catalog.record(id: "Art/hostile/bad_crc.usdz")?.record.error?.contains("CRC-32") == true)
        #expect(try await catalog.record(id: "Art/hostile/malformed_nan.usda")?.record.error?.contains("malformed number 'nanx'") == true)
        let stride = try #require(try await catalog.record(id: "Art/hostile/accessor_huge_stride.dae"))
        #expect(stride.record.error == nil && stride.record.meshes == 0)
        #expect(stride.warnings.contains { $0.contains("stride 4611686018427387904") })
    }
}

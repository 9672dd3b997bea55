import AssetCatalog
import AssetCore
import AssetTestSupport
import CatalogTestSupport
import Foundation
import Testing

/// Rows are read back into typed records: a kind or format no assetc writes is an error that names
/// the asset, on both engines, never a silent default.
@Suite struct RecordDecodingTests {
    let temporary = TemporaryFolder("assetc-records")

    @Test(arguments: CatalogBackend.allCases) func anUnknownFormatInARowIsAnErrorNamingTheAsset(_ backend: CatalogBackend) async throws {
        let catalog = try await TestCatalog.make(backend, folder: temporary.appendingPathComponent("catalog-\(backend)").path)
        let record = CatalogRecord(id: "r/a.glb", root: "/r", kind: .model, format: .glb, byteSize: 1, contentHash: "h", modifiedAt: 0, indexedAt: 0)
        try await catalog.store([CatalogEntry(record: record)])
        #expect(try await catalog.summary(id: "r/a.glb")?.format == .glb)
        #expect(try await catalog.record(id: "r/a.glb")?.record == record, "the typed record round-trips")
        try TestCatalog.execute("UPDATE asset SET format = 'blend' WHERE id = 'r/a.glb'", on: catalog)
        do {
            _ = try await catalog.summary(id: "r/a.glb")
            Issue.record("a row with format 'blend' was read as a summary")
        } catch {
            #expect(error.message.contains("'r/a.glb'") && error.message.contains("'blend'"), "\(error.message)")
        }
        await catalog.close()
    }
}

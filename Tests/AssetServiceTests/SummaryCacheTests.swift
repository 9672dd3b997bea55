@testable import AssetCatalog
import AssetKit
import AssetTestSupport
import CatalogTestSupport
import Foundation
import Testing
@testable import AssetService

@Suite struct SummaryCacheTests {
    let temporary = TemporaryFolder("assetc-summaries")
    static let summary = CatalogSummary(id: "Art/a.dae", root: "/r", kind: .model, format: .dae, byteSize: 1, contentHash: "h", error: nil)

    @Test func freshEntriesAreAnsweredFromMemoryAndOldOnesReloaded() async throws {
        let cache = SummaryCache(maxAgeSeconds: 0.2)
        var loads = 0
        func load(_ id: String) -> CatalogSummary? { loads += 1; return id == Self.summary.id ? Self.summary : nil }
        #expect(await cache.summary("Art/a.dae", load: load) == Self.summary)
        #expect(await cache.summary("Art/a.dae", load: load) == Self.summary)
        #expect(loads == 1, "the second request is served from memory")
        #expect(await cache.summary("Art/none.dae", load: load) == nil)
        #expect(await cache.summary("Art/none.dae", load: load) == nil)
        #expect(loads == 2, "an unknown id is remembered as unknown too")
        try await Task.sleep(for: .milliseconds(300))
        _ = await cache.summary("Art/a.dae", load: load)
        #expect(loads == 3, "past its age an entry is loaded again")
        cache.removeAll()
        _ = await cache.summary("Art/a.dae", load: load)
        #expect(loads == 4, "clearing forgets everything")
    }

    @Test func aFullCacheStartsOverInsteadOfGrowing() async throws {
        let cache = SummaryCache(maxAgeSeconds: 60, capacity: 3)
        var loads = 0
        func load(_ id: String) -> CatalogSummary? { loads += 1; return nil }
        for id in ["a", "b", "c", "d"] { _ = await cache.summary(id, load: load) }
        _ = await cache.summary("a", load: load)
        #expect(loads == 5, "'a' went when the fourth entry came")
        _ = await cache.summary("d", load: load)
        #expect(loads == 5)
    }

    @Test func valuesItIsToldNotToKeepAreLoadedEachTime() async {
        let cache = ExpiringCache<[UInt8]>(maxAgeSeconds: 60, capacity: 10, keeps: { $0.count <= 4 })
        var loads = 0
        func load(_ key: String) -> [UInt8] { loads += 1; return [UInt8](repeating: 0, count: key.count) }
        _ = await cache.value("abc", load: load)
        _ = await cache.value("abc", load: load)
        #expect(loads == 1, "a small value is kept")
        _ = await cache.value("abcdefgh", load: load)
        _ = await cache.value("abcdefgh", load: load)
        #expect(loads == 3, "a value over the bound is loaded again, never kept")
    }

    /// Another process (here: a second catalog connection) reindexes; the service answers with the
    /// new record once the old one has aged out.
    @Test(arguments: CatalogBackend.allCases) func anotherWritersChangeShowsWithinTheMaxAge(_ backend: CatalogBackend) async throws {
        let (server, art) = try await makeServer(backend, in: temporary)
        let plain = "/api/assets/Art/Art.scnassets/ship.dae"
        try await withLiveServer(server) { client in
            // Rendered and kept in memory: a stale summary would go on serving it.
            try await client.execute(uri: plain + "/thumbnail.png?size=32", method: .get) { #expect($0.status == .ok) }
            try FileManager.default.removeItem(at: art.appendingPathComponent("Art.scnassets/ship.dae"))
            let other = try await TestCatalog.reopen(server.catalog)
            _ = try await IndexUseCase().run(roots: [art.path], catalog: other)
            try await Task.sleep(nanoseconds: 1_200_000_000)
            try await client.execute(uri: plain + "/thumbnail.png?size=32", method: .get) {
                #expect($0.status == .notFound, "the record the other writer removed is gone from the service too")
            }
        }
    }

    /// Records' JSON and listing pages are encoded once and answered from memory for the max age
    /// (here long enough that only the cache can explain a second identical answer); the
    /// service's own reindex renews them at once.
    @Test(arguments: CatalogBackend.allCases) func jsonAnswersComeFromMemoryUntilTheServicesOwnReindex(_ backend: CatalogBackend) async throws {
        let (made, art) = try await makeServer(backend, in: temporary)
        var configuration = made.configuration
        configuration.summaryMaxAge = 600
        let server = AssetServer(catalog: made.catalog, configuration: configuration)
        let record = "/api/assets/Art/Art.scnassets/ship.dae", listing = "/api/assets?limit=50"
        try await withLiveServer(server) { client in
            let first = try await client.execute(uri: record, method: .get) { response in
                #expect(response.status == .ok)
                return String(buffer: response.body)
            }
            let firstListing = try await client.execute(uri: listing, method: .get) { String(buffer: $0.body) }
            #expect(firstListing.contains("ship.dae"))
            // Another writer removes the asset; within the max age the service still answers what it encoded.
            try FileManager.default.removeItem(at: art.appendingPathComponent("Art.scnassets/ship.dae"))
            let other = try await TestCatalog.reopen(server.catalog)
            _ = try await IndexUseCase().run(roots: [art.path], catalog: other)
            await other.close()
            #expect(try await server.catalog.summary(id: "Art/Art.scnassets/ship.dae") == nil, "the catalog itself has changed")
            try await client.execute(uri: record, method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == first, "answered from memory, not encoded again")
            }
            #expect(try await client.execute(uri: listing, method: .get) { String(buffer: $0.body) } == firstListing)
            // The service's own reindex clears what it keeps.
            try await client.execute(uri: "/api/reindex", method: .post, headers: [.authorization: "Bearer test-token-123"]) {
                #expect($0.status == .accepted)
            }
            var gone = false
            for _ in 0..<200 where !gone {
                try await Task.sleep(nanoseconds: 50_000_000)
                gone = try await client.execute(uri: record, method: .get) { $0.status == .notFound }
            }
            #expect(gone, "after the reindex the record is answered anew")
            #expect(!(try await client.execute(uri: listing, method: .get) { String(buffer: $0.body) }.contains("ship.dae")))
        }
    }
}

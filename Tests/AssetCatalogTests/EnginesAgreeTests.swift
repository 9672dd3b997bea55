import AssetCatalog
import AssetCore
import AssetTestSupport
import CatalogTestSupport
import Foundation
import Testing
@testable import AssetKit

/// The same folder indexed into SQLite and into PostgreSQL gives the same records, child rows,
/// query answers in the same order, and the same search matches.
@Suite struct EnginesAgreeTests {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let temporary = TemporaryFolder("assetc-engines")

    /// The sample assets, the validate fixtures (USD with ARKit verdicts) and a library with
    /// shared layers, under one root.
    func library() throws -> URL {
        let root = temporary.appendingPathComponent("Lib")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repository.appendingPathComponent("Assets"), to: root.appendingPathComponent("Assets"))
        try FileManager.default.copyItem(at: repository.appendingPathComponent("Tests/Fixtures/validate"), to: root.appendingPathComponent("validate"))
        try FileManager.default.copyItem(at: repository.appendingPathComponent("Tests/Fixtures/library"), to: root.appendingPathComponent("library"))
        let leftover = root.appendingPathComponent("Assets/.assetc")
        if FileManager.default.fileExists(atPath: leftover.path) { try FileManager.default.removeItem(at: leftover) }
        return root
    }

    static let queries = [
        "", "kind = model", "format = USDA", "triangles > 100", "triangles <= 148 or missingTextures > 0",
        "not (upAxis = y)", "upAxis != null and metersPerUnit < 1", "name ~ jaw", "name = Mast", "name != Skull",
        "rule = TextureChecker", "rule ~ arkit", "not rule = StageMetadataChecker", "arkitErrors > 0 and arkitWarnings = 0",
        "id ~ '_'", "path > 'Lib/v'", "sizeX > 0.1 and sizeY > 0.1", "error != null", "warnings > 0", "(format = usdz or format = dae) and not triangles < 10",
    ]
    static let sorts: [String?] = [nil, "-triangles", "format", "-sizeZ", "modified"]

    @Test func recordsQueriesAndSearchAgree() async throws {
        let root = try library()
        var catalogs: [any Catalog] = []
        for backend in CatalogBackend.allCases {
            let catalog = try await TestCatalog.make(backend, folder: temporary.appendingPathComponent("catalog-\(backend)").path)
            let report = try await IndexUseCase().run(roots: [root.path], catalog: catalog)
            #expect(report.failed > 0 && report.added == report.models + report.textures, "\(backend): \(report)")
            catalogs.append(catalog)
        }
        let (sqlite, postgres) = (catalogs[0], catalogs[1])
        let all = try await sqlite.query("")
        #expect(all.count > 40)
        #expect(try await postgres.count() == all.count)
        for record in all {
            var a = try #require(try await sqlite.record(id: record.id))
            var b = try #require(try await postgres.record(id: record.id), "\(record.id)")
            (a.record.indexedAt, b.record.indexedAt) = (0, 0)
            #expect(a == b, "\(record.id)")
        }
        #expect(try await sqlite.linkedTextureCount() == postgres.linkedTextureCount())
        #expect(try await postgres.integrityCheck() == "ok")
        for expression in Self.queries {
            for sort in Self.sorts {
                let a = try await sqlite.query(expression, sort: sort, limit: nil, offset: 0).map(\.id)
                let b = try await postgres.query(expression, sort: sort, limit: nil, offset: 0).map(\.id)
                #expect(a == b, "\(expression) sorted by \(sort ?? "id")")
            }
            let page = try await sqlite.query(expression, sort: "-triangles", limit: 3, offset: 2).map(\.id)
            #expect(try await postgres.query(expression, sort: "-triangles", limit: 3, offset: 2).map(\.id) == page, "\(expression), a page")
            let rest = try await sqlite.query(expression, sort: nil, limit: nil, offset: 5).map(\.id)
            #expect(try await postgres.query(expression, sort: nil, limit: nil, offset: 5).map(\.id) == rest, "\(expression), an offset alone")
        }
        // Ranking differs (bm25 against ts_rank); what is found does not.
        for words in ["loomis", "skull jaw", "texture", "ship planks", "room", "nothing-here-at-all", "usda"] {
            let a = Set(try await sqlite.search(words, limit: 1000).map(\.id))
            let b = Set(try await postgres.search(words, limit: 1000).map(\.id))
            #expect(a == b, "\(words)")
        }
        #expect(try await postgres.search("LoomisHead").first?.id == sqlite.search("LoomisHead").first?.id, "the best match leads on both")
        for catalog in catalogs { await catalog.close() }
    }

    /// Text users type reaches both engines as bound values, whatever it holds.
    @Test(arguments: CatalogBackend.allCases) func hostileTextIsJustText(_ backend: CatalogBackend) async throws {
        let catalog = try await TestCatalog.make(backend, folder: temporary.appendingPathComponent("hostile-\(backend)").path)
        var record = CatalogRecord(id: "r/it's \"quoted\" $1 ; DROP TABLE asset; --.usda", root: "/r", kind: .model, format: .usda,
                                   byteSize: 1, contentHash: "h", modifiedAt: 0, indexedAt: 0)
        record.error = "line 1: '\\' and % and _ and \u{1F600}"
        try await catalog.store([CatalogEntry(record: record, nodeNames: ["/Ünïcödé/Ñame", "/a'b"], warnings: ["$$ dollar quoted $$"])])
        #expect(try await catalog.query("name = 'a''b'").map(\.id) == [record.id])
        #expect(try await catalog.query("error ~ '\\'").map(\.id) == [record.id])
        #expect(try await catalog.query("error ~ '%'").map(\.id) == [record.id])
        #expect(try await catalog.query("id ~ '$1'").map(\.id) == [record.id])
        #expect(try await catalog.search("ñame").map(\.id) == [record.id], "letters outside ASCII are words too")
        #expect(try await catalog.search("' | & ! :*").isEmpty, "tsquery operators are not words")
        #expect(try await catalog.record(id: record.id)?.warnings == ["$$ dollar quoted $$"])
        #expect(try await catalog.count() == 1)
        await catalog.close()
    }
}

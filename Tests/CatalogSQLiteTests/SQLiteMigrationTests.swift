import AssetTestSupport
import Foundation
import GRDB
import Testing
import AssetCatalog
@testable import CatalogSQLite

/// A catalog written before search rows were keyed by their asset's rowid opens, is rekeyed, and
/// then finds, replaces and removes assets as a new one does.
@Suite struct SQLiteMigrationTests {
    let temporary = TemporaryFolder("assetc-migration")

    /// A catalog file as an older assetc left it: migrated up to `migration`, with `rows` written
    /// by hand; returns its path, closed.
    func olderCatalog(_ name: String, upTo migration: String, rows: @escaping @Sendable (Database) throws -> Void) async throws -> String {
        try FileManager.default.createDirectory(at: temporary.url, withIntermediateDirectories: true)
        let path = temporary.appendingPathComponent(name).path
        let pool = try DatabasePool(path: path)
        try SQLiteSchema.migrator.migrate(pool, upTo: migration)
        try await pool.write(rows)
        try pool.close()
        return path
    }

    @Test func searchRowsFromBeforeVersion5AreRekeyed() async throws {
        let path = try await olderCatalog("old.sqlite", upTo: "v4 thumbnail jobs") { db in
            for (n, id) in ["r/a.usda", "r/b.usda", "r/c.usda"].enumerated() {
                try db.execute(sql: "INSERT INTO asset (id, root, kind, format, byteSize, contentHash, modifiedAt, indexedAt) VALUES (?, '/r', 'model', 'usda', 1, ?, 0, 0)",
                               arguments: [id, "h\(n)"])
            }
            // Search rows in another order, so their rowids differ from the assets'.
            for (id, words) in [("r/c.usda", "r/c.usda Crate"), ("r/a.usda", "r/a.usda Anchor"), ("r/b.usda", "r/b.usda Barrel")] {
                try db.execute(sql: "INSERT INTO assetSearch (assetId, words) VALUES (?, ?)", arguments: [id, words])
            }
        }
        let catalog = try SQLiteCatalog(path: path)
        #expect(try await catalog.integrityCheck() == "ok")
        #expect(try await catalog.search("anchor").map(\.id) == ["r/a.usda"])
        #expect(try await catalog.search("crate").map(\.id) == ["r/c.usda"])
        // Replacing and removing now go through the rowid; nothing stale is left to find.
        try await catalog.store([CatalogEntry(record: CatalogRecord(id: "r/a.usda", root: "/r", kind: .model, format: .usda, byteSize: 2,
                                                                    contentHash: "h9", modifiedAt: 1, indexedAt: 1), nodeNames: ["/Buoy"])])
        try await catalog.remove(["r/c.usda"])
        #expect(try await catalog.search("anchor").isEmpty)
        #expect(try await catalog.search("buoy").map(\.id) == ["r/a.usda"])
        #expect(try await catalog.search("crate").isEmpty)
        #expect(try await catalog.search("barrel").map(\.id) == ["r/b.usda"])
        #expect(try await catalog.integrityCheck() == "ok")
    }

    /// Rows an assetc before typed formats wrote for files it could not read kept their extension:
    /// after the migration every row decodes, `.usd` is `usda` and read again at the next index,
    /// others are gone (search rows too) for the next index to add anew.
    @Test func formatsNoAssetcNamesAreMendedOrRemoved() async throws {
        let path = try await olderCatalog("v5.sqlite", upTo: "v5 search rows keyed by their asset's rowid") { db in
            for (id, format) in [("r/a.usd", "usd"), ("r/b.xml", "xml"), ("r/c.glb", "glb")] {
                try db.execute(sql: "INSERT INTO asset (id, root, kind, format, byteSize, contentHash, modifiedAt, indexedAt) VALUES (?, '/r', 'model', ?, 1, 'h', 5, 0)",
                               arguments: [id, format])
                try db.execute(sql: "INSERT INTO assetSearch (rowid, assetId, words) VALUES ((SELECT rowid FROM asset WHERE id = ?), ?, ?)",
                               arguments: [id, id, id])
            }
        }
        let catalog = try SQLiteCatalog(path: path)
        let records = try await catalog.query("", sort: "id")
        #expect(records.map(\.id) == ["r/a.usd", "r/c.glb"])
        #expect(records.map(\.format) == [.usda, .glb])
        #expect(records.map(\.modifiedAt) == [-1, 5], "the mended row is read again at the next index")
        #expect(try await catalog.search("xml").isEmpty)
        #expect(try await catalog.integrityCheck() == "ok")
    }
}

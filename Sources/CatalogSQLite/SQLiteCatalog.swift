import AssetCatalog
import AssetCore
import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// The SQLite catalog of indexed assets, the default engine. A `DatabasePool` in WAL mode, so
/// readers never block the indexer; every write is a transaction, so a process killed at any moment
/// leaves a catalog that opens and is consistent (each asset with all its rows, or none). Every
/// call goes through GRDB's async API: the statement runs on GRDB's own reader or writer queue and
/// the calling task is suspended meanwhile, so the service's cooperative threads never wait on
/// SQLite's locks or disk.
public final class SQLiteCatalog: Catalog {
    public let path: String
    let pool: DatabasePool

    public var location: String { path }
    public var engine: CatalogEngine { .sqlite }

    /// Opens (creating when needed) the catalog at `path` and brings its schema up to date.
    public init(path: String) throws(AssetError) {
        self.path = path
        do {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            // Two processes creating one catalog at once both found no tables and both made them
            // ("table asset already exists"): GRDB's migrator serialises writers of one process
            // only. The folder's flock makes the others wait until the first has migrated. The
            // folder, not the database file: closing any descriptor of the database would drop
            // the POSIX locks SQLite holds on it.
            let lock = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if lock >= 0 { _ = flock(lock, LOCK_EX) }
            defer { if lock >= 0 { Glibc.close(lock) } }  // closing releases the flock
            pool = try DatabasePool(path: path, configuration: configuration)
            try SQLiteSchema.migrator.migrate(pool)
        } catch {
            throw AssetError(.io("cannot open the catalog: \(error)"), at: SourceLocation(file: path))
        }
    }

    /// The folder beside the database where cached thumbnails live.
    public var folder: String { (path as NSString).deletingLastPathComponent }

    // MARK: Writing

    public func fingerprints(root: String) async throws(AssetError) -> CatalogFingerprints {
        try await read { db in
            var out = CatalogFingerprints()
            let rows = try Row.fetchCursor(db, sql: "SELECT id, byteSize, modifiedAt, contentHash, etag FROM asset WHERE root = ?", arguments: [root])
            while let row = try rows.next() {
                out[id: row["id"]] = CatalogFingerprint(byteSize: row["byteSize"], modifiedAt: row["modifiedAt"], contentHash: row["contentHash"], etag: row["etag"])
            }
            return out
        }
    }

    /// Replaces these assets (row and child rows) in one transaction.
    public func store(_ entries: [CatalogEntry]) async throws(AssetError) {
        try await write { db in
            for entry in entries {
                let id = entry.record.id
                try Self.deleteSearchRow(of: id, db)
                try db.execute(sql: "DELETE FROM asset WHERE id = ?", arguments: [id])  // cascades to child rows
                try SQLiteRecordRow(entry.record).insert(db)
                let rowid = db.lastInsertedRowID
                for name in entry.nodeNames {
                    try db.execute(sql: "INSERT INTO assetName (assetId, kind, name) VALUES (?, 'node', ?)", arguments: [id, name])
                }
                for name in entry.materialNames {
                    try db.execute(sql: "INSERT INTO assetName (assetId, kind, name) VALUES (?, 'material', ?)", arguments: [id, name])
                }
                for reference in entry.textureReferences {
                    try db.execute(sql: "INSERT INTO textureReference (assetId, path, resolves, resolvedID) VALUES (?, ?, ?, ?)",
                                   arguments: [id, reference.path, reference.resolves, reference.resolvedID])
                }
                for warning in entry.warnings {
                    try db.execute(sql: "INSERT INTO assetWarning (assetId, message) VALUES (?, ?)", arguments: [id, warning])
                }
                for rule in entry.arkitRules {
                    try db.execute(sql: "INSERT INTO assetRule (assetId, rule) VALUES (?, ?)", arguments: [id, rule])
                }
                try db.execute(sql: "INSERT INTO assetSearch (rowid, assetId, words) VALUES (?, ?, ?)",
                               arguments: [rowid, id, entry.searchText])
            }
        }
    }

    /// Updates only the modification time of files whose content did not change.
    public func touch(_ ids: [(id: String, modifiedAt: Double)]) async throws(AssetError) {
        try await write { db in
            for (id, time) in ids { try db.execute(sql: "UPDATE asset SET modifiedAt = ? WHERE id = ?", arguments: [time, id]) }
        }
    }

    public func remove(_ ids: [String]) async throws(AssetError) {
        try await write { db in
            for id in ids {
                try Self.deleteSearchRow(of: id, db)
                try db.execute(sql: "DELETE FROM asset WHERE id = ?", arguments: [id])
            }
        }
    }

    /// An asset's search row has the asset row's rowid, so it is deleted through FTS5's rowid
    /// index: `WHERE assetId = ?` on the unindexed column scanned the whole table, once per stored
    /// asset, and made indexing 100,000 files quadratic (60 records a second by the 60,000th).
    static func deleteSearchRow(of id: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM assetSearch WHERE rowid = (SELECT rowid FROM asset WHERE id = ?)", arguments: [id])
    }

    // MARK: Reading

    public func count() async throws(AssetError) -> Int {
        try await read { db in try SQLiteRecordRow.fetchCount(db) }
    }

    /// What serving an asset's file, thumbnail or conversion needs, read without decoding the whole
    /// record: the service asks this on every such request.
    public func summary(id: String) async throws(AssetError) -> CatalogSummary? {
        try await readOneStatement { db in
            let statement = try db.cachedStatement(sql: "SELECT id, root, kind, format, byteSize, contentHash, error FROM asset WHERE id = ?")
            guard let row = try Row.fetchOne(statement, arguments: [id]) else { return nil }
            return try CatalogSummary(id: row[0], root: row[1], kindName: row[2], formatName: row[3],
                                      byteSize: row[4], contentHash: row[5], error: row[6])
        }
    }

    public func record(id: String) async throws(AssetError) -> CatalogEntry? {
        try await read { db in
            guard let record = try SQLiteRecordRow.fetchOne(db, key: id)?.record else { return nil }
            let names = try Row.fetchAll(db, sql: "SELECT kind, name FROM assetName WHERE assetId = ? ORDER BY rowid", arguments: [id])
            let references = try Row.fetchAll(db, sql: "SELECT path, resolves, resolvedID FROM textureReference WHERE assetId = ? ORDER BY rowid", arguments: [id])
            let warnings = try String.fetchAll(db, sql: "SELECT message FROM assetWarning WHERE assetId = ? ORDER BY rowid", arguments: [id])
            let rules = try String.fetchAll(db, sql: "SELECT rule FROM assetRule WHERE assetId = ? ORDER BY rule", arguments: [id])
            return CatalogEntry(
                record: record,
                nodeNames: names.filter { $0["kind"] == "node" }.map { $0["name"] },
                materialNames: names.filter { $0["kind"] == "material" }.map { $0["name"] },
                textureReferences: references.map { TextureReferenceRow(path: $0["path"], resolves: $0["resolves"], resolvedID: $0["resolvedID"]) },
                warnings: warnings, arkitRules: rules)
        }
    }

    /// Records matching a query-language expression (`triangles > 10000 and format = usdz`).
    public func query(_ expression: String, sort: String?, limit: Int?, offset: Int) async throws(AssetError) -> [CatalogRecord] {
        let compiled = try CatalogQuery.compile(expression, sort: sort, limit: limit, offset: offset, dialect: .sqlite)
        let arguments = StatementArguments(compiled.arguments.map(\.databaseValue))
        return try await read { db in try SQLiteRecordRow.fetchAll(db, sql: compiled.sql, arguments: arguments).map(\.record) }
    }

    /// Full-text search over names, best match first.
    public func search(_ words: String, limit: Int) async throws(AssetError) -> [CatalogRecord] {
        guard let pattern = FTS5Pattern(matchingAnyTokenIn: words) else { return [] }
        return try await read { db in
            try SQLiteRecordRow.fetchAll(db, sql: """
                SELECT asset.* FROM assetSearch JOIN asset ON asset.id = assetSearch.assetId
                WHERE assetSearch MATCH ? ORDER BY bm25(assetSearch), asset.id LIMIT ?
                """, arguments: [pattern, limit]).map(\.record)
        }
    }

    /// Counts how many of each model's texture references point at an indexed texture asset.
    public func linkedTextureCount() async throws(AssetError) -> Int {
        try await read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM textureReference JOIN asset ON asset.id = textureReference.resolvedID") ?? 0
        }
    }

    /// `PRAGMA integrity_check` and foreign key check: "ok" when the database is consistent.
    public func integrityCheck() async throws(AssetError) -> String {
        try await read { db in
            let integrity = try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer"
            let orphans = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
            guard orphans.isEmpty else { return "foreign key violations: \(orphans.count)" }
            let unsearchable = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM asset LEFT JOIN assetSearch ON assetSearch.rowid = asset.rowid
                WHERE assetSearch.assetId IS NOT asset.id
                """) ?? 0
            return unsearchable == 0 ? integrity : "assets without their search row: \(unsearchable)"
        }
    }

    public func close() async {}

    // MARK: GRDB glue

    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(AssetError) -> T {
        do { return try await pool.read(body) } catch {
            throw Self.failure(error, "catalog read failed", path)
        }
    }

    /// `read` for a body that runs a single SELECT: SQLite gives one statement a consistent
    /// snapshot on its own, so the BEGIN and COMMIT of a read transaction are skipped. Measured on
    /// the service's cached-thumbnail route, the transaction was a tenth of each request.
    func readOneStatement<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(AssetError) -> T {
        do { return try await pool.unsafeRead(body) } catch {
            throw Self.failure(error, "catalog read failed", path)
        }
    }

    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(AssetError) -> T {
        do { return try await pool.write(body) } catch {
            throw Self.failure(error, "catalog write failed", path)
        }
    }

    private static func failure(_ error: any Error, _ what: String, _ path: String) -> AssetError {
        if let error = error as? AssetError { return error }
        return AssetError(.io("\(what): \(error)"), at: SourceLocation(file: path))
    }
}

extension CatalogQuery.Value {
    var databaseValue: DatabaseValue {
        switch self {
        case .integer(let n): n.databaseValue
        case .real(let x): x.databaseValue
        case .text(let s): s.databaseValue
        }
    }
}

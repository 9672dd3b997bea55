import AssetCatalog
import AssetCore
import Foundation
import PostgresNIO

/// The shared catalog on PostgreSQL, for a team: several indexers, workers and `serve` replicas on
/// one database. Every write is one transaction and every asset row an upsert, so processes racing
/// on the same files never lose or duplicate a record, and one killed mid-run leaves whole assets.
/// Connections come from postgres-nio's pool, whose `run()` lives in a task this catalog owns.
public final class PostgresCatalog: Catalog {
    public let location: String
    public let folder: String
    public var engine: CatalogEngine { .postgresql }
    let settings: PostgresConnectionString
    /// The pool in use, and the outage under way if the server stopped answering.
    let pool: Locked<PoolState>
    let logger = Logger(label: "assetc.catalog.postgres")
    /// The asset table's columns, read once after the schema is current.
    let columns = Locked<[String]?>(nil)

    /// Connects, and brings the schema up to date (one process at a time: an advisory lock).
    /// `connectTimeout` and `statementTimeout` (seconds) win over the connection string's.
    public init(url: String, thumbnailStore: String, connectTimeout: Double? = nil, statementTimeout: Double? = nil) async throws(AssetError) {
        var settings = try PostgresConnectionString(url)
        if let connectTimeout { settings.connectTimeoutSeconds = connectTimeout }
        if let statementTimeout { settings.statementTimeoutSeconds = statementTimeout }
        self.settings = settings
        location = settings.redacted
        folder = URL(fileURLWithPath: thumbnailStore).standardizedFileURL.path
        let logger = self.logger
        // The first connection alone: it migrates, and its failure is the command's one error.
        do {
            let first = try await PostgresConnection.connect(configuration: try settings.connectionConfiguration(), id: 0, logger: logger)
            do {
                try await Self.migrate(first, logger: logger)
                try await first.close()
            } catch {
                _ = try? await first.close()  // the migration's error is the one reported
                throw error
            }
        } catch {
            let why = "cannot open the catalog: \(Self.describe(error))"
            throw AssetError(Self.meansUnreachable(error) ? .unavailable(why) : .io(why), at: SourceLocation(file: settings.redacted))
        }
        pool = Locked(PoolState(settings: settings))
    }

    public func close() async {
        let running = pool.withLock { state in
            state.outage?.probe.cancel()
            state.outage = nil
            state.closed = true
            return state.running
        }
        running.cancel()
        // The pool ends once its connections are returned; a call left behind on a server that
        // stopped answering (see `leased`) may never return its own, and a process must not wait
        // on it to exit.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumed = Locked(false)
            let resume: @Sendable () -> Void = {
                if resumed.withLock({ done in defer { done = true }; return !done }) { continuation.resume() }
            }
            Task { await running.value; resume() }
            Task {
                try? await Task.sleep(for: .seconds(2))  // never cancelled: it only bounds the wait
                resume()
            }
        }
    }

    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.withTransaction(logger: logger) { connection in
            // Waiting for another process's migration, or building an index over a large
            // catalog, may take longer than one statement is otherwise allowed.
            try await connection.query("SET LOCAL statement_timeout = '10min'", logger: logger)
            // A fixed key: every assetc process migrating this database waits for the first.
            try await connection.query("SELECT pg_advisory_xact_lock(7305817412)", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS assetc_migrations (identifier text PRIMARY KEY)", logger: logger)
            var applied = Set<String>()
            for try await identifier in try await connection.query("SELECT identifier FROM assetc_migrations", logger: logger).decode(String.self) {
                applied.insert(identifier)
            }
            for migration in PostgresSchema.migrations where !applied.contains(migration.identifier) {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO assetc_migrations (identifier) VALUES (\(migration.identifier))", logger: logger)
            }
        }
    }

    // MARK: Reading

    public func fingerprints(root: String) async throws(AssetError) -> CatalogFingerprints {
        try await read { connection in
            var out = CatalogFingerprints()
            let rows = try await connection.query("SELECT id, byteSize, modifiedAt, contentHash, etag FROM asset WHERE root = \(root)", logger: self.logger)
            for try await (id, size, time, hash, etag) in rows.decode((String, Int64, Double, String, String?).self) {
                out[id: id] = CatalogFingerprint(byteSize: size, modifiedAt: time, contentHash: hash, etag: etag)
            }
            return out
        }
    }

    public func count() async throws(AssetError) -> Int {
        try await read { connection in
            try await connection.query("SELECT COUNT(*) FROM asset", logger: self.logger).decode(Int.self).collectOne() ?? 0
        }
    }

    public func summary(id: String) async throws(AssetError) -> CatalogSummary? {
        try await read { connection in
            let rows = try await connection.query("SELECT id, root, kind, format, byteSize, contentHash, error FROM asset WHERE id = \(id)", logger: self.logger)
            guard let (id, root, kind, format, size, hash, error) = try await rows.decode((String, String, String, String, Int64, String, String?).self).collectOne() else {
                return nil
            }
            return try CatalogSummary(id: id, root: root, kindName: kind, formatName: format,
                                      byteSize: size, contentHash: hash, error: error)
        }
    }

    public func record(id: String) async throws(AssetError) -> CatalogEntry? {
        try await readTogether { connection in
            let found = try await self.records(connection.query("SELECT row_to_json(asset)::text FROM asset WHERE id = \(id)", logger: self.logger))
            guard let record = found.first else { return nil }
            var entry = CatalogEntry(record: record)
            for try await (kind, name) in try await connection.query(
                "SELECT kind, name FROM assetName WHERE assetId = \(id) ORDER BY ordinal", logger: self.logger).decode((String, String).self) {
                if kind == "node" { entry.nodeNames.append(name) } else { entry.materialNames.append(name) }
            }
            for try await (path, resolves, resolvedID) in try await connection.query(
                "SELECT path, resolves, resolvedID FROM textureReference WHERE assetId = \(id) ORDER BY ordinal", logger: self.logger)
                .decode((String, Bool, String?).self) {
                entry.textureReferences.append(TextureReferenceRow(path: path, resolves: resolves, resolvedID: resolvedID))
            }
            for try await message in try await connection.query(
                "SELECT message FROM assetWarning WHERE assetId = \(id) ORDER BY ordinal", logger: self.logger).decode(String.self) {
                entry.warnings.append(message)
            }
            for try await rule in try await connection.query(
                "SELECT rule FROM assetRule WHERE assetId = \(id) ORDER BY rule", logger: self.logger).decode(String.self) {
                entry.arkitRules.append(rule)
            }
            return entry
        }
    }

    public func query(_ expression: String, sort: String?, limit: Int?, offset: Int) async throws(AssetError) -> [CatalogRecord] {
        let compiled = try CatalogQuery.compile(expression, sort: sort, limit: limit, offset: offset, dialect: .postgres)
        // Whole rows as JSON, decoded by the record's own Codable conformance: one column list to
        // keep. For a page, made for the page only: in one SELECT, PostgreSQL computed row_to_json
        // for every matching row before its top-N sort (0.22 s for a page of 50 out of 100,000);
        // the outer query, its subquery named `asset` too, sorts the page again by the same terms.
        // Without a limit every row is converted anyway, and one SELECT sorts once.
        let sql = limit == nil
            ? "SELECT row_to_json(asset)::text" + compiled.sql.dropFirst("SELECT asset.*".count)
            : "SELECT row_to_json(asset)::text FROM (\(compiled.sql)) AS asset ORDER BY \(compiled.order)"
        var bindings = PostgresBindings(capacity: compiled.arguments.count)
        for argument in compiled.arguments {
            switch argument {
            case .integer(let n): bindings.append(n)
            case .real(let x): bindings.append(x)
            case .text(let s): bindings.append(s)
            }
        }
        let query = PostgresQuery(unsafeSQL: sql, binds: bindings)
        return try await read { connection in try await self.records(connection.query(query, logger: self.logger)) }
    }

    /// Any of the words, best match first. PostgreSQL ranks with `ts_rank` where SQLite uses bm25,
    /// so among several matches the order can differ; the set found is the same.
    public func search(_ words: String, limit: Int) async throws(AssetError) -> [CatalogRecord] {
        let tokens = CatalogSearchText.tokens(words)
        guard !tokens.isEmpty else { return [] }
        // Tokens hold only letters and digits, so quoting each makes a tsquery that always parses.
        let tsquery = tokens.map { "'\($0)'" }.joined(separator: " | ")
        return try await read { connection in
            try await self.records(connection.query("""
                SELECT row_to_json(asset)::text FROM assetSearch JOIN asset ON asset.id = assetSearch.assetId,
                    to_tsquery('simple', \(tsquery)) AS q
                WHERE assetSearch.document @@ q ORDER BY ts_rank(assetSearch.document, q) DESC, asset.id LIMIT \(limit)
                """, logger: self.logger))
        }
    }

    public func linkedTextureCount() async throws(AssetError) -> Int {
        try await read { connection in
            try await connection.query("SELECT COUNT(*) FROM textureReference JOIN asset ON asset.id = textureReference.resolvedID",
                                   logger: self.logger).decode(Int.self).collectOne() ?? 0
        }
    }

    /// Foreign keys and CHECK constraints are enforced by the server; what is left to look at is
    /// that every asset has its search row (both are written in one transaction).
    public func integrityCheck() async throws(AssetError) -> String {
        try await read { connection in
            let missing = try await connection.query(
                "SELECT COUNT(*) FROM asset LEFT JOIN assetSearch ON assetSearch.assetId = asset.id WHERE assetSearch.assetId IS NULL",
                logger: self.logger).decode(Int.self).collectOne() ?? 0
            return missing == 0 ? "ok" : "assets without a search row: \(missing)"
        }
    }

    func records(_ rows: PostgresRowSequence) async throws -> [CatalogRecord] {
        var out: [CatalogRecord] = []
        for try await json in rows.decode(String.self) {
            out.append(try PostgresRecordJSON.decoder.decode(CatalogRecord.self, from: Data(json.utf8)))
        }
        return out
    }
}

extension AsyncSequence {
    /// Every element: a result read to its end releases its connection at once.
    func collectAll() async throws -> [Element] {
        var out: [Element] = []
        for try await value in self { out.append(value) }
        return out
    }

    func collectOne() async throws -> Element? { try await collectAll().first }
}

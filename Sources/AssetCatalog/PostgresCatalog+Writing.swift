import AssetCore
import Foundation
import PostgresNIO

/// Writes on PostgreSQL. Indexers on overlapping folders may store the same asset at the same
/// moment: the asset row is an upsert, which holds the row's lock until commit, so the second
/// writer waits, then replaces the first one's child rows (its statements see the committed ones).
/// Each transaction takes its rows in id order, so two of them cannot wait on each other in a cycle.
extension PostgresCatalog {
    public func store(_ entries: [CatalogEntry]) async throws(AssetError) {
        let sorted = entries.sorted { $0.record.id < $1.record.id }
        var rows: [(id: String, json: String)] = []
        for entry in sorted {
            do {
                rows.append((entry.record.id, String(decoding: try PostgresRecordJSON.encoder.encode(entry.record), as: UTF8.self)))
            } catch {
                throw AssetError(.io("cannot encode the record of \(entry.record.id): \(error)"), at: SourceLocation(file: location))
            }
        }
        let columns = try await assetColumns()
        let update = "(" + columns.joined(separator: ", ") + ") = ROW(" + columns.map { "EXCLUDED.\($0)" }.joined(separator: ", ") + ")"
        try await transaction { connection in
            for (entry, row) in zip(sorted, rows) {
                try await connection.query(PostgresQuery(unsafeSQL: """
                    INSERT INTO asset SELECT * FROM json_populate_record(NULL::asset, $1::json)
                    ON CONFLICT (id) DO UPDATE SET \(update)
                    """, binds: Self.bindings(row.json)), logger: self.logger)
                try await connection.query(Self.childRows(of: entry), logger: self.logger)
            }
        }
    }

    /// Deletes an asset's old child rows and inserts its new ones in one statement: data-modifying
    /// CTEs share one snapshot, so the DELETEs never see the rows the INSERTs add. The search row,
    /// one per asset under a unique key, is an upsert: a unique check would still see the old row.
    static func childRows(of entry: CatalogEntry) -> PostgresQuery {
        let names = entry.nodeNames.map { ("node", $0) } + entry.materialNames.map { ("material", $0) }
        let references = entry.textureReferences
        return """
            WITH
              oldNames AS (DELETE FROM assetName WHERE assetId = \(entry.record.id)),
              oldReferences AS (DELETE FROM textureReference WHERE assetId = \(entry.record.id)),
              oldWarnings AS (DELETE FROM assetWarning WHERE assetId = \(entry.record.id)),
              oldRules AS (DELETE FROM assetRule WHERE assetId = \(entry.record.id)),
              newNames AS (INSERT INTO assetName (assetId, ordinal, kind, name)
                SELECT \(entry.record.id), t.ordinal, t.kind, t.name
                FROM unnest(\(names.map(\.0))::text[], \(names.map(\.1))::text[]) WITH ORDINALITY AS t(kind, name, ordinal)),
              newReferences AS (INSERT INTO textureReference (assetId, ordinal, path, resolves, resolvedID)
                SELECT \(entry.record.id), t.ordinal, t.path, t.resolves, NULLIF(t.resolvedID, '')
                FROM unnest(\(references.map(\.path))::text[], \(references.map(\.resolves))::boolean[],
                            \(references.map { $0.resolvedID ?? "" })::text[]) WITH ORDINALITY AS t(path, resolves, resolvedID, ordinal)),
              newWarnings AS (INSERT INTO assetWarning (assetId, ordinal, message)
                SELECT \(entry.record.id), t.ordinal, t.message FROM unnest(\(entry.warnings)::text[]) WITH ORDINALITY AS t(message, ordinal)),
              newRules AS (INSERT INTO assetRule (assetId, ordinal, rule)
                SELECT \(entry.record.id), t.ordinal, t.rule FROM unnest(\(entry.arkitRules)::text[]) WITH ORDINALITY AS t(rule, ordinal))
            INSERT INTO assetSearch (assetId, words, document)
            VALUES (\(entry.record.id), \(entry.searchText), to_tsvector('simple', \(CatalogSearchText.tokens(entry.searchText).joined(separator: " "))))
            ON CONFLICT (assetId) DO UPDATE SET words = EXCLUDED.words, document = EXCLUDED.document
            """
    }

    public func touch(_ ids: [(id: String, modifiedAt: Double)]) async throws(AssetError) {
        let sorted = ids.sorted { $0.id < $1.id }
        try await transaction { connection in
            try await connection.query("""
                UPDATE asset SET modifiedAt = t.modifiedAt
                FROM unnest(\(sorted.map(\.id))::text[], \(sorted.map(\.modifiedAt))::float8[]) AS t(id, modifiedAt)
                WHERE asset.id = t.id
                """, logger: self.logger)
        }
    }

    /// Child rows, search rows and thumbnail jobs go with their asset (ON DELETE CASCADE).
    public func remove(_ ids: [String]) async throws(AssetError) {
        let sorted = ids.sorted()
        try await transaction { connection in
            try await connection.query("DELETE FROM asset WHERE id = ANY(\(sorted)::text[])", logger: self.logger)
        }
    }

    /// The asset table's columns in table order, asked of the server once: the upsert replaces each.
    func assetColumns() async throws(AssetError) -> [String] {
        if let known = columns.withLock({ $0 }) { return known }
        let found: [String] = try await read { client in
            try await client.query("""
                SELECT column_name::text FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = 'asset' AND column_name <> 'id' ORDER BY ordinal_position
                """, logger: self.logger).decode(String.self).collectAll()
        }
        columns.withLock { $0 = found }
        return found
    }

    static func bindings(_ json: String) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(json)
        return bindings
    }
}

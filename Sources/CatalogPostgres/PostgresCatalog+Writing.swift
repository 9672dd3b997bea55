import AssetCatalog
import AssetCore
import Foundation
import PostgresNIO

/// Writes on PostgreSQL. Indexers on overlapping folders may store the same asset at the same
/// moment: the asset row is an upsert, which holds the row's lock until commit, so the second
/// writer waits, then replaces the first one's child rows (its statements see the committed ones).
/// Each transaction takes its rows in id order, so two of them cannot wait on each other in a cycle.
extension PostgresCatalog {
    public func store(_ entries: [CatalogEntry]) async throws(AssetError) {
        // One row per id (the last given wins, as storing them one by one would), in id order.
        var byID: [String: CatalogEntry] = [:]
        for entry in entries { byID[entry.record.id] = entry }
        let sorted = byID.values.sorted { $0.record.id < $1.record.id }
        guard !sorted.isEmpty else { return }
        let records: String
        do {
            records = String(decoding: try PostgresRecordJSON.encoder.encode(sorted.map(\.record)), as: UTF8.self)
        } catch {
            throw AssetError(.io("cannot encode the records of \(sorted[0].record.id)...: \(error)"), at: SourceLocation(file: location))
        }
        let columns = try await assetColumns()
        let update = "(" + columns.joined(separator: ", ") + ") = ROW(" + columns.map { "EXCLUDED.\($0)" }.joined(separator: ", ") + ")"
        // Two statements per batch, whatever its size: one round trip each was most of the time
        // when every asset had its own (732 records a second into a local server).
        try await transaction { connection in
            try await connection.query(PostgresQuery(unsafeSQL: """
                INSERT INTO asset SELECT * FROM json_populate_recordset(NULL::asset, $1::json)
                ON CONFLICT (id) DO UPDATE SET \(update)
                """, binds: Self.bindings(records)), logger: self.logger)
            try await connection.query(ChildRows(sorted).query, logger: self.logger)
        }
    }

    /// Every child row of a batch as parallel arrays, one per column, for `unnest`.
    struct ChildRows {
        var ids: [String] = []
        var nameOwners: [String] = [], nameOrdinals: [Int] = [], nameKinds: [String] = [], names: [String] = []
        var referenceOwners: [String] = [], referenceOrdinals: [Int] = [], paths: [String] = [], resolves: [Bool] = [], resolvedIDs: [String] = []
        var warningOwners: [String] = [], warningOrdinals: [Int] = [], warnings: [String] = []
        var ruleOwners: [String] = [], ruleOrdinals: [Int] = [], rules: [String] = []
        var words: [String] = [], tokens: [String] = []

        init(_ entries: [CatalogEntry]) {
            for entry in entries {
                let id = entry.record.id
                ids.append(id)
                for (k, (kind, name)) in (entry.nodeNames.map { ("node", $0) } + entry.materialNames.map { ("material", $0) }).enumerated() {
                    nameOwners.append(id); nameOrdinals.append(k + 1); nameKinds.append(kind); names.append(name)
                }
                for (k, reference) in entry.textureReferences.enumerated() {
                    referenceOwners.append(id); referenceOrdinals.append(k + 1)
                    // No NULL inside a bound array: '' stands for "unresolved", which no id is.
                    paths.append(reference.path); resolves.append(reference.resolves); resolvedIDs.append(reference.resolvedID ?? "")
                }
                for (k, warning) in entry.warnings.enumerated() {
                    warningOwners.append(id); warningOrdinals.append(k + 1); warnings.append(warning)
                }
                for (k, rule) in entry.arkitRules.enumerated() {
                    ruleOwners.append(id); ruleOrdinals.append(k + 1); rules.append(rule)
                }
                words.append(entry.searchText)
                tokens.append(CatalogSearchText.tokens(entry.searchText).joined(separator: " "))
            }
        }

        /// Deletes the assets' old child rows and inserts the new ones in one statement:
        /// data-modifying CTEs share one snapshot, so the DELETEs never see the rows the INSERTs
        /// add. The search row, one per asset under a unique key, is an upsert instead: a unique
        /// check would still see the old row.
        var query: PostgresQuery {
            """
            WITH
              oldNames AS (DELETE FROM assetName WHERE assetId = ANY(\(ids)::text[])),
              oldReferences AS (DELETE FROM textureReference WHERE assetId = ANY(\(ids)::text[])),
              oldWarnings AS (DELETE FROM assetWarning WHERE assetId = ANY(\(ids)::text[])),
              oldRules AS (DELETE FROM assetRule WHERE assetId = ANY(\(ids)::text[])),
              newNames AS (INSERT INTO assetName (assetId, ordinal, kind, name)
                SELECT * FROM unnest(\(nameOwners)::text[], \(nameOrdinals)::int[], \(nameKinds)::text[], \(names)::text[])),
              newReferences AS (INSERT INTO textureReference (assetId, ordinal, path, resolves, resolvedID)
                SELECT t.assetId, t.ordinal, t.path, t.resolves, NULLIF(t.resolvedID, '')
                FROM unnest(\(referenceOwners)::text[], \(referenceOrdinals)::int[], \(paths)::text[], \(resolves)::boolean[],
                            \(resolvedIDs)::text[]) AS t(assetId, ordinal, path, resolves, resolvedID)),
              newWarnings AS (INSERT INTO assetWarning (assetId, ordinal, message)
                SELECT * FROM unnest(\(warningOwners)::text[], \(warningOrdinals)::int[], \(warnings)::text[])),
              newRules AS (INSERT INTO assetRule (assetId, ordinal, rule)
                SELECT * FROM unnest(\(ruleOwners)::text[], \(ruleOrdinals)::int[], \(rules)::text[]))
            INSERT INTO assetSearch (assetId, words, document)
            SELECT t.assetId, t.words, to_tsvector('simple', t.tokens)
            FROM unnest(\(ids)::text[], \(words)::text[], \(tokens)::text[]) AS t(assetId, words, tokens)
            ON CONFLICT (assetId) DO UPDATE SET words = EXCLUDED.words, document = EXCLUDED.document
            """
        }
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
        let found: [String] = try await read { connection in
            try await connection.query("""
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

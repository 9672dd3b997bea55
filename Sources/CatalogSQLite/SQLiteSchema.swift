import AssetCatalog
import GRDB

/// The catalog's schema as named migrations: the database says what is valid (NOT NULL, CHECK,
/// foreign keys that cascade), so no code path can leave a half-described asset behind.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 assets, names, texture references, warnings, search") { db in
            try db.create(table: "asset") { t in
                t.primaryKey("id", .text)
                t.column("root", .text).notNull()
                t.column("kind", .text).notNull().check(sql: "kind IN ('model', 'texture')")
                t.column("format", .text).notNull()
                t.column("byteSize", .integer).notNull().check { $0 >= 0 }
                t.column("contentHash", .text).notNull()
                t.column("modifiedAt", .double).notNull()
                for column in ["nodes", "meshes", "points", "faces", "triangles", "primitives", "materials", "textures"] {
                    t.column(column, .integer).check { $0 == nil || $0 >= 0 }
                }
                for column in ["minX", "minY", "minZ", "maxX", "maxY", "maxZ",
                               "minXMeters", "minYMeters", "minZMeters", "maxXMeters", "maxYMeters", "maxZMeters"] {
                    t.column(column, .double)
                }
                t.column("upAxis", .text).check(sql: "upAxis IS NULL OR upAxis IN ('X', 'Y', 'Z')")
                t.column("metersPerUnit", .double)
                t.column("missingTextures", .integer).notNull().defaults(to: 0)
                t.column("warningCount", .integer).notNull().defaults(to: 0)
                t.column("error", .text)
                t.column("thumbnail", .text)
                t.column("indexedAt", .double).notNull()
            }
            try db.create(index: "asset_root", on: "asset", columns: ["root"])
            try db.create(table: "assetName") { t in
                t.column("assetId", .text).notNull().references("asset", onDelete: .cascade)
                t.column("kind", .text).notNull().check(sql: "kind IN ('node', 'material')")
                t.column("name", .text).notNull()
            }
            try db.create(index: "assetName_asset", on: "assetName", columns: ["assetId"])
            try db.create(table: "textureReference") { t in
                t.column("assetId", .text).notNull().references("asset", onDelete: .cascade)
                t.column("path", .text).notNull()
                t.column("resolves", .boolean).notNull()
                // No foreign key: the texture may be indexed after the model that names it.
                t.column("resolvedID", .text)
            }
            try db.create(index: "textureReference_asset", on: "textureReference", columns: ["assetId"])
            try db.create(table: "assetWarning") { t in
                t.column("assetId", .text).notNull().references("asset", onDelete: .cascade)
                t.column("message", .text).notNull()
            }
            try db.create(index: "assetWarning_asset", on: "assetWarning", columns: ["assetId"])
            // Full-text search over file names, node paths and material names, one row per asset.
            try db.create(virtualTable: "assetSearch", using: FTS5()) { t in
                t.tokenizer = .unicode61()
                t.column("assetId").notIndexed()
                t.column("words")
            }
        }
        migrator.registerMigration("v2 skeletons and animation") { db in
            try db.alter(table: "asset") { t in
                for column in CatalogRecord.animationColumns {
                    t.add(column: column, .integer).check { $0 == nil || $0 >= 0 }
                }
                t.add(column: "duration", .double).check { $0 == nil || $0 >= 0 }
            }
            // Records read before these figures existed have none; an impossible modification time
            // makes the next index read every model again instead of skipping it as unchanged.
            try db.execute(sql: "UPDATE asset SET modifiedAt = -1 WHERE kind = 'model'")
        }
        migrator.registerMigration("v3 ARKit verdict") { db in
            try db.alter(table: "asset") { t in
                t.add(column: "arkitErrors", .integer).check { $0 == nil || $0 >= 0 }
                t.add(column: "arkitWarnings", .integer).check { $0 == nil || $0 >= 0 }
            }
            try db.create(table: "assetRule") { t in
                t.column("assetId", .text).notNull().references("asset", onDelete: .cascade)
                t.column("rule", .text).notNull()
            }
            try db.create(index: "assetRule_asset", on: "assetRule", columns: ["assetId"])
            try db.create(index: "assetRule_rule", on: "assetRule", columns: ["rule"])
            // USD models indexed before the verdict existed have none: read them again next time.
            try db.execute(sql: "UPDATE asset SET modifiedAt = -1 WHERE kind = 'model' AND format IN ('usda', 'usdc', 'usdz')")
        }
        migrator.registerMigration("v4 thumbnail jobs") { db in
            try db.create(table: "thumbnailJob") { t in
                t.primaryKey("assetId", .text).references("asset", onDelete: .cascade)
                t.column("contentHash", .text).notNull()
                t.column("size", .integer).notNull().check { $0 > 0 }
                t.column("view", .text).notNull()
                t.column("state", .text).notNull().check(sql: "state IN ('pending', 'running', 'done', 'failed')")
                t.column("worker", .text)
                t.column("claimedAt", .double)
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("error", .text)
                t.column("updatedAt", .double).notNull()
            }
            try db.create(index: "thumbnailJob_state", on: "thumbnailJob", columns: ["state"])
        }
        migrator.registerMigration("v5 search rows keyed by their asset's rowid") { db in
            try db.execute(sql: "CREATE TEMP TABLE searchCopy AS SELECT assetId, words FROM assetSearch")
            try db.execute(sql: "DELETE FROM assetSearch")
            try db.execute(sql: """
                INSERT INTO assetSearch (rowid, assetId, words)
                SELECT asset.rowid, searchCopy.assetId, searchCopy.words FROM searchCopy JOIN asset ON asset.id = searchCopy.assetId
                """)
            try db.execute(sql: "DROP TABLE searchCopy")
        }
        migrator.registerMigration(SQLiteSchema.typedFormats.identifier) { db in
            for statement in SQLiteSchema.typedFormats.statements { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v7 object entity tags") { db in
            try db.execute(sql: "ALTER TABLE asset ADD COLUMN etag TEXT")
        }
        migrator.registerMigration("v8 splats") { db in
            try db.alter(table: "asset") { t in
                t.add(column: "splats", .integer).check { $0 == nil || $0 >= 0 }
                t.add(column: "splatSHDegree", .integer).check { $0 == nil || ($0 >= 0 && $0 <= 3) }
            }
            // A PLY read before splats existed was counted as a point cloud: read it again.
            try db.execute(sql: "UPDATE asset SET modifiedAt = -1 WHERE kind = 'model' AND format = 'ply'")
        }
        return migrator
    }

    /// Records became typed (`AssetFormat`): a row an older assetc wrote for a file it could not
    /// read kept the file's extension as its format, which no longer decodes. A `.usd` row gets the
    /// format a read would now record (`usda`, by extension) and is read again at the next index;
    /// any other (a failed read of a file recognised by content, `model.xml`) is removed, search
    /// row included, and the next index adds it anew. The names are frozen here, as they were.
    static let typedFormats = (identifier: "v6 typed formats", statements: [
        "UPDATE asset SET format = 'usda', modifiedAt = -1 WHERE format = 'usd'",
        "DELETE FROM assetSearch WHERE rowid IN (SELECT rowid FROM asset WHERE format NOT IN \(formatNamesOfV6))",
        "DELETE FROM asset WHERE format NOT IN \(formatNamesOfV6)",
    ])

    static let formatNamesOfV6 = "('usda', 'usdc', 'usdz', 'dae', 'gltf', 'glb', 'obj', 'stl', 'ply', 'png', 'jpeg')"
}

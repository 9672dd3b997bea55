import AssetCatalog
import GRDB

/// A `CatalogRecord` as a row of SQLite's `asset` table. The record itself stays plain `Codable`
/// in AssetCatalog, so a package using the catalog's types does not link GRDB; this wrapper lends
/// it GRDB's record protocols by delegating its coding to the record's own.
struct SQLiteRecordRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = CatalogRecord.tableName

    var record: CatalogRecord

    init(_ record: CatalogRecord) { self.record = record }

    init(from decoder: any Decoder) throws { record = try CatalogRecord(from: decoder) }

    func encode(to encoder: any Encoder) throws { try record.encode(to: encoder) }
}

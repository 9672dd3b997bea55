import AssetCatalog
import AssetCore
import CatalogPostgres
import CatalogSQLite

/// Opens the catalog a `--db` value (or `ASSETC_DB`) names: the one place that knows both engines.
/// The executables call it; AssetKit and the service only ever see the `Catalog` protocol.
public enum CatalogDatabase {
    /// True for `postgres://...` and `postgresql://...`.
    public static func isPostgres(_ location: String) -> Bool {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
    }

    /// A PostgreSQL connection string opens the shared catalog (its thumbnails in `thumbnailStore`,
    /// else `.assetc` in the current folder; the timeouts, in seconds, win over the string's);
    /// anything else is a SQLite file path.
    public static func open(_ location: String, thumbnailStore: String? = nil,
                            connectTimeout: Double? = nil, statementTimeout: Double? = nil) async throws(AssetError) -> any Catalog {
        if isPostgres(location) {
            return try await PostgresCatalog(url: location, thumbnailStore: thumbnailStore ?? ".assetc",
                                             connectTimeout: connectTimeout, statementTimeout: statementTimeout)
        }
        if let thumbnailStore {
            throw AssetError(.malformed("--thumbnail-store is for a PostgreSQL catalog; a SQLite catalog keeps thumbnails beside its file"),
                             at: SourceLocation(file: thumbnailStore))
        }
        if connectTimeout != nil || statementTimeout != nil {
            throw AssetError(.malformed("--db-connect-timeout and --db-statement-timeout are for a PostgreSQL catalog"), at: SourceLocation(file: location))
        }
        return try SQLiteCatalog(path: location)
    }
}

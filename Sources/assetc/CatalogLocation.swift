import ArgumentParser
import AssetCatalog
import AssetCore
import AssetStorage
import CatalogEngines
import Foundation
import StorageS3

/// Which catalog a command works on: `--db`, else `ASSETC_DB`, else `.assetc/catalog.sqlite` (under
/// the first folder for the commands that take folders, here for the others). A `postgres://`
/// connection string opens the team's shared catalog instead of a SQLite file.
struct CatalogLocation: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The catalog: a SQLite file, or postgres://user[:password]@host[:port]/database for a shared one (default: $ASSETC_DB, else .assetc/catalog.sqlite).",
        valueName: "path-or-url"))
    var db: String?

    @Option(help: ArgumentHelp("Where thumbnails are kept: s3://BUCKET/PREFIX with either catalog, so machines share no disk; with a PostgreSQL catalog also a folder every machine shares (default: beside the SQLite file; .assetc here for PostgreSQL).",
                               valueName: "folder-or-s3-url"))
    var thumbnailStore: String?

    @Option(help: ArgumentHelp("With a PostgreSQL catalog: seconds to wait for a connection before the database counts as unreachable (default: connect_timeout in the string, else 5).",
                               valueName: "seconds"))
    var dbConnectTimeout: Double?

    @Option(help: ArgumentHelp("With a PostgreSQL catalog: seconds the server lets one statement run (default: statement_timeout in the string, else 10).",
                               valueName: "seconds"))
    var dbStatementTimeout: Double?

    func validate() throws {
        for (name, value) in [("--db-connect-timeout", dbConnectTimeout), ("--db-statement-timeout", dbStatementTimeout)] {
            if let value, !(value > 0 && value <= 86_400) { throw ValidationError("\(name) takes seconds, more than 0 and at most 86400") }
        }
    }

    /// The bucket thumbnails go to when `--thumbnail-store` names one; nil: the catalog's folder.
    func bucketThumbnailStore(retry: S3Client.RetryPolicy = .init()) throws(ExitCode) -> (any ObjectStore)? {
        guard let thumbnailStore, StorageLocation.isBucket(thumbnailStore) else { return nil }
        return try ExitStatus.orExit { try Stores.open(thumbnailStore, retry: retry) }
    }

    func resolved(defaultPath: String) -> String {
        db ?? ProcessInfo.processInfo.environment["ASSETC_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultPath
    }

    /// Opens the catalog, runs `body` and closes it, whether `body` succeeded or not. A SQLite file
    /// that does not exist is an error unless `creating`: a typo must not make an empty catalog.
    func with<T>(defaultPath: String = ".assetc/catalog.sqlite", creating: Bool = false,
                 _ body: (any Catalog) async throws -> T) async throws(ExitCode) -> T {
        let location = resolved(defaultPath: defaultPath)
        let catalog = try await ExitStatus.orExit { () async throws(AssetError) -> any Catalog in
            if !creating, !CatalogDatabase.isPostgres(location), !FileManager.default.fileExists(atPath: location) {
                throw AssetError(.fileNotFound, at: SourceLocation(file: location + " (run assetc index first, or pass --db)"))
            }
            // A bucket is the thumbnail store whatever the engine; the engine keeps its own folder.
            let folderStore = thumbnailStore.flatMap { StorageLocation.isBucket($0) ? nil : $0 }
            return try await CatalogDatabase.open(location, thumbnailStore: folderStore,
                                                  connectTimeout: dbConnectTimeout, statementTimeout: dbStatementTimeout)
        }
        do {
            let value = try await ExitStatus.orExit { try await body(catalog) }
            await catalog.close()
            return value
        } catch {
            await catalog.close()
            throw error
        }
    }
}

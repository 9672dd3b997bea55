import ArgumentParser
import AssetCatalog
import AssetCore
import CatalogEngines
import Foundation

/// Which catalog a command works on: `--db`, else `ASSETC_DB`, else `.assetc/catalog.sqlite` (under
/// the first folder for the commands that take folders, here for the others). A `postgres://`
/// connection string opens the team's shared catalog instead of a SQLite file.
struct CatalogLocation: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The catalog: a SQLite file, or postgres://user[:password]@host[:port]/database for a shared one (default: $ASSETC_DB, else .assetc/catalog.sqlite).",
        valueName: "path-or-url"))
    var db: String?

    @Option(help: ArgumentHelp("With a PostgreSQL catalog: the folder, shared by every machine, where thumbnails are kept (default: .assetc here).",
                               valueName: "folder"))
    var thumbnailStore: String?

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
            return try await CatalogDatabase.open(location, thumbnailStore: thumbnailStore)
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

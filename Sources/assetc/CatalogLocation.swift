import ArgumentParser
import AssetCatalog
import AssetCore
import Foundation

/// Where the catalog is: --db, else `.assetc/catalog.sqlite` in the current folder.
struct CatalogLocation: ParsableArguments {
    @Option(help: "The catalog database (default: .assetc/catalog.sqlite here).")
    var db: String?

    func open() throws(ExitCode) -> Catalog {
        let path = db ?? ".assetc/catalog.sqlite"
        return try ExitStatus.orExit { () throws(AssetError) in
            guard FileManager.default.fileExists(atPath: path) else {
                throw AssetError(.fileNotFound, at: SourceLocation(file: path + " (run assetc index first, or pass --db)"))
            }
            return try Catalog(path: path)
        }
    }
}

import ArgumentParser
import AssetCatalog
import AssetKit

struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Record the assets under folders in the catalog; later runs update only what changed.")

    @Argument(help: "Folders to index (.scnassets, .xcassets or any).")
    var paths: [String]

    @Option(help: "The catalog database (default: .assetc/catalog.sqlite under the first folder).")
    var db: String?

    @Flag(help: "Render and cache a thumbnail per model.")
    var thumbnails = false

    @OptionGroup var reading: ReadingOptions

    func run() throws {
        let catalog = try ExitStatus.orExit { try Catalog(path: db ?? IndexUseCase.defaultDatabase(for: paths)) }
        let useCase = IndexUseCase(readOptions: reading.readOptions, thumbnails: thumbnails)
        let report = try ExitStatus.orExit { try useCase.run(roots: paths, catalog: catalog) }
        var summary = "indexed \(report.models) models and \(report.textures) textures into \(catalog.path): " +
            "\(report.added) added, \(report.updated) updated, \(report.unchanged) unchanged, \(report.removed) removed, \(report.failed) failed to read"
        if report.thumbnailsFailed > 0 { summary += ", \(report.thumbnailsFailed) thumbnails failed (see assetc show)" }
        print(summary)
    }
}

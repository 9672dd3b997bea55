import ArgumentParser
import AssetCatalog
import AssetKit
import AssetRender

struct IndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Record the assets under folders in the catalog; later runs update only what changed.")

    @Argument(help: "Folders to index (.scnassets, .xcassets or any), or s3://BUCKET/PREFIX locations.")
    var paths: [String]

    @OptionGroup(title: "Catalog (default: .assetc/catalog.sqlite under the first folder)") var location: CatalogLocation

    @Flag(help: "Render and cache a thumbnail per model.")
    var thumbnails = false

    @Flag(help: "Record a thumbnail job per model read, for assetc worker processes to render (on this machine or others).")
    var deferThumbnails = false

    @Option(help: ArgumentHelp("Thumbnail size in pixels, for --thumbnails and --defer-thumbnails: one of the sizes the service serves (\(ThumbnailSize.names)).",
                               valueName: "pixels"))
    var thumbnailSize = ThumbnailSize.default

    func validate() throws {
        // Any other size would make pictures `serve` never hands out (it serves these sizes only).
        guard ThumbnailSize.served.contains(thumbnailSize) else {
            throw ValidationError("--thumbnail-size takes one of the sizes the service serves: \(ThumbnailSize.names)")
        }
    }

    @OptionGroup var reading: ReadingOptions
    @OptionGroup var drawing: DrawingOptions

    @Option(help: ArgumentHelp("Seconds to keep retrying while an S3 store does not answer, then fail with status 75.", valueName: "seconds"))
    var retryFor: Double = 60

    @OptionGroup(title: "Look of the thumbnails (workers rendering deferred ones should be given the same)") var look: LookOptions

    func run() async throws {
        var useCase = IndexUseCase(readOptions: drawing.applied(to: reading.readOptions), thumbnails: thumbnails)
        useCase.deferThumbnails = deferThumbnails
        useCase.render.size = thumbnailSize
        useCase.stores = Stores.opener(retry: Stores.retry(for: retryFor))
        useCase.thumbnailStore = try location.bucketThumbnailStore(retry: Stores.retry(for: retryFor))
        let (report, catalogName) = try await location.with(defaultPath: IndexUseCase.defaultDatabase(for: paths), creating: true) { catalog in
            if thumbnails { try look.apply(to: &useCase.render, cacheFolder: ThumbnailCache(catalogFolder: catalog.folder).environmentFolder) }
            else { try look.apply(to: &useCase.render) }
            return (try await useCase.run(roots: paths, catalog: catalog), catalog.location)
        }
        var summary = "indexed \(report.models) models and \(report.textures) textures into \(catalogName): " +
            "\(report.added) added, \(report.updated) updated, \(report.unchanged) unchanged, \(report.removed) removed, \(report.failed) failed to read"
        if deferThumbnails { summary += ", \(report.thumbnailJobs) thumbnail jobs recorded (assetc worker renders them)" }
        if report.thumbnailsFailed > 0 { summary += ", \(report.thumbnailsFailed) thumbnails failed (see assetc show)" }
        var stderr = StandardError()
        for skipped in report.skipped { print("assetc: warning: \(TerminalText.safe(skipped))", to: &stderr) }
        print(summary)
    }
}

import ArgumentParser
import AssetCatalog
import AssetKit
import AssetRender
import AssetService
import AssetStorage
import StorageS3

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the catalog over HTTP: a JSON API under /api and an HTML gallery at /.",
        discussion: """
            With folders, indexes them first (as assetc index does). Binds to loopback unless --host says \
            otherwise. Mutations (POST /api/reindex) are off unless --token is set. Stops gracefully on \
            SIGINT or SIGTERM. See Docs/CLI.md for the endpoints.
            """)

    @Argument(help: "Folders or s3://BUCKET/PREFIX locations to index before serving, and to re-index on POST /api/reindex.")
    var paths: [String] = []

    @OptionGroup(title: "Catalog (default: .assetc/catalog.sqlite under the first folder, else here)") var location: CatalogLocation

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8080

    @Option(help: "Allow POST /api/reindex with Authorization: Bearer TOKEN.")
    var token: String?

    @Option(help: "The least severe log line printed; info logs one line per request.")
    var logLevel: ServiceConfiguration.LogLevel = .info

    @OptionGroup(title: "Look of thumbnails, previews and swatches") var look: LookOptions

    @Flag(help: "Answer thumbnails, conversions and bucket assets' downloads with a 302 to a presigned URL of the object in the store (with an s3:// --thumbnail-store).")
    var redirectToStore = false

    @Option(help: ArgumentHelp("Seconds the presigned URLs of --redirect-to-store work (1 to 604800).", valueName: "seconds"))
    var redirectExpires = 900

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes 0 to 65535") }
        if let token, token.count < 8 { throw ValidationError("--token needs at least 8 characters") }
        guard (1...604_800).contains(redirectExpires) else { throw ValidationError("--redirect-expires takes 1 to 604800 seconds") }
        if redirectToStore, !(location.thumbnailStore.map(StorageLocation.isBucket) ?? false) {
            throw ValidationError("--redirect-to-store needs an s3:// --thumbnail-store")
        }
    }

    func run() async throws {
        let path = paths.isEmpty ? ".assetc/catalog.sqlite" : IndexUseCase.defaultDatabase(for: paths)
        try await location.with(defaultPath: path, creating: true) { catalog in try await serve(catalog) }
    }

    func serve(_ catalog: any Catalog) async throws {
        var render = RenderOptions()
        try look.apply(to: &render, cacheFolder: ThumbnailCache(catalogFolder: catalog.folder).environmentFolder, shadowByDefault: true)
        // While serving, a store that does not answer is a 503 within seconds, not a long retry:
        // the client asks again (Retry-After) and the service recovers with the store.
        var quick = S3Client.RetryPolicy(attempts: 4, budget: 3, requestTimeout: 2)
        quick.cap = 0.5
        let thumbnailStore = try location.bucketThumbnailStore(retry: quick)
        if !paths.isEmpty {
            var indexer = IndexUseCase(thumbnails: true)
            indexer.render = render
            indexer.stores = Stores.opener()
            indexer.thumbnailStore = try location.bucketThumbnailStore()
            let report = try await indexer.run(roots: paths, catalog: catalog)
            print("indexed \(report.models) models and \(report.textures) textures into \(catalog.location)")
        }
        var configuration = ServiceConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.token = token
        configuration.roots = paths
        configuration.logLevel = logLevel
        configuration.render = render
        configuration.stores = Stores.opener(retry: quick)
        configuration.thumbnailStore = thumbnailStore
        configuration.redirectToStore = redirectToStore
        configuration.redirectSeconds = redirectExpires
        let server = AssetServer(catalog: catalog, configuration: configuration)
        let count = try await catalog.count()
        print("serving \(count) assets at http://\(host):\(port)/  (Ctrl-C to stop)")
        try await server.run()
    }
}

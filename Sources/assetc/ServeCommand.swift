import ArgumentParser
import AssetCatalog
import AssetKit
import AssetRender
import AssetService

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the catalog over HTTP: a JSON API under /api and an HTML gallery at /.",
        discussion: """
            With folders, indexes them first (as assetc index does). Binds to loopback unless --host says \
            otherwise. Mutations (POST /api/reindex) are off unless --token is set. Stops gracefully on \
            SIGINT or SIGTERM. See Docs/CLI.md for the endpoints.
            """)

    @Argument(help: "Folders to index before serving, and to re-index on POST /api/reindex.")
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

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes 0 to 65535") }
        if let token, token.count < 8 { throw ValidationError("--token needs at least 8 characters") }
    }

    func run() async throws {
        let path = paths.isEmpty ? ".assetc/catalog.sqlite" : IndexUseCase.defaultDatabase(for: paths)
        try await location.with(defaultPath: path, creating: true) { catalog in try await serve(catalog) }
    }

    func serve(_ catalog: any Catalog) async throws {
        var render = RenderOptions()
        try look.apply(to: &render, cacheFolder: ThumbnailCache(catalogFolder: catalog.folder).environmentFolder, shadowByDefault: true)
        if !paths.isEmpty {
            var indexer = IndexUseCase(thumbnails: true)
            indexer.render = render
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
        let server = AssetServer(catalog: catalog, configuration: configuration)
        let count = try await catalog.count()
        print("serving \(count) assets at http://\(host):\(port)/  (Ctrl-C to stop)")
        try await server.run()
    }
}

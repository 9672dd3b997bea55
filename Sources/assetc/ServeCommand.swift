import ArgumentParser
import AssetCatalog
import AssetCore
import AssetKit
import AssetService
import Foundation
import Hummingbird
import Logging

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

    @Option(help: "The catalog database (default: .assetc/catalog.sqlite under the first folder, else here).")
    var db: String?

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8080

    @Option(help: "Allow POST /api/reindex with Authorization: Bearer TOKEN.")
    var token: String?

    @Option(help: "Log level: trace, debug, info (one line per request), notice, warning, error, critical.")
    var logLevel = "info"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes 0 to 65535") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level takes trace, debug, info, notice, warning, error or critical") }
        if let token, token.count < 8 { throw ValidationError("--token needs at least 8 characters") }
    }

    func run() async throws {
        let path = db ?? (paths.isEmpty ? ".assetc/catalog.sqlite" : IndexUseCase.defaultDatabase(for: paths))
        let catalog: Catalog
        do throws(AssetError) { catalog = try Catalog(path: path) } catch { throw fail(error) }
        if !paths.isEmpty {
            do throws(AssetError) {
                let report = try IndexUseCase(thumbnails: true).run(roots: paths, catalog: catalog)
                print("indexed \(report.models) models and \(report.textures) textures into \(path)")
            } catch {
                throw fail(error)
            }
        }
        var configuration = ServiceConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.token = token
        configuration.roots = paths
        var logger = Logger(label: "assetc.serve")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let server = AssetServer(catalog: catalog, configuration: configuration)
        print("serving \((try? catalog.count()) ?? 0) assets at http://\(host):\(port)/  (Ctrl-C to stop)")  // the count is for the banner only
        try await server.application(logger: logger).runService()
    }
}

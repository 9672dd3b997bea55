import AssetCatalog
import AssetKit
import Foundation
import Hummingbird
import Logging

/// The catalog over HTTP: the JSON API under `/api`, the HTML gallery at `/`. Read-only unless a
/// token is configured; every path an id names is checked to stay inside its indexed root.
public struct AssetServer: Sendable {
    public let catalog: any Catalog
    public let configuration: ServiceConfiguration
    let cache: ResponseCache
    let summaries: SummaryCache
    /// Encoded JSON answers made from the catalog (records, listing and search pages), by URI.
    let answers: ExpiringCache<ByteBuffer>
    let reindexer: Reindexer
    /// Thumbnails, previews, swatches and conversions: the configured store, else the catalog's folder.
    let thumbnails: ThumbnailCache

    public init(catalog: any Catalog, configuration: ServiceConfiguration) {
        self.catalog = catalog
        self.configuration = configuration
        cache = ResponseCache(capacity: configuration.memoryCacheEntries)
        let summaries = SummaryCache(maxAgeSeconds: configuration.summaryMaxAge)
        self.summaries = summaries
        // Bounded in bytes too: a 500-record page is over half a megabyte, and such pages are
        // encoded each time rather than kept (a 50-record page is about 60 KB).
        let largest = configuration.memoryCacheJSONEntryBytes
        let answers = ExpiringCache<ByteBuffer>(maxAgeSeconds: configuration.summaryMaxAge, capacity: configuration.memoryCacheJSONEntries,
                                                keeps: { $0.readableBytes <= largest })
        self.answers = answers
        thumbnails = configuration.thumbnailStore.map { ThumbnailCache(store: $0, catalogFolder: catalog.folder) } ?? ThumbnailCache(catalogFolder: catalog.folder)
        reindexer = Reindexer(catalog: catalog, roots: configuration.roots, stores: configuration.stores, onFinish: {
            summaries.removeAll()
            answers.removeAll()
        })
    }

    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: LogRequestsMiddleware(.info))
        router.add(middleware: RequestSizeLimitMiddleware(maxBytes: configuration.maxRequestBytes))
        router.get("/health") { _, _ in try await self.health() }
        router.get("/api/assets") { request, _ in try await self.list(request) }
        router.get("/api/search") { request, _ in try await self.search(request) }
        router.get("/api/assets/**") { request, context in try await self.asset(request, context.parameters.getCatchAll()) }
        router.post("/api/reindex") { request, _ in try await self.reindex(request) }
        router.get("/") { request, _ in try await self.galleryPage(request) }
        router.get("/assets/**") { _, context in try await self.assetPage(context.parameters.getCatchAll()) }
        router.get("/static/three/:file") { request, context in try self.threeFile(context.parameters.get("file") ?? "", request: request) }
        router.get("/static/assetc-viewer.js") { request, _ in self.viewerScript(request) }
        router.get("/static/assetc-splats.js") { request, _ in self.splatViewScript(request) }
        router.get("/static/environment.hdr") { request, _ in try await self.environmentFile(request) }
        return router
    }

    func application(onServerRunning: @escaping @Sendable (Int?) async -> Void = { _ in }) -> some ApplicationProtocol {
        var logger = Logger(label: "assetc.serve")
        logger.logLevel = Logger.Level(rawValue: configuration.logLevel.rawValue) ?? .info
        return Application(router: router(),
                           configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "assetc"),
                           onServerRunning: { channel in await onServerRunning(channel.localAddress?.port) },
                           logger: logger)
    }

    /// Serves until SIGINT or SIGTERM, then shuts down gracefully.
    public func run() async throws {
        try await application().runService()
    }

    // MARK: JSON helpers

    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) -> Response {
        json(bytes: jsonBytes(value), status: status)
    }

    static func json(bytes: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: bytes))
    }

    static func jsonBytes<T: Encodable>(_ value: T) -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)  // records hold only finite numbers
        return ByteBuffer(bytes: data)
    }

    /// A JSON answer made from the catalog, encoded once and then served from memory for
    /// `summaryMaxAge` to every request with the same URI (path and query).
    func cachedJSON(_ request: Request, make: @Sendable () async throws -> ByteBuffer) async throws -> Response {
        Self.json(bytes: try await answers.value(request.uri.string) { _ in try await make() })
    }

    func row(_ id: String) async throws -> CatalogSummary {
        guard let record = try await summaries.summary(id, load: { id in try await catalog.summary(id: id) }) else {
            throw HTTPError(.notFound, message: "no asset '\(id)'")
        }
        return record
    }

    func record(_ id: String) async throws -> CatalogEntry {
        guard let entry = try await catalog.record(id: id) else { throw HTTPError(.notFound, message: "no asset '\(id)'") }
        return entry
    }

    /// What a load balancer and a team's dashboard look at: the asset count, and how far the
    /// thumbnail workers are.
    func health() async throws -> Response {
        let jobs = try await catalog.jobCounts()
        return Self.json(["status": "ok", "assets": String(try await catalog.count()),
                          "catalog": catalog.engine.rawValue,
                          "thumbnailJobsPending": String(jobs.pending), "thumbnailJobsRunning": String(jobs.running),
                          "thumbnailJobsDone": String(jobs.done), "thumbnailJobsFailed": String(jobs.failed)])
    }
}

/// Refuses request bodies over the configured size before they are read.
struct RequestSizeLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let maxBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBytes {
            throw HTTPError(.contentTooLarge, message: "request bodies are limited to \(maxBytes) bytes")
        }
        return try await next(request, context)
    }
}

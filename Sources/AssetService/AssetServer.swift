import AssetCatalog
import AssetCore
import AssetKit
import Foundation
import Hummingbird
import Logging

/// The catalog over HTTP: the JSON API under `/api`, the HTML gallery at `/`. Read-only unless a
/// token is configured; every path an id names is checked to stay inside its indexed root.
public struct AssetServer: Sendable {
    public let catalog: Catalog
    public let configuration: ServiceConfiguration
    let cache: ResponseCache
    let reindexer: Reindexer

    public init(catalog: Catalog, configuration: ServiceConfiguration) {
        self.catalog = catalog
        self.configuration = configuration
        cache = ResponseCache(capacity: configuration.memoryCacheEntries)
        reindexer = Reindexer(catalog: catalog, roots: configuration.roots)
    }

    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: LogRequestsMiddleware(configuration.requestLogLevel))
        router.add(middleware: RequestSizeLimitMiddleware(maxBytes: configuration.maxRequestBytes))
        router.get("/health") { _, _ in try self.health() }
        router.get("/api/assets") { request, _ in try self.list(request) }
        router.get("/api/assets/**") { request, context in try await self.asset(request, context.parameters.getCatchAll()) }
        router.post("/api/reindex") { request, _ in try await self.reindex(request) }
        router.get("/") { request, _ in try self.galleryPage(request) }
        router.get("/assets/**") { _, context in try self.assetPage(context.parameters.getCatchAll()) }
        return router
    }

    public func application(logger: Logger = Logger(label: "assetc.serve")) -> some ApplicationProtocol {
        Application(router: router(),
                    configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "assetc"),
                    logger: logger)
    }

    // MARK: JSON helpers

    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)  // records hold only finite numbers
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Maps assetc's errors onto HTTP statuses; the message becomes `{"error":{"message":...}}`.
    static func httpError(_ error: AssetError) -> HTTPError {
        let status: HTTPResponse.Status
        switch error.kind {
        case .fileNotFound, .unresolvedReference: status = .notFound
        case .malformed, .unsupportedFormat, .strict: status = .badRequest
        case .limitExceeded: status = .contentTooLarge
        case .refusedPath: status = .forbidden
        case .unsupportedFeature: status = .unprocessableContent
        case .io: status = .internalServerError
        }
        return HTTPError(status, message: error.description)
    }

    func row(_ id: String) throws -> CatalogSummary {
        let record: CatalogSummary?
        do throws(AssetError) { record = try catalog.summary(id: id) } catch { throw Self.httpError(error) }
        guard let record else { throw HTTPError(.notFound, message: "no asset '\(id)'") }
        return record
    }

    func record(_ id: String) throws -> CatalogEntry {
        let entry: CatalogEntry?
        do throws(AssetError) { entry = try catalog.record(id: id) } catch { throw Self.httpError(error) }
        guard let entry else { throw HTTPError(.notFound, message: "no asset '\(id)'") }
        return entry
    }

    func health() throws -> Response {
        let count: Int
        do throws(AssetError) { count = try catalog.count() } catch { throw Self.httpError(error) }
        return Self.json(["status": "ok", "assets": String(count)])
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

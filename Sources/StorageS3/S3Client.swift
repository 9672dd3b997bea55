import AssetCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Signed requests to one S3 endpoint over a connection pool the whole process shares, with
/// retries on what a busy or restarting server answers. Calls block their thread until the
/// answer is in (see `ObjectStore`); the waiting happens on SwiftNIO's event loops.
public final class S3Client: Sendable {
    public let settings: S3Settings
    public let retry: RetryPolicy
    /// Told before each retry: what failed and the pause before the next try.
    public let onRetry: @Sendable (String, Double) -> Void

    /// How hard to try. Between tries a pause drawn at random up to `base * 2^try` (at most
    /// `cap`): "full jitter", so workers that failed together do not come back together.
    public struct RetryPolicy: Sendable {
        public var attempts: Int
        /// Seconds; the whole call, pauses included, gives up once past it.
        public var budget: Double
        public var requestTimeout: Double
        public var base = 0.2
        public var cap = 5.0

        public init(attempts: Int = 8, budget: Double = 60, requestTimeout: Double = 30) {
            self.attempts = attempts
            self.budget = budget
            self.requestTimeout = requestTimeout
        }
    }

    public init(settings: S3Settings, retry: RetryPolicy = RetryPolicy(), onRetry: @escaping @Sendable (String, Double) -> Void = { _, _ in }) {
        self.settings = settings
        self.retry = retry
        self.onRetry = onRetry
    }

    /// One pool per process: connections are kept alive between the calls of every store.
    static let pool: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(60))
        configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 16)
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    public struct Response: Sendable {
        public var status: Int
        public var headers: HTTPHeaders
        public var body: [UInt8]
    }

    /// Where a request goes: `bucket` in the host or the path, `key` (not yet encoded) after it.
    public func target(bucket: String, key: String, pathStyle: Bool) -> (scheme: String, host: String, path: String) {
        let endpoint = settings.endpoint
        let scheme = endpoint.scheme ?? "https"
        var host = endpoint.host ?? ""
        if let port = endpoint.port { host += ":\(port)" }
        let encodedKey = SigV4Signer.uriEncode(key, keepSlash: true)
        // A dotted bucket cannot be a host name under TLS (the certificate's wildcard covers one label).
        if pathStyle || !settings.isAWS || bucket.contains(".") {
            return (scheme, host, "/\(bucket)" + (key.isEmpty ? "" : "/" + encodedKey))
        }
        return (scheme, "\(bucket).\(host)", "/" + encodedKey)
    }

    /// Sends a signed request, again after a pause while the answer is a connection failure, a
    /// 5xx or `SlowDown`. Any other answer is returned as it is. Out of tries is `unavailable`
    /// (exit 75) naming the endpoint; `name` locates it.
    public func send(_ method: String, bucket: String, key: String, pathStyle: Bool, query: [(String, String)] = [],
                     headers: [(String, String)] = [], body: [UInt8] = [], maxBody: Int = 64 << 20, name: String) throws(AssetError) -> Response {
        let (scheme, host, path) = target(bucket: bucket, key: key, pathStyle: pathStyle)
        let start = Date()
        var attempt = 0
        while true {
            attempt += 1
            let failure: String
            // Outside the retried part: credentials that cannot be had are not a busy server.
            let credentials = try settings.provider.current()
            do {
                let response = try once(method, credentials: credentials, scheme: scheme, host: host, path: path, query: query, headers: headers, body: body, maxBody: maxBody)
                if !(response.status >= 500 || S3ErrorDocument(response.body)?.code == "SlowDown") { return response }
                failure = "HTTP \(response.status)" + (S3ErrorDocument(response.body).map { " \($0.code)" } ?? "")
            } catch let limit as BodyLimit {
                throw AssetError(.limitExceeded("the object is \(limit.size.map(String.init) ?? "more than \(maxBody)") bytes (at most \(maxBody))"), at: SourceLocation(file: name))
            } catch {
                failure = Self.describe(error)
            }
            let elapsed = Date().timeIntervalSince(start)
            let pause = Double.random(in: 0...min(retry.cap, retry.base * pow(2, Double(attempt - 1))))
            if attempt >= retry.attempts || elapsed + pause > retry.budget {
                throw AssetError(.unavailable("the S3 endpoint \(settings.endpoint.absoluteString) does not answer: \(failure) (\(attempt) tries over \(String(format: "%.1f", elapsed)) s)"),
                                 at: SourceLocation(file: name))
            }
            onRetry(failure, pause)
            usleep(useconds_t(pause * 1_000_000))
        }
    }

    private func once(_ method: String, credentials: S3Credentials, scheme: String, host: String, path: String, query: [(String, String)],
                      headers: [(String, String)], body: [UInt8], maxBody: Int) throws -> Response {
        let signer = SigV4Signer(credentials: credentials, region: settings.region)
        let signed = signer.sign(.init(method: method, host: host, path: path, query: query, headers: headers,
                                       payloadHash: SigV4Signer.hexSHA256(body)), at: Date())
        var request = try HTTPClient.Request(url: "\(scheme)://\(host)\(path)" + (signed.query.isEmpty ? "" : "?" + signed.query),
                                             method: HTTPMethod(rawValue: method))
        for (name, value) in signed.headers { request.headers.replaceOrAdd(name: name, value: value) }
        if !body.isEmpty || method == "PUT" || method == "POST" { request.body = .bytes(body) }
        // A HEAD answer has no body: its Content-Length is the object's size, which no read limit
        // applies to (a 200 MB package's HEAD was refused as a 200 MB body).
        let delegate = LimitedBody(limit: method == "HEAD" ? .max : maxBody)
        let deadline = NIODeadline.now() + .milliseconds(Int64(retry.requestTimeout * 1000))
        return try Self.pool.execute(request: request, delegate: delegate, deadline: deadline).futureResult.wait()
    }

    /// A connection error as a sentence (`connection refused`), not a type dump.
    static func describe(_ error: any Error) -> String {
        if let client = error as? HTTPClientError {
            switch client {
            case .deadlineExceeded, .readTimeout, .connectTimeout: return "no answer in time"
            case .remoteConnectionClosed: return "the connection was closed"
            default: return "\(client)"
            }
        }
        let text = "\(error)"
        if text.contains("connectionRefused") || text.contains("Connection refused") { return "connection refused" }
        return text
    }
}

/// Raised while the body arrives, so an object over the limit is refused from its headers or its
/// first bytes past the limit, never held whole.
struct BodyLimit: Error {
    var size: Int?
}

/// Collects a response, refusing bodies over `limit` bytes.
final class LimitedBody: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = S3Client.Response
    // Touched only on the request's event loop, one callback at a time.
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        if (200..<300).contains(Int(head.status.code)), let length = head.headers.first(name: "content-length").flatMap(Int.init), length > limit {
            return task.eventLoop.makeFailedFuture(BodyLimit(size: total(head) ?? length))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard body.count + buffer.readableBytes <= limit else { return task.eventLoop.makeFailedFuture(BodyLimit(size: nil)) }
        body.append(contentsOf: buffer.readableBytesView)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        S3Client.Response(status: Int(head?.status.code ?? 0), headers: head?.headers ?? [:], body: body)
    }

    /// The whole object's size from `Content-Range: bytes a-b/total`.
    private func total(_ head: HTTPResponseHead) -> Int? {
        head.headers.first(name: "content-range").flatMap { $0.split(separator: "/").last }.flatMap { Int($0) }
    }
}

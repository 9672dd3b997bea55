import AssetCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One small request to a credentials service (the metadata service, STS) on the S3 client's
/// connection pool, bounded in time and size: these answers are a few hundred bytes, and a
/// machine with no metadata service must not wait long to find out.
enum CredentialHTTP {
    static let maxBody = 64 << 10

    static func send(_ method: String, _ url: String, headers: [(String, String)] = [], body: [UInt8] = [],
                     seconds: Double, service: String) throws(AssetError) -> S3Client.Response {
        do {
            var request = try HTTPClient.Request(url: url, method: HTTPMethod(rawValue: method))
            for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
            if !body.isEmpty || method == "PUT" || method == "POST" { request.body = .bytes(body) }
            let deadline = NIODeadline.now() + .milliseconds(Int64(seconds * 1000))
            return try S3Client.pool.execute(request: request, delegate: LimitedBody(limit: maxBody), deadline: deadline).futureResult.wait()
        } catch is BodyLimit {
            throw AssetError(.malformed("\(service) answered with more than \(maxBody) bytes"))
        } catch {
            throw AssetError(.unavailable("\(service) does not answer: \(S3Client.describe(error))"))
        }
    }
}

import AssetCore
import AssetStorage
import Foundation

/// A prefix of an S3-compatible bucket as an `ObjectStore`. Keys are checked (`ObjectKey`)
/// before they are joined to the prefix, so nothing read or written leaves it.
public struct S3Store: ObjectStore {
    public let address: StorageLocation.BucketAddress
    public let client: S3Client
    /// Objects up to this size go in one PUT; larger ones in parts of `partBytes`.
    public var multipartThreshold = 64 << 20
    public var partBytes = 16 << 20

    public init(address: StorageLocation.BucketAddress, client: S3Client) {
        self.address = address
        self.client = client
    }

    public var location: String { address.description }
    public var isLocal: Bool { false }

    private func fullKey(_ key: String) throws(AssetError) -> String {
        let checked = try ObjectKey.checked(key, in: location)
        let full = ObjectKey.join(address.prefix, checked)
        guard full.utf8.count <= ObjectKey.maxBytes else {
            throw AssetError(.refusedPath("a key of \(full.utf8.count) bytes with its prefix (at most \(ObjectKey.maxBytes))"), at: SourceLocation(file: name(of: ObjectKey.printable(key))))
        }
        return full
    }

    private func send(_ method: String, key: String, query: [(String, String)] = [], headers: [(String, String)] = [],
                      body: [UInt8] = [], maxBody: Int = 16 << 20, name: String) throws(AssetError) -> S3Client.Response {
        try client.send(method, bucket: address.bucket, key: key, pathStyle: address.pathStyle, query: query, headers: headers,
                        body: body, maxBody: maxBody, name: name)
    }

    public func list() throws(AssetError) -> [StoredObject] {
        let prefix = address.prefix.isEmpty ? "" : address.prefix + "/"
        var out: [StoredObject] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("encoding-type", "url"), ("prefix", prefix)]
            if let token { query.append(("continuation-token", token)) }
            let response = try send("GET", key: "", query: query, name: location)
            guard response.status == 200 else { throw failure(response, name: location) }
            let page = try S3Listing(response.body, prefix: prefix, at: location)
            out += page.objects
            token = page.nextToken
        } while token != nil
        return out.sorted { $0.key < $1.key }
    }

    public func head(_ key: String) throws(AssetError) -> StoredObject? {
        let full = try fullKey(key)
        let response = try send("HEAD", key: full, name: name(of: key))
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw failure(response, name: name(of: key)) }
        let modified = response.headers.first(name: "last-modified").flatMap { Self.httpDate($0) } ?? 0
        return StoredObject(key: key, byteSize: Int64(response.headers.first(name: "content-length") ?? "") ?? 0,
                            etag: Self.unquoted(response.headers.first(name: "etag") ?? ""), modifiedAt: modified)
    }

    public func read(_ key: String, maxBytes: Int) throws(AssetError) -> [UInt8]? {
        let full = try fullKey(key)
        let response = try send("GET", key: full, maxBody: maxBytes, name: name(of: key))
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw failure(response, name: name(of: key)) }
        return response.body
    }

    public func read(_ key: String, range: Range<Int>, matching etag: String?) throws(AssetError) -> [UInt8]? {
        guard !range.isEmpty else { return try head(key).map { _ in [] } }
        let full = try fullKey(key)
        var headers = [("range", "bytes=\(range.lowerBound)-\(range.upperBound - 1)")]
        if let etag, !etag.isEmpty { headers.append(("if-match", "\"\(etag)\"")) }
        let response = try send("GET", key: full, headers: headers, maxBody: range.count, name: name(of: key))
        switch response.status {
        case 404: return nil
        case 412:
            throw AssetError(.io("the object changed while it was being read (its ETag is no longer \"\(etag ?? "")\"); read it again"),
                             at: SourceLocation(file: name(of: key)))
        case 416: return []  // the range starts past the end
        case 206: return response.body
        case 200: return Array(response.body.dropFirst(range.lowerBound).prefix(range.count))  // a server that ignores ranges
        default: throw failure(response, name: name(of: key))
        }
    }

    public func write(_ key: String, bytes: [UInt8], contentType: String) throws(AssetError) {
        let full = try fullKey(key)
        if bytes.count > multipartThreshold { return try writeInParts(full, key: key, bytes: bytes, contentType: contentType) }
        let response = try send("PUT", key: full, headers: [("content-type", contentType)], body: bytes, name: name(of: key))
        guard response.status == 200 else { throw failure(response, name: name(of: key)) }
    }

    /// CreateMultipartUpload, UploadPart for each `partBytes`, then CompleteMultipartUpload; an
    /// upload that fails is aborted so no parts are left to be billed.
    private func writeInParts(_ full: String, key: String, bytes: [UInt8], contentType: String) throws(AssetError) {
        let created = try send("POST", key: full, query: [("uploads", "")], headers: [("content-type", contentType)], name: name(of: key))
        guard created.status == 200, let upload = S3XML(created.body)?["UploadId"] else { throw failure(created, name: name(of: key)) }
        do throws(AssetError) {
            var parts: [(Int, String)] = []
            for (index, start) in stride(from: 0, to: bytes.count, by: partBytes).enumerated() {
                let part = Array(bytes[start..<min(start + partBytes, bytes.count)])
                let response = try send("PUT", key: full, query: [("partNumber", String(index + 1)), ("uploadId", upload)], body: part, name: name(of: key))
                guard response.status == 200, let etag = response.headers.first(name: "etag") else { throw failure(response, name: name(of: key)) }
                parts.append((index + 1, etag))
            }
            let body = "<CompleteMultipartUpload>" + parts.map { "<Part><PartNumber>\($0.0)</PartNumber><ETag>\(Self.escaped($0.1))</ETag></Part>" }.joined()
                + "</CompleteMultipartUpload>"
            let done = try send("POST", key: full, query: [("uploadId", upload)], headers: [("content-type", "application/xml")], body: Array(body.utf8), name: name(of: key))
            // S3 may answer 200 with an <Error> document when completing fails late.
            guard done.status == 200, S3ErrorDocument(done.body) == nil else { throw failure(done, name: name(of: key)) }
        } catch {
            _ = try? send("DELETE", key: full, query: [("uploadId", upload)], name: name(of: key))  // the upload's own error is the one to report
            throw error
        }
    }

    public func remove(_ key: String) throws(AssetError) {
        let response = try send("DELETE", key: try fullKey(key), name: name(of: key))
        guard [200, 204, 404].contains(response.status) else { throw failure(response, name: name(of: key)) }
    }

    public func presignedURL(for key: String, expiresIn seconds: Int) throws(AssetError) -> String? {
        let (scheme, host, path) = client.target(bucket: address.bucket, key: try fullKey(key), pathStyle: address.pathStyle)
        let signer = SigV4Signer(credentials: try client.settings.provider.current(), region: client.settings.region)
        return signer.presign(.init(method: "GET", host: host, path: path, payloadHash: SigV4Signer.unsignedPayload),
                              scheme: scheme, at: Date(), expiresIn: seconds).url
    }

    /// What S3 said, as an error: refused credentials and permissions are `io` (exit 3) with
    /// S3's code and message; the secret is never in them.
    func failure(_ response: S3Client.Response, name: String) -> AssetError {
        let document = S3ErrorDocument(response.body)
        let said = document.map { "\($0.code): \($0.message)" } ?? "HTTP \(response.status)"
        switch response.status {
        case 401, 403: return AssetError(.io("S3 refused the request (\(said))"), at: SourceLocation(file: name))
        case 404: return AssetError(.io("S3: \(said)"), at: SourceLocation(file: name))
        default: return AssetError(.io("S3 answered HTTP \(response.status) (\(said))"), at: SourceLocation(file: name))
        }
    }

    static func unquoted(_ etag: String) -> String {
        etag.count >= 2 && etag.hasPrefix("\"") && etag.hasSuffix("\"") ? String(etag.dropFirst().dropLast()) : etag
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// `Fri, 27 Nov 2026 12:00:00 GMT` (RFC 9110's IMF-fixdate, the form S3 sends).
    /// Read by hand: a fixed layout, Foundation here has no HTTP date style and Glibc's module
    /// does not export strptime.
    static func httpDate(_ text: String) -> Double? {
        let fields = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard fields.count == 6, fields[0].hasSuffix(","), fields[5] == "GMT", let day = Int32(fields[1]),
              let month = months.firstIndex(of: String(fields[2])), let year = Int32(fields[3]) else { return nil }
        let clock = fields[4].split(separator: ":").compactMap { Int32($0) }
        guard clock.count == 3, (1...31).contains(day), (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2]) else { return nil }
        var parts = tm()
        (parts.tm_year, parts.tm_mon, parts.tm_mday) = (year - 1900, Int32(month), day)
        (parts.tm_hour, parts.tm_min, parts.tm_sec) = (clock[0], clock[1], clock[2])
        return Double(timegm(&parts))
    }
}

/// Opens what a command was given: a folder, or `s3://` with the settings of the environment.
public enum ObjectStores {
    public static func open(_ text: String, retry: S3Client.RetryPolicy = .init(),
                            onRetry: @escaping @Sendable (String, Double) -> Void = { _, _ in }) throws(AssetError) -> any ObjectStore {
        switch try StorageLocation.parse(text) {
        case .local(let path): return LocalFileStore(root: path)
        case .bucket(let address): return S3Store(address: address, client: S3Client(settings: try S3Settings.load(), retry: retry, onRetry: onRetry))
        }
    }
}

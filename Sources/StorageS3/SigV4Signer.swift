import Crypto
import Foundation

/// AWS Signature Version 4 for S3, written here because the one Swift package that has it (Soto)
/// is not among the packages this project may use. What that costs: this file, the credential
/// chain and the XML of `S3Store`, each checked request by request against botocore's signer
/// (Tests/CrossCheck/test_s3_sigv4.py). What it does not do: chunked (streaming) payload signing
/// and SigV4a; every body here is in memory and hashed whole.
public struct SigV4Signer: Sendable {
    public var credentials: S3Credentials
    public var region: String
    public var service = "s3"

    public init(credentials: S3Credentials, region: String) {
        self.credentials = credentials
        self.region = region
    }

    /// A request before signing: the path as it goes on the wire (already percent-encoded by
    /// `uriEncode`), query items not yet encoded, headers with lowercase names.
    public struct Request: Sendable {
        public var method: String
        public var host: String
        public var path: String
        public var query: [(String, String)]
        public var headers: [(String, String)]
        public var payloadHash: String

        public init(method: String, host: String, path: String, query: [(String, String)] = [], headers: [(String, String)] = [], payloadHash: String) {
            self.method = method
            self.host = host
            self.path = path
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    /// The signature and the two texts it was made from (what `--explain` and the botocore
    /// cross-check print).
    public struct Signed: Sendable {
        public var canonicalRequest: String
        public var stringToSign: String
        public var signature: String
        /// Every header to send, `host` and `authorization` included.
        public var headers: [(String, String)]
        /// The query string to send, encoded as it was signed.
        public var query: String
    }

    public static let emptyPayloadHash = hexSHA256([])
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"

    public static func hexSHA256(_ bytes: some DataProtocol) -> String {
        hex(SHA256.hash(data: bytes))
    }

    /// Signs with the `Authorization` header: `x-amz-date`, `x-amz-content-sha256` and, with a
    /// session token, `x-amz-security-token` are added and signed with the headers given.
    public func sign(_ request: Request, at date: Date) -> Signed {
        let (stamp, day) = Self.timestamps(date)
        var headers = request.headers
        headers.append(("host", request.host))
        headers.append(("x-amz-content-sha256", request.payloadHash))
        headers.append(("x-amz-date", stamp))
        if let token = credentials.sessionToken { headers.append(("x-amz-security-token", token)) }
        let (canonicalHeaders, signedHeaders) = Self.canonicalHeaders(headers)
        let query = Self.canonicalQuery(request.query)
        let canonical = [request.method, request.path, query, canonicalHeaders, signedHeaders, request.payloadHash].joined(separator: "\n")
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let toSign = "AWS4-HMAC-SHA256\n\(stamp)\n\(scope)\n\(Self.hexSHA256(Array(canonical.utf8)))"
        let signature = self.signature(of: toSign, day: day)
        headers.append(("authorization", "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyId)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"))
        return Signed(canonicalRequest: canonical, stringToSign: toSign, signature: signature,
                      headers: headers, query: query)
    }

    /// A URL anyone may use until it expires (1 second to 7 days): the signature rides in the
    /// query (`X-Amz-Signature`), over the host header alone and an unsigned payload.
    public func presign(_ request: Request, scheme: String, at date: Date, expiresIn seconds: Int) -> (url: String, signed: Signed) {
        let (stamp, day) = Self.timestamps(date)
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        var query = request.query
        query.append(("X-Amz-Algorithm", "AWS4-HMAC-SHA256"))
        query.append(("X-Amz-Credential", "\(credentials.accessKeyId)/\(scope)"))
        query.append(("X-Amz-Date", stamp))
        query.append(("X-Amz-Expires", String(min(max(seconds, 1), 604_800))))
        if let token = credentials.sessionToken { query.append(("X-Amz-Security-Token", token)) }
        let (canonicalHeaders, signedHeaders) = Self.canonicalHeaders([("host", request.host)])
        query.append(("X-Amz-SignedHeaders", signedHeaders))
        let canonicalQuery = Self.canonicalQuery(query)
        let canonical = [request.method, request.path, canonicalQuery, canonicalHeaders, signedHeaders, Self.unsignedPayload].joined(separator: "\n")
        let toSign = "AWS4-HMAC-SHA256\n\(stamp)\n\(scope)\n\(Self.hexSHA256(Array(canonical.utf8)))"
        let signature = self.signature(of: toSign, day: day)
        let url = "\(scheme)://\(request.host)\(request.path)?\(canonicalQuery)&X-Amz-Signature=\(signature)"
        return (url, Signed(canonicalRequest: canonical, stringToSign: toSign, signature: signature, headers: [], query: canonicalQuery))
    }

    private func signature(of stringToSign: String, day: String) -> String {
        var key = SymmetricKey(data: Array(("AWS4" + credentials.secretAccessKey).utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Array(HMAC<SHA256>.authenticationCode(for: Array(part.utf8), using: key)))
        }
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Array(stringToSign.utf8), using: key))
    }

    /// Lowercase names, values with outer blanks trimmed and inner runs of blanks made one
    /// space, sorted by name; repeated names joined with commas.
    static func canonicalHeaders(_ headers: [(String, String)]) -> (text: String, signed: String) {
        var merged: [String: String] = [:]
        for (name, value) in headers {
            let lower = name.lowercased()
            let trimmed = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
            merged[lower] = merged[lower].map { $0 + "," + trimmed } ?? trimmed
        }
        let names = merged.keys.sorted()
        return (names.map { "\($0):\(merged[$0]!)\n" }.joined(), names.joined(separator: ";"))
    }

    /// Each name and value encoded (`uriEncode`, slashes too), sorted by name then value.
    static func canonicalQuery(_ items: [(String, String)]) -> String {
        var encoded: [(name: String, value: String)] = items.map { item in
            (uriEncode(item.0, keepSlash: false), uriEncode(item.1, keepSlash: false))
        }
        encoded.sort { (a: (name: String, value: String), b: (name: String, value: String)) -> Bool in
            a.name == b.name ? a.value < b.value : a.name < b.name
        }
        return encoded.map { item in item.name + "=" + item.value }.joined(separator: "&")
    }

    /// RFC 3986 percent-encoding as SigV4 wants it: every UTF-8 byte but letters, digits and
    /// `-_.~` becomes `%XX` (uppercase); `/` too unless `keepSlash` (object keys in paths).
    public static func uriEncode(_ text: String, keepSlash: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        let hexDigits = Array("0123456789ABCDEF".unicodeScalars)
        for byte in text.utf8 {
            if Self.unreserved[Int(byte)] || (keepSlash && byte == 0x2F) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hexDigits[Int(byte >> 4)])
                out.unicodeScalars.append(hexDigits[Int(byte & 15)])
            }
        }
        return out
    }

    /// Letters, digits and `-_.~`: the bytes SigV4 leaves as they are.
    private static let unreserved: [Bool] = (0..<256).map { byte in
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || [0x2D, 0x5F, 0x2E, 0x7E].contains(byte)
    }

    /// `20261127T120000Z` and `20261127`, in UTC.
    static func timestamps(_ date: Date) -> (String, String) {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        let day = String(format: "%04d%02d%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
        return (day + String(format: "T%02d%02d%02dZ", Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)), day)
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for byte in bytes { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}

import AssetCore
import AssetStorage
import Foundation

/// One page of a ListObjectsV2 answer: the objects under a prefix (keys made relative to it) and
/// the token for the next page. Bytes from the network, so this is fuzzed (`Scripts/fuzz s3`).
public struct S3Listing: Sendable {
    public var objects: [StoredObject] = []
    public var nextToken: String?

    /// `prefix` ends with a slash, or is empty for a whole bucket. Keys outside it and folder
    /// markers (keys ending in `/`) are left out; a truncated page without a token is an error,
    /// since following it would list the same page for ever.
    public init(_ bytes: [UInt8], prefix: String, at location: String) throws(AssetError) {
        guard let document = S3XML(bytes), document.name == "ListBucketResult" else {
            throw AssetError(.malformed("the bucket listing is not a ListBucketResult document"), at: SourceLocation(file: location))
        }
        let encoded = document["EncodingType"] == "url"
        for item in document.all("Contents") {
            guard let written = item["Key"] else { continue }
            let key = encoded ? Self.urlDecoded(written) : written
            guard key.hasPrefix(prefix), key.utf8.count > prefix.utf8.count, !key.hasSuffix("/") else { continue }
            let modified = item["LastModified"].flatMap(Self.date)
            objects.append(StoredObject(key: String(key.dropFirst(prefix.count)), byteSize: max(0, Int64(item["Size"] ?? "") ?? 0),
                                        etag: S3Store.unquoted(item["ETag"] ?? ""), modifiedAt: modified?.timeIntervalSince1970 ?? 0))
        }
        if document["IsTruncated"] == "true" {
            guard let token = document["NextContinuationToken"], !token.isEmpty else {
                throw AssetError(.malformed("the bucket listing is truncated but gives no continuation token"), at: SourceLocation(file: location))
            }
            nextToken = token
        }
    }

    /// `2026-11-27T12:13:59.000Z` (AWS) or without the fraction (SeaweedFS); nil for anything
    /// else, which leaves the object's time at 0 (the ETag, not the time, decides what changed).
    static func date(_ text: String) -> Date? {
        if let date = try? fractional.parse(text) { return date }  // not this form: try the other
        return try? whole.parse(text)
    }

    // Value types, safe to share across threads (the formatter classes are neither).
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let whole = Date.ISO8601FormatStyle()

    /// `encoding-type=url` percent-encodes keys (spaces as `+`), so keys holding characters
    /// XML 1.0 cannot carry still arrive.
    static func urlDecoded(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
    }
}

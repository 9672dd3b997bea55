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
        let dates = ISO8601DateFormatter()
        dates.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plainDates = ISO8601DateFormatter()
        let encoded = document["EncodingType"] == "url"
        for item in document.all("Contents") {
            guard let written = item["Key"] else { continue }
            let key = encoded ? Self.urlDecoded(written) : written
            guard key.hasPrefix(prefix), key.utf8.count > prefix.utf8.count, !key.hasSuffix("/") else { continue }
            let modified = item["LastModified"].flatMap { dates.date(from: $0) ?? plainDates.date(from: $0) }
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

    /// `encoding-type=url` percent-encodes keys (spaces as `+`), so keys holding characters
    /// XML 1.0 cannot carry still arrive.
    static func urlDecoded(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
    }
}

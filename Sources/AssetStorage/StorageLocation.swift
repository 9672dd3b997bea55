import AssetCore

/// A place given on the command line: a local path, or `s3://BUCKET/PREFIX` with an optional
/// `?path_style=1` for servers that want the bucket in the path.
public enum StorageLocation: Sendable, Equatable {
    case local(String)
    case bucket(BucketAddress)

    public struct BucketAddress: Sendable, Equatable, CustomStringConvertible {
        public var bucket: String
        /// No leading or trailing slash; empty for the whole bucket.
        public var prefix: String
        /// Asked for in the URL; a non-AWS endpoint gets it anyway.
        public var pathStyle: Bool

        public init(bucket: String, prefix: String, pathStyle: Bool = false) {
            self.bucket = bucket
            self.prefix = prefix
            self.pathStyle = pathStyle
        }

        public var description: String { prefix.isEmpty ? "s3://\(bucket)" : "s3://\(bucket)/\(prefix)" }

        /// The last component of the prefix (the bucket's name for a whole bucket): a catalog
        /// names the assets under it `<name>/<key>`, as it does a folder's.
        public var name: String { prefix.split(separator: "/").last.map(String.init) ?? bucket }

        /// The same bucket, `key` appended to the prefix.
        public func appending(_ key: String) -> BucketAddress {
            BucketAddress(bucket: bucket, prefix: ObjectKey.join(prefix, key), pathStyle: pathStyle)
        }
    }

    public static func isBucket(_ text: String) -> Bool { text.hasPrefix("s3://") }

    /// Parses `text`. A bucket name follows S3's rules (3-63 lowercase letters, digits, dots and
    /// hyphens); the prefix follows `ObjectKey`'s, so a location can never name `..`.
    public static func parse(_ text: String) throws(AssetError) -> StorageLocation {
        guard isBucket(text) else { return .local(text) }
        var rest = Substring(text.dropFirst("s3://".count))
        var pathStyle = false
        if let question = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: question)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.first == "path_style" else {
                    throw AssetError(.malformed("unknown option '\(pair)' (s3:// locations take ?path_style=1)"), at: SourceLocation(file: text))
                }
                pathStyle = parts.count == 1 || ["1", "true", "yes"].contains(parts[1])
            }
            rest = rest[..<question]
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let bucket = String(rest[..<slash])
        let validBucket = (3...63).contains(bucket.count) && bucket.utf8.allSatisfy {
            ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D
        }
        guard validBucket else {
            throw AssetError(.malformed("'\(bucket)' is not a bucket name (3-63 lowercase letters, digits, dots and hyphens)"), at: SourceLocation(file: text))
        }
        var prefix = slash == rest.endIndex ? "" : String(rest[rest.index(after: slash)...])
        while prefix.hasSuffix("/") { prefix.removeLast() }
        if !prefix.isEmpty, let problem = ObjectKey.problem(prefix) {
            throw AssetError(.refusedPath("the prefix is \(problem)"), at: SourceLocation(file: text))
        }
        return .bucket(BucketAddress(bucket: bucket, prefix: prefix, pathStyle: pathStyle))
    }
}

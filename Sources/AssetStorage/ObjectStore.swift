import AssetCore

/// One object under a store's prefix: its key relative to the prefix, and what says whether it
/// changed without reading it (S3's ETag and Last-Modified; a file's size and modification time).
public struct StoredObject: Sendable, Equatable {
    public var key: String
    public var byteSize: Int64
    /// S3's entity tag, quotes removed; empty for a local file.
    public var etag: String
    /// Seconds since 1970.
    public var modifiedAt: Double

    public init(key: String, byteSize: Int64, etag: String, modifiedAt: Double) {
        self.key = key
        self.byteSize = byteSize
        self.etag = etag
        self.modifiedAt = modifiedAt
    }
}

/// Where assets and derived files live: a folder on the local file system or a prefix of an
/// S3-compatible bucket. Keys are relative to the store's root and pass `ObjectKey.checked`
/// before any byte moves, so no key reaches outside it.
///
/// The calls block: readers, renderers and the catalog's workers run on plain threads
/// (`concurrentPerform`), and the S3 store waits on SwiftNIO's threads rather than the
/// cooperative pool, so a blocked reader never starves the request it waits for.
public protocol ObjectStore: Sendable {
    /// What messages name: `s3://bucket/prefix`, or the folder's path.
    var location: String { get }
    /// Whether objects live on this machine's file system (then `localPath` names them).
    var isLocal: Bool { get }
    /// Every object under the root, keys relative to it, in key order.
    func list() throws(AssetError) -> [StoredObject]
    /// The object's size and tags; nil when there is none.
    func head(_ key: String) throws(AssetError) -> StoredObject?
    /// The whole object, nil when there is none. An object larger than `maxBytes` is a
    /// `limitExceeded` error located at the object, raised before its bytes are held.
    func read(_ key: String, maxBytes: Int) throws(AssetError) -> [UInt8]?
    /// Bytes `range` of the object (fewer at its end); nil when there is none. Given `etag`, an
    /// object that no longer has it is an error rather than bytes of another version: reading a
    /// package by ranges must not mix two uploads of it. A store without tags ignores it.
    func read(_ key: String, range: Range<Int>, matching etag: String?) throws(AssetError) -> [UInt8]?
    /// Stores the object whole: readers see the old bytes or the new ones, never a mix.
    func write(_ key: String, bytes: [UInt8], contentType: String) throws(AssetError)
    /// Removes the object; removing one that is not there is not an error.
    func remove(_ key: String) throws(AssetError)
    /// A URL that reads the object without credentials until `seconds` from now; nil for a
    /// store that has no such URLs (the local file system).
    func presignedURL(for key: String, expiresIn seconds: Int) throws(AssetError) -> String?
}

extension ObjectStore {
    /// Bytes `range` of whatever version of the object is there.
    public func read(_ key: String, range: Range<Int>) throws(AssetError) -> [UInt8]? {
        try read(key, range: range, matching: nil)
    }

    /// `location` and `key` as one name for messages: `s3://bucket/prefix/key`.
    public func name(of key: String) -> String {
        location.hasSuffix("/") ? location + key : location + "/" + key
    }
}

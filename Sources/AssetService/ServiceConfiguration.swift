import AssetKit

/// How `assetc serve` runs.
public struct ServiceConfiguration: Sendable {
    /// The least severe log line printed; request logs are written at `info`.
    public var logLevel: LogLevel = .info
    public var host = "127.0.0.1"
    public var port = 8080
    /// Mutations (`POST /api/reindex`) need `Authorization: Bearer <token>`; nil turns them off.
    public var token: String?
    /// Folders a reindex walks.
    public var roots: [String] = []
    /// Largest asset converted on request, in bytes.
    public var maxConvertBytes: Int64 = 256 << 20
    /// Largest request body accepted.
    public var maxRequestBytes = 64 << 10
    public var maxPageSize = 500
    /// Thumbnails and conversions kept in memory for repeat requests.
    public var memoryCacheEntries = 512
    /// Records' JSON and listing and search pages kept in memory, encoded, by request URI: at most
    /// this many, each at most `memoryCacheJSONEntryBytes` (so 128 MiB at the very most).
    public var memoryCacheJSONEntries = 1024
    public var memoryCacheJSONEntryBytes = 128 << 10
    /// Seconds a catalog summary, a record's JSON or a listing page is answered from memory;
    /// another process's reindex shows within this time (this process's own clears them at once).
    public var summaryMaxAge: Double = 1
    /// Where Debian's libjs-three puts three.js (r111); the asset page's 3D view loads it from here,
    /// through the service, never from a CDN.
    public var threeFolder = "/usr/share/javascript/three"
    /// The look of the thumbnails, previews and swatches it renders (size and view come from each
    /// request): environment light with the ground shadow on, as the gallery shows them.
    public var render: RenderOptions = {
        var options = RenderOptions()
        options.shadow = true
        return options
    }()

    /// Opens `s3://` roots (the executable's S3 client); the library alone serves folders.
    public var stores: StoreOpener = .localOnly
    /// Where thumbnails, previews, swatches and conversions are kept; nil: the catalog's folder.
    public var thumbnailStore: (any ObjectStore)?
    /// Answer thumbnails, conversions and bucket downloads with a 302 to a presigned URL of the
    /// store's object instead of the bytes (a bucket store only).
    public var redirectToStore = false
    /// How long those URLs work.
    public var redirectSeconds = 900

    public init() {}

    /// swift-log's levels, named here so callers need not import it.
    public enum LogLevel: String, CaseIterable, Sendable {
        case trace, debug, info, notice, warning, error, critical
    }
}

import AssetCore
import Foundation

/// The catalog of indexed assets as the use cases and the service see it. Two engines stand behind
/// it, each a target of its own: `SQLiteCatalog` (CatalogSQLite), one file beside the indexed folder
/// (the default), and `PostgresCatalog` (CatalogPostgres), one database a team's indexers, workers
/// and servers share; `CatalogDatabase.open` (CatalogEngines) picks one from a `--db` value. This
/// module links neither, so a package using AssetKit gets no database engine. Every method is one
/// transaction, so a process killed at any moment leaves each asset with all its rows or none.
public protocol Catalog: Sendable {
    /// Where the catalog is, for messages: a file path, or a connection string without its password.
    var location: String { get }
    /// The folder where rendered thumbnails and converted files are cached: beside the SQLite file,
    /// or the shared `--thumbnail-store` of a PostgreSQL catalog.
    var folder: String { get }
    var engine: CatalogEngine { get }

    /// What the catalog knows of the files under a root, to decide what changed.
    func fingerprints(root: String) async throws(AssetError) -> CatalogFingerprints
    /// Replaces these assets (row and child rows) in one transaction.
    func store(_ entries: [CatalogEntry]) async throws(AssetError)
    /// Updates only the modification time of files whose content did not change.
    func touch(_ ids: [(id: String, modifiedAt: Double)]) async throws(AssetError)
    func remove(_ ids: [String]) async throws(AssetError)

    func count() async throws(AssetError) -> Int
    /// What serving an asset's file, thumbnail or conversion needs, without decoding the record.
    func summary(id: String) async throws(AssetError) -> CatalogSummary?
    func record(id: String) async throws(AssetError) -> CatalogEntry?
    /// Records matching a query-language expression (`triangles > 10000 and format = usdz`).
    func query(_ expression: String, sort: String?, limit: Int?, offset: Int) async throws(AssetError) -> [CatalogRecord]
    /// Full-text search over names, best match first.
    func search(_ words: String, limit: Int) async throws(AssetError) -> [CatalogRecord]
    /// How many texture references point at an indexed texture asset.
    func linkedTextureCount() async throws(AssetError) -> Int
    /// "ok" when the database is consistent, else what is wrong.
    func integrityCheck() async throws(AssetError) -> String

    /// Thumbnail jobs (`index --defer-thumbnails`, `assetc worker`).
    func enqueueThumbnails(_ jobs: [ThumbnailJob]) async throws(AssetError)
    /// Claims up to `limit` pending jobs for `worker`; no other worker gets them until they are
    /// finished, or `leaseSeconds` pass (a worker that died).
    func claimThumbnails(worker: String, limit: Int, leaseSeconds: Double) async throws(AssetError) -> [ThumbnailJob]
    /// Records claimed jobs' outcomes in one transaction: each thumbnail's path, or its error.
    func finishThumbnails(_ outcomes: [ThumbnailOutcome]) async throws(AssetError)
    /// Hands claimed jobs back unrendered (a worker stopping mid-batch): pending again, for any
    /// worker at once, the claim not counted as an attempt. Jobs another worker took meanwhile are
    /// left alone.
    func releaseThumbnails(_ jobs: [ThumbnailJob], worker: String) async throws(AssetError)
    func jobCounts() async throws(AssetError) -> ThumbnailJobCounts
    /// Puts failed jobs back to pending (after the cause is fixed); returns how many.
    func retryFailedThumbnails() async throws(AssetError) -> Int

    /// Releases connections; the catalog is not used afterwards.
    func close() async
}

extension Catalog {
    public func query(_ expression: String, sort: String? = nil, limit: Int? = nil) async throws(AssetError) -> [CatalogRecord] {
        try await query(expression, sort: sort, limit: limit, offset: 0)
    }

    public func search(_ words: String) async throws(AssetError) -> [CatalogRecord] {
        try await search(words, limit: 50)
    }
}

/// The fingerprints of a root's assets by id, ids compared byte for byte: Swift's `String`
/// equality is canonical, so `café` composed and decomposed (two files on Linux, two keys in
/// S3, two rows in either database) would share one entry of a `[String: …]`.
public struct CatalogFingerprints: Sendable {
    private var byBytes: [[UInt8]: (id: String, fingerprint: CatalogFingerprint)] = [:]

    public init() {}

    public subscript(id id: String) -> CatalogFingerprint? {
        get { byBytes[Array(id.utf8)]?.fingerprint }
        set { byBytes[Array(id.utf8)] = newValue.map { (id, $0) } }
    }

    public var ids: [String] { byBytes.values.map(\.id) }
    public var count: Int { byBytes.count }
}

/// What the catalog knows of one file, to decide whether it changed.
public struct CatalogFingerprint: Sendable, Equatable {
    public var byteSize: Int64
    public var modifiedAt: Double
    public var contentHash: String
    /// A bucket object's entity tag when it was read (`CatalogRecord.etag`).
    public var etag: String?

    public init(byteSize: Int64, modifiedAt: Double, contentHash: String, etag: String? = nil) {
        self.byteSize = byteSize
        self.modifiedAt = modifiedAt
        self.contentHash = contentHash
        self.etag = etag
    }
}

/// The database engine behind a catalog, as `/health` and messages name it.
public enum CatalogEngine: String, Sendable {
    case sqlite, postgresql
}

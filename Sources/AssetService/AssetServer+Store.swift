import AssetCatalog
import AssetCore
import AssetKit
import AssetStorage
import Foundation
import Hummingbird

/// Derived files in the thumbnail store, and assets in buckets: what the service reads and writes
/// there, and the redirects to presigned URLs that let clients fetch from the store directly.
extension AssetServer {
    /// `converted/<hash>/<name>`: a conversion's key in the store, named by content as thumbnails are.
    static func conversionKey(_ record: CatalogSummary, fileName: String) -> String {
        "converted/\(record.contentHash)/\(fileName)"
    }

    /// The asset converted to `target`: from the store when it is there, else made (from its
    /// folder or its staged bucket object) and stored for every server sharing the store.
    func conversion(of record: CatalogSummary, to target: AssetFormat, fileName: String) throws(AssetError) -> [UInt8] {
        let store = thumbnails.store
        let key = Self.conversionKey(record, fileName: fileName)
        if let bytes = try store.read(key, maxBytes: Int(configuration.maxConvertBytes) * 4) { return bytes }
        let asset = OpenedAsset(record, stores: configuration.stores)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("assetc-convert-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }  // a scratch folder: nothing to report if it is gone
        let bytes = try asset.using { () throws(AssetError) -> [UInt8] in
            let (path, options) = try asset.open()
            return try ConvertUseCase().convertedBytes(of: path, contentHash: record.contentHash, format: target, fileName: fileName,
                                                       cacheFolder: scratch, readOptions: options)
        }
        try store.write(key, bytes: bytes, contentType: target.mediaType)
        return bytes
    }

    /// A 302 to a presigned URL of `key` in the thumbnail store, made first by `make` when the
    /// store lacks it (nil from `make`: a 404 with `notFound`).
    func redirectToStore(_ key: String, notFound: String, make: @escaping @Sendable () throws(AssetError) -> [UInt8]?) async throws -> Response {
        let store = thumbnails.store
        let seconds = configuration.redirectSeconds
        let url = try await Blocking.run { () throws(AssetError) -> String? in
            if try store.head(key) == nil, try make() == nil { return nil }
            return try store.presignedURL(for: key, expiresIn: seconds)
        }
        guard let url else { throw HTTPError(.notFound, message: notFound) }
        return Response(status: .found, headers: [.location: url, .cacheControl: "no-store"])
    }

    /// With `--redirect-to-store`, a bucket asset's download is a 302 to a presigned URL of its
    /// object; nil otherwise.
    func redirectToAsset(_ record: CatalogSummary) async throws -> Response? {
        guard configuration.redirectToStore, StorageLocation.isBucket(record.root) else { return nil }
        let (stores, seconds) = (configuration.stores, configuration.redirectSeconds)
        let url = try await Blocking.run { () throws(AssetError) -> String? in
            let store = try stores.open(record.root)
            let key = record.id.split(separator: "/").dropFirst().joined(separator: "/")
            guard try store.head(key) != nil else { throw AssetError(.fileNotFound, at: SourceLocation(file: store.name(of: key))) }
            return try store.presignedURL(for: key, expiresIn: seconds)
        }
        guard let url else { return nil }
        return Response(status: .found, headers: [.location: url, .cacheControl: "no-store"])
    }

    /// The asset's own bytes: its file, or its bucket object.
    func assetBytes(_ record: CatalogSummary) async throws -> [UInt8] {
        let stores = configuration.stores
        if StorageLocation.isBucket(record.root) {
            return try await Blocking.run { () throws(AssetError) -> [UInt8] in
                let store = try stores.open(record.root)
                let key = record.id.split(separator: "/").dropFirst().joined(separator: "/")
                guard let bytes = try store.read(key, maxBytes: ReadLimits().maxFileBytes) else {
                    throw AssetError(.fileNotFound, at: SourceLocation(file: store.name(of: key)))
                }
                return bytes
            }
        }
        let path = try AssetPath.file(of: record)
        return try await Blocking.run { () throws(AssetError) -> [UInt8] in
            try FileBytes.read(path: path, display: record.id, budget: ReadBudget(ReadLimits()))
        }
    }
}

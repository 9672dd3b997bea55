import AssetCatalog
import AssetKit
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
    func conversion(of record: CatalogSummary, to target: AssetFormat, fileName: String, variant: ConversionVariant = .download) throws(AssetError) -> [UInt8] {
        let key = Self.conversionKey(record, fileName: fileName)
        if let bytes = try thumbnails.store.read(key, maxBytes: Int(configuration.maxConvertBytes) * 4) { return bytes }
        return try makeConversion(of: record, to: target, fileName: fileName, variant: variant)
    }

    /// Converts the asset as `variant` says and stores the result under its content-hash key.
    func makeConversion(of record: CatalogSummary, to target: AssetFormat, fileName: String, variant: ConversionVariant = .download) throws(AssetError) -> [UInt8] {
        let store = thumbnails.store
        let key = Self.conversionKey(record, fileName: fileName)
        let asset = OpenedAsset(record, stores: configuration.stores)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("assetc-convert-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }  // a scratch folder: nothing to report if it is gone
        let bytes = try asset.using { () throws(AssetError) -> [UInt8] in
            let (path, options) = try asset.open()
            return try ConvertUseCase().convertedBytes(of: path, contentHash: record.contentHash, format: target, fileName: fileName,
                                                       cacheFolder: scratch, readOptions: options, adjust: variant.adjust)
        }
        try store.write(key, bytes: bytes, contentType: target.mediaType)
        return bytes
    }

    /// Bytes a stored conversion is sent in, each one ranged GET: the service holds one piece of
    /// a large conversion at a time, not the whole file (nor keeps it in its memory cache; the
    /// bucket is the cache).
    static let streamedChunkBytes = 4 << 20

    /// A conversion in a bucket store, sent from it in ranged reads; made and stored first when
    /// the store lacks it (then sent from the bytes in hand).
    func streamedConversion(_ record: CatalogSummary, to target: AssetFormat, fileName: String, variant: ConversionVariant = .download,
                            headers: HTTPFields) async throws -> Response {
        let store = thumbnails.store
        let key = Self.conversionKey(record, fileName: fileName)
        // A struct, not a tuple: Swift 6.3's SIL generation crashes on a typed-throws closure
        // returning a labelled tuple through Blocking.run's reabstraction.
        struct Found: Sendable { var size: Int; var made: [UInt8]? }
        let found = try await Blocking.run { () throws(AssetError) -> Found in
            if let stored = try store.head(key) { return Found(size: Int(stored.byteSize), made: nil) }
            let made = try self.makeConversion(of: record, to: target, fileName: fileName, variant: variant)  // the HEAD said it is not there
            return Found(size: made.count, made: made)
        }
        if let made = found.made { return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: made))) }
        let size = found.size
        let name = store.name(of: key)
        return Response(status: .ok, headers: headers, body: ResponseBody(contentLength: size) { writer in
            var offset = 0
            while offset < size {
                let range = offset..<min(offset + Self.streamedChunkBytes, size)
                let piece = try await Blocking.run { () throws(AssetError) -> [UInt8] in
                    guard let piece = try store.read(key, range: range), piece.count == range.count else {
                        throw AssetError(.io("the stored object changed while it was sent"), at: SourceLocation(file: name))
                    }
                    return piece
                }
                try await writer.write(ByteBuffer(bytes: piece))
                offset = range.upperBound
            }
            try await writer.finish(nil)
        })
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

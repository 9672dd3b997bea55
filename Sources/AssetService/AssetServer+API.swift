import AssetCatalog
import AssetKit
import Foundation
import Hummingbird

extension AssetServer {
    struct Page: Encodable {
        var items: [CatalogRecord]
        var nextCursor: String?

        enum CodingKeys: String, CodingKey { case items, nextCursor }

        // nextCursor is null on the last page rather than missing, so clients can test for it.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(items, forKey: .items)
            try c.encode(nextCursor, forKey: .nextCursor)
        }
    }

    /// The `where` expression `GET /api/assets` and the gallery's search box use, from the
    /// request's parameters. Values go into the expression quoted; the query compiler binds them.
    func expression(_ request: Request) throws -> String {
        let params = request.uri.queryParameters
        func quoted(_ s: Substring) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var parts: [String] = []
        if let whereText = params.get("where"), !whereText.isEmpty {
            // Compiled alone first, so an error's column is one of the user's own text.
            _ = try CatalogQuery.compile(whereText)
            parts.append("(\(whereText))")
        }
        if let q = params.get("q"), !q.isEmpty { parts.append("name ~ \(quoted(Substring(q)))") }
        if let format = params["format"], !format.isEmpty { parts.append("format = \(quoted(format))") }
        if let axis = params["upAxis"], !axis.isEmpty { parts.append("upAxis = \(quoted(axis))") }
        for (key, op) in [("minTriangles", ">="), ("maxTriangles", "<=")] {
            guard let text = params.get(key), !text.isEmpty else { continue }
            guard let n = Int(text), n >= 0 else { throw HTTPError(.badRequest, message: "\(key) takes a whole number, not '\(text)'") }
            parts.append("triangles \(op) \(n)")
        }
        return parts.joined(separator: " and ")
    }

    func list(_ request: Request) async throws -> Response {
        let params = request.uri.queryParameters
        let limit = min(Int(params["limit"] ?? "") ?? 50, configuration.maxPageSize)
        guard limit > 0 else { throw HTTPError(.badRequest, message: "limit takes a positive number") }
        let offset: Int
        if let cursor = params["cursor"], !cursor.isEmpty {
            guard let n = Int(cursor), n >= 0 else { throw HTTPError(.badRequest, message: "unknown cursor '\(cursor)'") }
            offset = n
        } else {
            offset = 0
        }
        let condition = try expression(request)
        let sort = params.get("sort")
        return try await cachedJSON(request) {
            let records = try await catalog.query(condition, sort: sort, limit: limit + 1, offset: offset)
            let more = records.count > limit
            return Self.jsonBytes(Page(items: Array(records.prefix(limit)), nextCursor: more ? String(offset + limit) : nil))
        }
    }

    struct SearchResults: Encodable {
        var items: [CatalogRecord]
    }

    /// Full-text search over file, node and material names, best match first.
    func search(_ request: Request) async throws -> Response {
        let params = request.uri.queryParameters
        guard let words = params.get("q"), !words.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw HTTPError(.badRequest, message: "search takes words: /api/search?q=...")
        }
        let limit = min(Int(params["limit"] ?? "") ?? 50, configuration.maxPageSize)
        guard limit > 0 else { throw HTTPError(.badRequest, message: "limit takes a positive number") }
        return try await cachedJSON(request) { Self.jsonBytes(SearchResults(items: try await catalog.search(words, limit: limit))) }
    }

    struct Detail: Encodable {
        var record: CatalogRecord
        var nodes: [String]
        var materials: [String]
        var textures: [TextureReferenceRow]
        var warnings: [String]
        /// The ARKit rules the asset fails; the counts are in the record.
        var arkitRules: [String]
        var links: [String: String]
    }

    func asset(_ request: Request, _ segments: [Substring]) async throws -> Response {
        let (id, action) = try AssetPath.parse(segments)
        switch action {
        case nil:
            return try await cachedJSON(request) {
                let entry = try await record(id)
                let base = "/api/assets/" + AssetPath.encode(id)
                var links = ["self": base, "file": base + "/file"]
                if entry.record.kind == .model {
                    links["thumbnail"] = base + "/thumbnail.png"
                    links["convert"] = base + "/convert?to=glb"
                    if entry.record.hasPreview { links["preview"] = base + "/preview.webp" }
                    if !entry.materialNames.isEmpty { links["swatches"] = base + "/swatches.png" }
                }
                return Self.jsonBytes(Detail(record: entry.record, nodes: entry.nodeNames, materials: entry.materialNames,
                                             textures: entry.textureReferences, warnings: entry.warnings, arkitRules: entry.arkitRules,
                                             links: links))
            }
        case "file":
            let record = try await row(id)
            if let redirect = try await redirectToAsset(record) { return redirect }
            let bytes = try await assetBytes(record)
            return Response(status: .ok, headers: [
                .contentType: record.format.mediaType,
                .contentDisposition: "attachment; filename=\"\((record.id as NSString).lastPathComponent)\"",
            ], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        case "thumbnail.png":
            return try await thumbnail(try await row(id), request: request)
        case "preview.webp":
            return try await preview(try await row(id), request: request)
        case "ar.usdz":
            return try await arQuickLook(id, request: request)
        case "swatches.png":
            return try await swatches(try await row(id), request: request)
        case "view.glb":
            return try await converted(try await row(id), to: .glb, request: request, attachment: false, variant: .view)
        default:
            return try await convert(try await row(id), request: request)
        }
    }

    func thumbnail(_ record: CatalogSummary, request: Request) async throws -> Response {
        guard record.kind == .model, record.error == nil else {
            throw HTTPError(.notFound, message: "\(record.id) has no thumbnail (\(record.error ?? "not a model"))")
        }
        let params = request.uri.queryParameters
        let requested = params["size"].map { Int($0) ?? -1 } ?? ThumbnailSize.default
        guard let size = ThumbnailSize.served(for: requested) else {
            throw HTTPError(.badRequest, message: "size takes \(ThumbnailSize.requestable.lowerBound) to \(ThumbnailSize.requestable.upperBound)")
        }
        let view = try params["view"].map { name throws(AssetError) in try ThumbnailView(named: String(name)) } ?? .default
        let look = configuration.render
        let key = "\(record.contentHash)-\(size)-\(view.rawValue)-\(look.lookDigest)"
        let thumbnails = self.thumbnails
        let stores = configuration.stores
        // The file is looked for only when the image must be made, as `convert` does: resolving
        // it on every request (symlinks, a stat per path component) was a fifth of the time of
        // serving a cached thumbnail. A bucket object is staged only then too.
        let make = { @Sendable () throws(AssetError) -> [UInt8]? in
            let asset = OpenedAsset(record, stores: stores)
            let renderer = ThumbnailUseCase(render: look)
            return try asset.using { () throws(AssetError) in
                try thumbnails.png(contentHash: record.contentHash, size: size, view: view, renderer: renderer) { () throws(AssetError) in
                    try Self.scene(of: asset, renderer: renderer)
                }
            }
        }
        if configuration.redirectToStore, !thumbnails.store.isLocal {
            return try await redirectToStore(ThumbnailCache.relativePath(contentHash: record.contentHash, size: size, view: view, look: look.lookDigest),
                                              notFound: "", make: make)
        }
        return try await cachedImage(key: key, contentType: "image/png", request: request, render: make)
    }

    /// The scene of an opened asset, read with the options its place gives (its folder or the
    /// staging of its bucket prefix as the root).
    static func scene(of asset: OpenedAsset, renderer: ThumbnailUseCase) throws(AssetError) -> Scene {
        let (path, options) = try asset.open()
        var reading = renderer
        reading.readOptions = options
        return try reading.scene(at: path)
    }

    /// An image rendered once per key: `304` on a matching `If-None-Match`, else from the memory
    /// cache, else `render` (on a blocking thread; nil means a 404 it has already explained).
    func cachedImage(key: String, contentType: String, request: Request, notFound: String = "",
                     render: @escaping @Sendable () throws -> [UInt8]?) async throws -> Response {
        let etag = "\"\(key)\""
        let headers: HTTPFields = [.contentType: contentType, .eTag: etag, .cacheControl: "public, max-age=86400"]
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: headers) }
        if let cached = cache.get(key) { return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: cached)) }
        guard let bytes = try await Blocking.run(render) else { throw HTTPError(.notFound, message: notFound) }
        let buffer = ByteBuffer(bytes: bytes)
        cache.put(key, buffer)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: buffer))
    }

    /// The animated preview of an asset that moves: 24 frames of its first clip, or a turntable of
    /// a still asset's splats, as a looping WebP, cached beside the thumbnails. 404 for an asset
    /// that neither moves nor holds splats.
    func preview(_ record: CatalogSummary, request: Request) async throws -> Response {
        guard record.kind == .model, record.error == nil else {
            throw HTTPError(.notFound, message: "\(record.id) has no preview (\(record.error ?? "not a model"))")
        }
        let requested = request.uri.queryParameters["size"].map { Int($0) ?? -1 } ?? ThumbnailSize.default
        guard let size = ThumbnailSize.served(for: requested, largest: ThumbnailSize.largestPreview) else {
            throw HTTPError(.badRequest, message: "size takes \(ThumbnailSize.requestable.lowerBound) to \(ThumbnailSize.largestPreview)")
        }
        let frames = 24
        let look = configuration.render
        let key = "\(record.contentHash)-\(size)-\(frames)-\(look.lookDigest)-animated"
        let (thumbnails, stores) = (self.thumbnails, configuration.stores)
        return try await cachedImage(key: key, contentType: "image/webp", request: request,
                                     notFound: "\(record.id) does not move; it has no animated preview") { () throws(AssetError) -> [UInt8]? in
            let asset = OpenedAsset(record, stores: stores)
            let renderer = ThumbnailUseCase(render: look)
            return try asset.using { () throws(AssetError) in
                try thumbnails.animatedWebP(contentHash: record.contentHash, size: size, frames: frames, renderer: renderer) { () throws(AssetError) in
                    try Self.scene(of: asset, renderer: renderer)
                }
            }
        }
    }

    /// The asset's materials drawn as squares in one picture (`MaterialSwatches` gives the
    /// layout), cached beside the thumbnails. 404 for a model without materials.
    func swatches(_ record: CatalogSummary, request: Request) async throws -> Response {
        guard record.kind == .model, record.error == nil else {
            throw HTTPError(.notFound, message: "\(record.id) has no materials to show (\(record.error ?? "not a model"))")
        }
        let cell = Self.swatchSize
        let (thumbnails, stores) = (self.thumbnails, configuration.stores)
        let look = configuration.render
        return try await cachedImage(key: "\(record.contentHash)-swatches-\(cell)-\(look.lookDigest)", contentType: "image/png", request: request,
                                     notFound: "\(record.id) has no materials") { () throws(AssetError) -> [UInt8]? in
            let asset = OpenedAsset(record, stores: stores)
            let renderer = ThumbnailUseCase(render: look)
            return try asset.using { () throws(AssetError) in
                try thumbnails.swatches(contentHash: record.contentHash, cellSize: cell, renderer: renderer) { () throws(AssetError) in
                    try Self.scene(of: asset, renderer: renderer)
                }
            }
        }
    }

    /// Pixels a side of one material's square in the swatch picture.
    static let swatchSize = 32

    func convert(_ record: CatalogSummary, request: Request) async throws -> Response {
        let formats = Self.conversionFormats
        guard let target = request.uri.queryParameters["to"].flatMap({ AssetFormat(rawValue: $0.lowercased()) }), formats.contains(target) else {
            throw HTTPError(.badRequest, message: "to takes one of \(formats.map(\.name).joined(separator: ", "))")
        }
        return try await converted(record, to: target, request: request, attachment: true)
    }

    /// The asset converted to `target`, made once per content hash (on disk beside the catalog,
    /// and in memory); as a download when `attachment`, else for the browser to open.
    /// The asset converted to `target` as `variant` says (the download, the page view's GLB, the AR usdz).
    func converted(_ record: CatalogSummary, to target: AssetFormat, request: Request, attachment: Bool,
                   variant: ConversionVariant = .download) async throws -> Response {
        guard record.kind == .model, record.error == nil else { throw HTTPError(.notFound, message: "\(record.id) is not a readable model") }
        guard record.byteSize <= configuration.maxConvertBytes else {
            throw HTTPError(.contentTooLarge, message: "\(record.id) is larger than the \(configuration.maxConvertBytes)-byte conversion limit")
        }
        let key = variant.key(record, target: target)
        let name = variant.fileName(record, target: target)
        var headers: HTTPFields = [.contentType: target.mediaType, .eTag: "\"\(key)\"", .cacheControl: "public, max-age=86400"]
        if attachment { headers[.contentDisposition] = "attachment; filename=\"\(name)\"" }
        if request.headers[.ifNoneMatch] == "\"\(key)\"" { return Response(status: .notModified, headers: headers) }
        if configuration.redirectToStore, !thumbnails.store.isLocal, attachment {
            return try await redirectToStore(Self.conversionKey(record, fileName: name), notFound: "") { () throws(AssetError) -> [UInt8]? in
                try self.conversion(of: record, to: target, fileName: name, variant: variant)
            }
        }
        if !thumbnails.store.isLocal {
            return try await streamedConversion(record, to: target, fileName: name, variant: variant, headers: headers)
        }
        if let cached = cache.get(key) { return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: cached)) }
        let bytes: [UInt8] = try await Blocking.run { () throws(AssetError) -> [UInt8] in
            try self.conversion(of: record, to: target, fileName: name, variant: variant)
        }
        let buffer = ByteBuffer(bytes: bytes)
        cache.put(key, buffer)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: buffer))
    }

    /// What `convert?to=` offers: the formats assetc writes whose main file stands alone as one
    /// download (glTF's separate .bin would not reach the client).
    static let conversionFormats = ConvertUseCase.outputFormats.filter { $0.capabilities.contains(.singleFile) }

    func reindex(_ request: Request) async throws -> Response {
        guard let token = configuration.token else {
            throw HTTPError(.forbidden, message: "mutations are off; start the service with --token to allow POST /api/reindex")
        }
        guard request.headers[.authorization] == "Bearer \(token)" else {
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer"], message: "POST /api/reindex needs Authorization: Bearer <token>")
        }
        guard await reindexer.start() else { throw HTTPError(.conflict, message: "a reindex is already running") }
        return Self.json(["status": "started"], status: .accepted)
    }
}

import AssetCatalog
import AssetCore
import AssetPipeline
import AssetRender
import AssetStorage
import Foundation

/// Thumbnails kept in a store beside a catalog, one object per content hash, size, view and look
/// (`thumbnails/<hash>-<size>-<view>-<look>.png`, the look `RenderOptions.lookDigest`: lighting,
/// environment, exposure, tone mapping, shadow): the indexer, workers and the service share the
/// naming, so a thumbnail one renders the other serves, and a change of look renders anew. The
/// store is the catalog's folder on this machine, or a bucket (`--thumbnail-store s3://…`) that
/// workers with no shared disk all write to. Keys name content, so writes of one key by several
/// workers at once put the same bytes: any of them may win.
public struct ThumbnailCache: Sendable {
    public var store: any ObjectStore
    /// Where prefiltered environments are kept: always on this machine (they are a cache of
    /// the renderer's, rebuilt in a fraction of a second).
    public var environmentFolder: String

    /// Derived files larger than this are not taken from the store (a thumbnail is kilobytes).
    static let maxObjectBytes = 256 << 20

    /// The store in the catalog's folder (its `thumbnails/` subfolder).
    public init(catalogFolder: String) {
        store = LocalFileStore(root: catalogFolder)
        environmentFolder = (catalogFolder as NSString).appendingPathComponent("thumbnails")
    }

    /// Thumbnails in `store`; prefiltered environments under `catalogFolder` on this machine.
    public init(store: any ObjectStore, catalogFolder: String) {
        self.store = store
        environmentFolder = (catalogFolder as NSString).appendingPathComponent("thumbnails")
    }

    /// The object's key in the store, as catalog records store it.
    public static func relativePath(contentHash: String, size: Int, view: ThumbnailView, look: String) -> String {
        "thumbnails/\(contentHash)-\(size)-\(view.rawValue)-\(look).png"
    }

    static func animatedKey(contentHash: String, size: Int, frames: Int, look: String) -> String {
        "thumbnails/\(contentHash)-\(size)-\(frames)-\(look)-animated.webp"
    }

    static func swatchesKey(contentHash: String, cellSize: Int, look: String) -> String {
        "thumbnails/\(contentHash)-swatches-\(cellSize)-\(look).png"
    }

    /// The file on this machine, for a store that is the local file system; nil for a bucket.
    public func path(contentHash: String, size: Int, view: ThumbnailView, look: String) -> String? {
        (store as? LocalFileStore).map { $0.root + "/" + Self.relativePath(contentHash: contentHash, size: size, view: view, look: look) }
    }

    /// The stored bytes of `key`, nil when there are none.
    public func cached(_ key: String) throws(AssetError) -> [UInt8]? {
        try store.read(key, maxBytes: Self.maxObjectBytes)
    }

    /// The cached PNG; else `scene()` rendered with `renderer`'s options at this size and view,
    /// stored for next time. The scene is only asked for when nothing is cached.
    public func png(contentHash: String, size: Int, view: ThumbnailView, renderer: ThumbnailUseCase,
                    scene: () throws(AssetError) -> Scene) throws(AssetError) -> [UInt8] {
        let key = Self.relativePath(contentHash: contentHash, size: size, view: view, look: renderer.render.lookDigest)
        if let bytes = try cached(key) { return bytes }
        var use = renderer
        use.render.size = size
        use.render.view = RenderView(view)
        let bytes = try use.png(for: try scene()).bytes
        try store.write(key, bytes: bytes, contentType: "image/png")
        return bytes
    }

    /// The cached animated preview of a scene that moves (`thumbnails/<hash>-<size>-<frames>-<look>-animated.webp`:
    /// `frames` frames of its first clip, or a turntable of a still scene with splats, as
    /// `ThumbnailUseCase.frames` makes them); else rendered and stored for next time. Nil when the
    /// scene does not move.
    public func animatedWebP(contentHash: String, size: Int, frames: Int, renderer: ThumbnailUseCase,
                             scene: () throws(AssetError) -> Scene) throws(AssetError) -> [UInt8]? {
        let key = Self.animatedKey(contentHash: contentHash, size: size, frames: frames, look: renderer.render.lookDigest)
        if let bytes = try cached(key) { return bytes }
        let source = try scene()
        guard ThumbnailUseCase.moves(source) else { return nil }
        var use = renderer
        use.render.size = size
        let bytes = try use.frames(of: source, count: frames, source: nil).webp
        try store.write(key, bytes: bytes, contentType: "image/webp")
        return bytes
    }

    /// The cached picture of the scene's material swatches (`thumbnails/<hash>-swatches-<cell>-<look>.png`,
    /// laid out as `MaterialSwatches` says); else drawn and stored for next time. Nil when the
    /// scene has no materials.
    public func swatches(contentHash: String, cellSize: Int, renderer: ThumbnailUseCase,
                         scene: () throws(AssetError) -> Scene) throws(AssetError) -> [UInt8]? {
        let key = Self.swatchesKey(contentHash: contentHash, cellSize: cellSize, look: renderer.render.lookDigest)
        if let bytes = try cached(key) { return bytes }
        guard let bytes = try MaterialSwatches.png(of: try scene(), cellSize: cellSize, thumbnails: renderer) else { return nil }
        try store.write(key, bytes: bytes, contentType: "image/png")
        return bytes
    }
}

import AssetCore
import AssetPipeline
import AssetRender
import Foundation

/// Thumbnails kept on disk beside a catalog, one file per content hash, size, view and look
/// (`thumbnails/<hash>-<size>-<view>-<look>.png`, the look `RenderOptions.lookDigest`: lighting,
/// environment, exposure, tone mapping, shadow): the indexer, workers and the service share the
/// naming, so a thumbnail one renders the other serves, and a change of look renders anew.
public struct ThumbnailCache: Sendable {
    /// The catalog's folder; thumbnails go in its `thumbnails/` subfolder.
    public var catalogFolder: String

    public init(catalogFolder: String) {
        self.catalogFolder = catalogFolder
    }

    /// The cached file's path relative to the catalog folder, as catalog records store it.
    public static func relativePath(contentHash: String, size: Int, view: RenderView, look: String) -> String {
        "thumbnails/\(contentHash)-\(size)-\(view.rawValue)-\(look).png"
    }

    public func path(contentHash: String, size: Int, view: RenderView, look: String) -> String {
        (catalogFolder as NSString).appendingPathComponent(Self.relativePath(contentHash: contentHash, size: size, view: view, look: look))
    }

    /// Where prefiltered environments are kept beside the thumbnails.
    public var environmentFolder: String { (catalogFolder as NSString).appendingPathComponent("thumbnails") }

    /// The cached PNG; else `scene()` rendered with `renderer`'s options at this size and view,
    /// written atomically for next time. The scene is only asked for when nothing is cached.
    public func png(contentHash: String, size: Int, view: RenderView, renderer: ThumbnailUseCase,
                    scene: () throws(AssetError) -> Scene) throws(AssetError) -> [UInt8] {
        let file = path(contentHash: contentHash, size: size, view: view, look: renderer.render.lookDigest)
        if let data = FileManager.default.contents(atPath: file) { return Array(data) }
        var use = renderer
        use.render.size = size
        use.render.view = view
        let bytes = try use.png(for: try scene()).bytes
        _ = try AtomicOutput.write([OutputFile(relativePath: (file as NSString).lastPathComponent, bytes: bytes)], mainPath: file, force: true)
        return bytes
    }

    /// The cached animated preview of an animated scene (`thumbnails/<hash>-<size>-<frames>-<look>-animated.webp`,
    /// `frames` frames of its first clip); else rendered and written for next time. Nil when the
    /// scene does not move.
    public func animatedWebP(contentHash: String, size: Int, frames: Int, renderer: ThumbnailUseCase,
                             scene: () throws(AssetError) -> Scene) throws(AssetError) -> [UInt8]? {
        let file = (catalogFolder as NSString).appendingPathComponent("thumbnails/\(contentHash)-\(size)-\(frames)-\(renderer.render.lookDigest)-animated.webp")
        if let data = FileManager.default.contents(atPath: file) { return Array(data) }
        let source = try scene()
        guard source.isAnimated else { return nil }
        var use = renderer
        use.render.size = size
        let bytes = try use.animationFrames(of: source, count: frames, source: nil).webp
        _ = try AtomicOutput.write([OutputFile(relativePath: (file as NSString).lastPathComponent, bytes: bytes)], mainPath: file, force: true)
        return bytes
    }

    /// The cached picture of the scene's material swatches (`thumbnails/<hash>-swatches-<cell>-<look>.png`,
    /// laid out as `MaterialSwatches` says); else drawn and written for next time. Nil when the
    /// scene has no materials.
    public func swatches(contentHash: String, cellSize: Int, renderer: ThumbnailUseCase,
                         scene: () throws(AssetError) -> Scene) throws(AssetError) -> [UInt8]? {
        let file = (catalogFolder as NSString).appendingPathComponent("thumbnails/\(contentHash)-swatches-\(cellSize)-\(renderer.render.lookDigest).png")
        if let data = FileManager.default.contents(atPath: file) { return Array(data) }
        guard let bytes = try MaterialSwatches.png(of: try scene(), cellSize: cellSize, thumbnails: renderer) else { return nil }
        _ = try AtomicOutput.write([OutputFile(relativePath: (file as NSString).lastPathComponent, bytes: bytes)], mainPath: file, force: true)
        return bytes
    }
}

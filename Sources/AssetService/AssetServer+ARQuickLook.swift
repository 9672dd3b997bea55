import AssetCatalog
import AssetKit
import Foundation
import Hummingbird

/// AR Quick Look: Safari on an iPhone or iPad opens a link marked `rel="ar"` whose target is a
/// usdz served as `model/vnd.usdz+zip` in its AR viewer. The link's target is this route.
extension AssetServer {
    /// A usdz the catalog found passing ARKit's rules is served as it is; any other model (a
    /// usdz with ARKit errors, or another format) as the service's usdz conversion for AR, without
    /// Gaussian splats, made once per content hash. A model of splats alone has no AR view.
    /// Served inline, for the viewer to open rather than the browser to save.
    func arQuickLook(_ id: String, request: Request) async throws -> Response {
        let entry = try await record(id)
        let summary = try await row(id)
        guard summary.kind == .model, summary.error == nil else {
            throw HTTPError(.notFound, message: "\(id) is not a readable model, so it has no AR view")
        }
        guard Self.hasARView(entry.record) else {
            throw HTTPError(.notFound, message: "\(id) holds only Gaussian splats, which AR Quick Look does not draw; it has no AR view")
        }
        guard entry.record.format == .usdz, entry.record.arkitErrors == 0 else {
            // Without splats the AR file is the download's usdz: one conversion, cached once.
            let variant: ConversionVariant = (entry.record.splats ?? 0) > 0 ? .arQuickLook : .download
            return try await converted(summary, to: .usdz, request: request, attachment: false, variant: variant)
        }
        let key = "\(summary.contentHash).ar"
        let headers: HTTPFields = [.contentType: AssetFormat.usdz.mediaType, .eTag: "\"\(key)\"", .cacheControl: "public, max-age=86400"]
        if request.headers[.ifNoneMatch] == "\"\(key)\"" { return Response(status: .notModified, headers: headers) }
        if let cached = cache.get(key) { return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: cached)) }
        let bytes = try await assetBytes(summary)
        let buffer = ByteBuffer(bytes: bytes)
        cache.put(key, buffer)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: buffer))
    }

    /// Whether AR Quick Look has something to show: any readable model but one of splats alone.
    static func hasARView(_ r: CatalogRecord) -> Bool {
        r.kind == .model && r.error == nil && !((r.splats ?? 0) > 0 && (r.meshes ?? 0) == 0)
    }

    /// Apple's markup for the link: the anchor's one child is the image, which Safari badges with
    /// the AR icon on devices that have AR Quick Look (elsewhere it is a plain link to the usdz).
    static func arLink(_ id: String, imageSize: Int, caption: String) -> String {
        let api = "/api/assets/" + AssetPath.encode(id)
        return "<a rel=\"ar\" class=ar href=\"\(api)/ar.usdz\"><img src=\"\(api)/thumbnail.png?size=\(imageSize)\" "
            + "width=\(imageSize) height=\(imageSize) alt=\"\(MarkupText.escape(caption))\"></a>"
    }
}

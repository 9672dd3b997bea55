import AssetCatalog
import AssetKit
import Foundation

/// Which conversion of an asset a route serves: the download `convert?to=` gives, the GLB the
/// asset page's 3D view loads, or the usdz the AR link opens. Each is cached under its own name.
enum ConversionVariant: Sendable {
    case download
    /// Splats trimmed to what the page's view draws: the most visible `viewMaxSplats`, at degree 0
    /// (the view shows the base colour only), which makes a degree-3 capture's GLB about a quarter
    /// of the download's.
    case view
    /// Splats left out: AR Quick Look draws none, and ARKit's rules refuse their prims.
    case arQuickLook

    static let viewMaxSplats = 1 << 20

    /// The file name the conversion is stored under, beside the other variants.
    func fileName(_ record: CatalogSummary, target: AssetFormat) -> String {
        let stem = ((record.id as NSString).lastPathComponent as NSString).deletingPathExtension
        switch self {
        case .download: return stem + "." + target.fileExtension
        case .view: return stem + ".view." + target.fileExtension
        case .arQuickLook: return stem + ".ar." + target.fileExtension
        }
    }

    /// The memory cache's and ETag's key.
    func key(_ record: CatalogSummary, target: AssetFormat) -> String {
        switch self {
        case .download: return "\(record.contentHash).\(target)"
        case .view: return "\(record.contentHash).\(target).view"
        case .arQuickLook: return "\(record.contentHash).\(target).ar"
        }
    }

    func adjust(_ options: inout ConvertOptions) {
        switch self {
        case .download: break
        case .view: (options.maxSplats, options.splatSHDegree) = (Self.viewMaxSplats, 0)
        case .arQuickLook: options.dropsSplats = true
        }
    }
}

import AssetCore

/// The named views the renderer places its camera at, SceneKit-style: `front` looks at the model's
/// front (from +Z in Y-up terms), `RenderCamera.framing` says where each looks from. The CLI's
/// `--view` takes them; the catalog's thumbnail jobs and the service's `?view=` name a picture's
/// view by `ThumbnailView` (AssetCatalog), which AssetKit turns into this one case for case.
public enum RenderView: String, Sendable, CaseIterable, Codable {
    case iso, front, back, left, right, top, bottom

    /// The view a thumbnail gets when nothing names one.
    public static let `default` = RenderView.iso

    /// Reads a view's name, or says which names there are.
    public init(named name: String) throws(AssetError) {
        guard let view = RenderView(rawValue: name) else {
            throw AssetError(.malformed("unknown view '\(name)'; the views are \(Self.names)"))
        }
        self = view
    }

    /// "iso, front, back, left, right, top, bottom", for messages and help (made once: the
    /// command line parser builds `thumbnail`'s options, help included, several times a parse).
    public static let names = allCases.map(\.rawValue).joined(separator: ", ")
}

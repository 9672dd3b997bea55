import AssetCore

/// The view a cached thumbnail is of, as thumbnail jobs store it, thumbnail keys spell it and the
/// service's `?view=` asks for it: the catalog's own vocabulary, as `ThumbnailSize` is for sizes.
/// AssetKit draws each with the renderer's `RenderView` of the same name (an exhaustive switch
/// there both ways, so the two cannot drift apart). A name outside these is an error wherever it
/// arrives.
public enum ThumbnailView: String, Sendable, CaseIterable, Codable {
    case iso, front, back, left, right, top, bottom

    /// The view a thumbnail gets when nothing names one.
    public static let `default` = ThumbnailView.iso

    /// Reads a view's name, or says which names there are.
    public init(named name: String) throws(AssetError) {
        guard let view = ThumbnailView(rawValue: name) else {
            throw AssetError(.malformed("unknown view '\(name)'; the views are \(Self.names)"))
        }
        self = view
    }

    /// "iso, front, back, left, right, top, bottom", for messages and help.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// The named views a thumbnail is rendered from, SceneKit-style: `front` looks at the model's front
/// (from +Z in Y-up terms). One type for the renderer, the CLI's `--view`, catalog thumbnail jobs
/// and the service's `?view=`: a value outside these is an error wherever it arrives. It is here,
/// not in AssetRender, because the catalog's thumbnail jobs store it and AssetCatalog imports
/// AssetCore only.
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

    /// "iso, front, back, left, right, top, bottom", for messages and help.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

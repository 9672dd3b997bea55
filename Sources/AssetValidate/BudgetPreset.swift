/// The budgets `convert --budget` brings a model under and `validate --budget` checks, each from
/// the guidance of the viewer it is named after. Animation length is checked, never cut.
public enum BudgetPreset: String, CaseIterable, Sendable {
    /// AR Quick Look on iPhone and iPad: Apple's rule of thumb (WWDC 2018 session 603, "Integrating
    /// Apps and Content with AR Quick Look", restated on Apple's developer forums in 2021):
    /// 100,000 polygons, one set of 2048 x 2048 textures, 10 seconds of animation. Apple names no
    /// file size; 200 MiB is assetc's own ceiling.
    case quicklook
    /// Quick Look and RealityKit on Apple Vision Pro, in the shared space: at most 250,000
    /// triangles (WWDC 2024 session 10186, "Optimize your 3D assets for spatial computing").
    /// Apple gives no texture size for it; Quick Look's 2048 px is kept.
    case visionos
    /// The web and Android's Scene Viewer (Google's ARCore Scene Viewer guidance): 2048 x 2048
    /// textures, 10 MB files, JPEG where there is no transparency, 30,000 vertices, which assetc
    /// budgets as 60,000 triangles (a closed mesh has about two triangles per vertex).
    case web

    /// Triangles drawn, instances counted each time.
    public var triangles: Int {
        switch self {
        case .quicklook: return 100_000
        case .visionos: return 250_000
        case .web: return 60_000
        }
    }

    /// The longer side of any texture, in pixels.
    public var textureSize: Int { 2048 }

    /// The output as it ships.
    public var fileBytes: Int {
        switch self {
        case .quicklook, .visionos: return 200 << 20
        case .web: return 10_000_000
        }
    }

    /// The longest animation the viewer's guidance takes, in seconds; nil where it names none.
    public var animationSeconds: Double? { self == .quicklook ? 10 : nil }

    /// Whether textures without alpha are stored as JPEG.
    public var prefersJPEG: Bool { self == .web }
}

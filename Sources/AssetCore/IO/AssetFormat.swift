/// Every format assetc knows, typed once: the registry's readers and writers name their formats
/// with it, `convert --to` and the service's `to=` parse it, catalog records store it, validation
/// reports it and the service takes its media type from it. Its raw value is the short name `info`
/// prints and the catalog stores (`usda`, `glb`, `jpeg`).
public enum AssetFormat: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case usda, usdc, usdz, dae, gltf, glb, obj, stl, ply
    /// Niantic's compressed Gaussian splats (v1-v3 gzip, v4 zstd streams).
    case spz
    /// Autodesk FBX, binary or ASCII: read only.
    case fbx
    /// Textures the catalog indexes and the service serves; no scene reader takes them.
    case png, jpeg

    public struct Capabilities: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// A scene reader takes it (`info`, `convert` from, `index`, `thumbnail`).
        public static let readable = Capabilities(rawValue: 1 << 0)
        /// A scene writer makes it (`convert --to`).
        public static let writable = Capabilities(rawValue: 1 << 1)
        /// It holds skeletons, skins, blend shapes and animation clips.
        public static let carriesAnimation = Capabilities(rawValue: 1 << 2)
        /// It holds physically based materials with textures (OBJ's MTL counts).
        public static let carriesMaterials = Capabilities(rawValue: 1 << 3)
        /// Its written main file stands alone as one download (sidecar textures aside), which
        /// glTF's separate `.bin` does not: what the service's `convert?to=` offers.
        public static let singleFile = Capabilities(rawValue: 1 << 4)
    }

    public enum Kind: String, Sendable, Codable { case model, texture }

    public var name: String { rawValue }
    public var description: String { rawValue }

    /// The extension a written file gets.
    public var fileExtension: String {
        switch self {
        case .dae, .usda, .usdc, .usdz, .gltf, .glb, .obj, .stl, .ply, .spz, .fbx, .png: return rawValue
        case .jpeg: return "jpg"
        }
    }

    /// The extensions a file in this format is recognised by; content sniffing comes first.
    /// `.usd` is either USD layer encoding: the first bytes tell which.
    public var fileExtensions: [String] {
        switch self {
        case .usda: return ["usda", "usd"]
        case .usdc: return ["usdc", "usd"]
        case .jpeg: return ["jpg", "jpeg"]
        default: return [rawValue]
        }
    }

    /// What it is, for people.
    public var summary: String {
        switch self {
        case .usda: return "USD text layer"
        case .usdc: return "USD binary crate layer"
        case .usdz: return "USD package (zip of layers and textures)"
        case .dae: return "Collada document"
        case .gltf: return "glTF 2.0 JSON with its buffers"
        case .glb: return "binary glTF 2.0"
        case .obj: return "Wavefront OBJ + MTL"
        case .stl: return "STL, binary or ASCII"
        case .ply: return "PLY, ASCII or binary (meshes, point clouds, 3DGS splats)"
        case .spz: return "SPZ compressed Gaussian splats"
        case .fbx: return "Autodesk FBX, binary or ASCII"
        case .png: return "PNG image"
        case .jpeg: return "JPEG image"
        }
    }

    /// The media type a download of it is served with.
    public var mediaType: String {
        switch self {
        case .png: return "image/png"
        case .jpeg: return "image/jpeg"
        case .glb: return "model/gltf-binary"
        case .gltf: return "model/gltf+json"
        case .usdz: return "model/vnd.usdz+zip"
        case .dae: return "model/vnd.collada+xml"
        case .usda, .obj: return "text/plain; charset=utf-8"
        case .usdc, .stl, .ply, .spz, .fbx: return "application/octet-stream"
        }
    }

    public var kind: Kind { self == .png || self == .jpeg ? .texture : .model }

    public var isUSD: Bool { self == .usda || self == .usdc || self == .usdz }

    /// What assetc does with it. `FormatRegistry.standard` is tested to agree: a reader or writer
    /// added without saying so here fails that test.
    public var capabilities: Capabilities {
        switch self {
        case .usda, .usdc, .usdz, .dae, .glb: return [.readable, .writable, .carriesAnimation, .carriesMaterials, .singleFile]
        case .gltf: return [.readable, .writable, .carriesAnimation, .carriesMaterials]
        case .obj: return [.readable, .writable, .carriesMaterials, .singleFile]
        case .stl, .ply, .spz: return [.readable, .writable, .singleFile]
        case .fbx: return [.readable, .writable, .carriesAnimation, .carriesMaterials, .singleFile]
        case .png, .jpeg: return []
        }
    }

    /// The texture format of an image file the catalog indexes, by its extension.
    public static func texture(byExtension ext: String) -> AssetFormat? {
        recognised(byExtension: ext).first { $0.kind == .texture }
    }

    /// The formats a file with this extension may be in, in declaration order (`usd` gives usda,
    /// then usdc).
    public static func recognised(byExtension ext: String) -> [AssetFormat] {
        let ext = ext.lowercased()
        return allCases.filter { $0.fileExtensions.contains(ext) }
    }

    /// Parses a short name as users type it (`USDZ`, `jpg`), or says which names there are.
    public init(named name: String) throws(AssetError) {
        let lowered = name.lowercased()
        guard let format = AssetFormat(rawValue: lowered == "jpg" ? "jpeg" : lowered) else {
            throw AssetError(.unsupportedFormat("unknown format '\(name)'", supported: AssetFormat.allCases.map(\.rawValue)))
        }
        self = format
    }
}

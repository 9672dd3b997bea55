/// A format module's entry point for writing. Writers turn a `Scene` into bytes in memory and never
/// touch the file system: the pipeline writes every output file atomically (temporary file, then
/// rename), so a failed conversion leaves nothing behind. Same scene, same bytes.
public protocol SceneWriter: Sendable {
    var format: AssetFormat { get }
    /// What the scene must look like before `write`; the converter runs the passes that make it so.
    var requirements: WriterRequirements { get }
    func write(_ scene: Scene, context: WriteContext) throws(AssetError) -> WriteResult
}

public struct WriterRequirements: Sendable, Equatable {
    /// Only triangles (glTF, STL).
    public var triangles: Bool
    /// World-space geometry with no hierarchy (OBJ, STL, PLY).
    public var flattened: Bool
    /// A fixed up axis and unit the format's specification demands (glTF: Y up, metres).
    public var upAxis: UpAxis?
    public var metersPerUnit: Double?
    /// The format can say a node is a guide, a proxy or invisible (USD); others get those nodes left out.
    public var keepsPurposeAndVisibility: Bool
    /// The format holds polylines (USD BasisCurves, glTF LINES, Collada lines); others get them left out.
    public var keepsCurves: Bool
    /// Node matrices must be affine (glTF, Collada); projective ones are baked into the geometry.
    public var affineTransforms: Bool
    /// The format holds skeletons, skins, blend shapes and animation clips; others get the scene at
    /// its bind pose (or posed at `--time`) with one warning.
    public var keepsAnimation: Bool
    /// The format animates material inputs (time-sampled UsdPreviewSurface inputs, glTF's
    /// KHR_animation_pointer); others keep the materials at rest with one warning.
    public var keepsMaterialAnimation: Bool
    /// The format transforms texture coordinates per texture (USD's UsdTransform2d, glTF's
    /// KHR_texture_transform); others get the transforms baked into the coordinates.
    public var keepsTextureTransforms: Bool
    /// The format (or the viewer it is for) takes lights; AR Quick Look's usdz does not.
    public var keepsLights: Bool
    /// The format switches materials by variant (glTF KHR_materials_variants, USD variant sets);
    /// others get the base bindings with one warning naming the variants.
    public var keepsMaterialVariants: Bool
    /// The format is UsdSkel's own: the nodes a USD source's BlendShape and SkelAnimation prims
    /// became are written anew from the meshes and clips; other formats get them left out.
    public var writesUsdSkel: Bool
    /// The format holds Gaussian splat sets (USD ParticleField, glTF KHR_gaussian_splatting, 3DGS
    /// PLY, SPZ); others get them left out with one warning.
    public var keepsSplats: Bool

    public init(triangles: Bool = false, flattened: Bool = false, upAxis: UpAxis? = nil, metersPerUnit: Double? = nil,
                keepsPurposeAndVisibility: Bool = false, keepsCurves: Bool = false, affineTransforms: Bool = false,
                keepsAnimation: Bool = false, keepsMaterialAnimation: Bool = false, keepsTextureTransforms: Bool = false, keepsLights: Bool = true,
                keepsMaterialVariants: Bool = false, writesUsdSkel: Bool = false, keepsSplats: Bool = false) {
        self.writesUsdSkel = writesUsdSkel
        self.keepsSplats = keepsSplats
        self.keepsLights = keepsLights
        self.keepsMaterialVariants = keepsMaterialVariants
        self.keepsAnimation = keepsAnimation
        self.keepsMaterialAnimation = keepsMaterialAnimation
        self.keepsTextureTransforms = keepsTextureTransforms
        self.affineTransforms = affineTransforms
        self.keepsCurves = keepsCurves
        self.triangles = triangles
        self.flattened = flattened
        self.upAxis = upAxis
        self.metersPerUnit = metersPerUnit
        self.keepsPurposeAndVisibility = keepsPurposeAndVisibility
    }
}

/// What a writer may need besides the scene.
public struct WriteContext: Sendable {
    /// The output's file name without its folder (`ship.glb`): writers name sidecar files after it.
    public var outputName: String
    /// The bytes of a scene texture, or nil when it cannot be had (missing, refused).
    public var textureBytes: @Sendable (Texture) -> [UInt8]?
    /// Where a format holds layers in either a text or a binary encoding (a usdz's root layer),
    /// write text. Binary is the default because it is what viewers such as AR Quick Look want.
    public var prefersTextLayers: Bool
    /// Mesh compression, for the formats that have it (glTF); others ignore it.
    public var meshCompression: MeshCompression
    /// Where a format that can embed its textures or name files beside it (FBX) puts them.
    public var textureStorage: TextureStorage

    public init(outputName: String, textureBytes: @escaping @Sendable (Texture) -> [UInt8]?, prefersTextLayers: Bool = false,
                meshCompression: MeshCompression = .none, textureStorage: TextureStorage = .embedded) {
        self.meshCompression = meshCompression
        self.textureStorage = textureStorage
        self.outputName = outputName
        self.textureBytes = textureBytes
        self.prefersTextLayers = prefersTextLayers
    }

    /// Where sidecar textures go, relative to the output's folder: one folder per output, so
    /// several conversions into the same folder never collide.
    public var textureFolder: String { "\(outputStem)_textures" }

    public var outputStem: String {
        guard let dot = outputName.lastIndex(of: "."), dot != outputName.startIndex else { return outputName }
        return String(outputName[..<dot])
    }
}

/// Textures inside the output file, or as files in a folder beside it named after the output.
public enum TextureStorage: String, Sendable, Hashable, Codable, CaseIterable {
    case embedded = "embed"
    case beside
}

/// The files a writer produced: the main file first, then sidecars (a glTF's `.bin`, an OBJ's
/// `.mtl`, copied textures), each named relative to the main file's folder.
public struct WriteResult: Sendable {
    public var files: [OutputFile]
    public var diagnostics: [Diagnostic]

    public init(files: [OutputFile], diagnostics: [Diagnostic] = []) {
        self.files = files
        self.diagnostics = diagnostics
    }
}

public struct OutputFile: Sendable, Equatable {
    /// Relative to the folder of the main output; the main file's is the output's own name.
    public var relativePath: String
    public var bytes: [UInt8]

    public init(relativePath: String, bytes: [UInt8]) {
        self.relativePath = relativePath
        self.bytes = bytes
    }
}

extension Texture {
    /// A file name for the texture inside an output package or folder, from its authored path.
    public var outputFileName: String {
        let last = authoredPath.split(separator: "/").last.map(String.init) ?? name
        let cleaned = String(last.map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "_" })
        return cleaned.isEmpty ? "texture" : cleaned
    }

    /// MIME type by the texture's file extension.
    public var mimeType: String? {
        if case .embedded(_, let mime) = source { return mime }
        let lower = outputFileName.lowercased()
        if lower.hasSuffix(".png") { return "image/png" }
        if lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") { return "image/jpeg" }
        if lower.hasSuffix(".webp") { return "image/webp" }
        return nil
    }
}

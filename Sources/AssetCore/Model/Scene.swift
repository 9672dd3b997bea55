/// A whole asset as assetc understands it, whatever format it came from.
///
/// `root` is a pseudo-root (like USD's `/`) whose children are the top-level nodes; it never carries
/// a transform or geometry of its own. Meshes, materials, textures, cameras and lights live in flat
/// arrays and nodes refer to them by index, so one mesh can be instanced under many nodes.
public struct Scene: Sendable, Equatable {
    public var root: Node
    public var meshes: [Mesh]
    /// Polylines, placed by `Node.curvesInstances`.
    public var curves: [Curves] = []
    /// Gaussian splat sets, placed by `Node.splatInstances`.
    public var splats: [SplatSet] = []
    public var materials: [Material]
    public var textures: [Texture]
    public var cameras: [Camera]
    public var lights: [Light]
    public var skeletons: [Skeleton] = []
    public var animations: [AnimationClip] = []
    /// Names of the material variants (glTF KHR_materials_variants, USD's `materialVariant` variant
    /// set), in order; mesh instances say which material each one binds (`MeshInstance.variantBindings`).
    public var materialVariants: [String] = []
    public var metadata: SceneMetadata
    /// The purposes stats, bounds, images and writers without purposes include. Not a property of
    /// the file: the reader's options choose it (`ReadOptions.purposes`, `--purpose`).
    public var countedPurposes: PurposeSet = .defaultAndRender

    public init(
        root: Node = Node(name: ""),
        meshes: [Mesh] = [],
        materials: [Material] = [],
        textures: [Texture] = [],
        cameras: [Camera] = [],
        lights: [Light] = [],
        metadata: SceneMetadata = SceneMetadata()
    ) {
        self.root = root
        self.meshes = meshes
        self.materials = materials
        self.textures = textures
        self.cameras = cameras
        self.lights = lights
        self.metadata = metadata
    }
}

public enum UpAxis: String, Sendable, Hashable, Codable, CaseIterable {
    case x = "X"
    case y = "Y"
    case z = "Z"
}

public struct SceneMetadata: Sendable, Equatable {
    /// USD's default is Y; Collada's is Y as well.
    public var upAxis: UpAxis
    /// USD's fallback is 0.01 (centimetres); Collada's `<unit meter>` default is 1.0.
    public var metersPerUnit: Double
    /// False for formats that carry no unit (OBJ, STL, PLY): `metersPerUnit` is then an assumption
    /// (1, or `--source-meters-per-unit`), and `info` reports the unit as unknown.
    public var declaresUnits = true
    /// The format of the file the scene was read from; nil for a scene built in memory.
    public var sourceFormat: AssetFormat?
    /// The authoring tool, when the file says (USD `doc`/customLayerData, Collada `authoring_tool`).
    public var generator: String?
    /// USD `defaultPrim`, or the name the asset is known by.
    public var defaultPrim: String?
    /// Layer `startTimeCode`, when authored; the time at which time-sampled values were taken.
    public var startTimeCode: Double?
    /// Layer `endTimeCode`, when authored.
    public var endTimeCode: Double?
    /// USD's time codes per second (authored `timeCodesPerSecond`, else `framesPerSecond`, else 24);
    /// nil for formats whose key times are seconds already.
    public var timeCodesPerSecond: Double?

    public init(
        upAxis: UpAxis = .y,
        metersPerUnit: Double = 1,
        sourceFormat: AssetFormat? = nil,
        generator: String? = nil,
        defaultPrim: String? = nil,
        startTimeCode: Double? = nil
    ) {
        self.upAxis = upAxis
        self.metersPerUnit = metersPerUnit
        self.sourceFormat = sourceFormat
        self.generator = generator
        self.defaultPrim = defaultPrim
        self.startTimeCode = startTimeCode
    }
}

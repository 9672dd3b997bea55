import Foundation

/// What a reader may do. The caps keep hostile or broken files from exhausting memory or the stack:
/// readers check counts read from a file against these before allocating.
public struct ReadOptions: Sendable, Equatable {
    public var limits: ReadLimits
    /// Where references, sublayers, payloads and textures may resolve; see `AssetRoot`.
    public var assetRoot: AssetRoot
    /// Let references and textures resolve outside the asset root (off by default).
    public var allowsPathsOutsideAsset: Bool
    /// Turn the first warning into an error.
    public var isStrict: Bool
    /// The purposes the scene's stats, bounds, images and purpose-less conversions include.
    public var purposes: PurposeSet = .defaultAndRender
    /// The unit of files that declare none (OBJ, STL, PLY), in metres; nil assumes metres.
    public var sourceMetersPerUnit: Double?
    /// Seconds into the first animation clip to pose the scene at (`--time`) for bounds, images and
    /// conversions; nil leaves geometry as authored (skinned meshes at their bind pose).
    public var poseTime: Double?
    /// Folders of this read whose files are fetched as readers resolve them (a bucket prefix's
    /// staging); `.none` reads the local disk only.
    public var staged: StagedFiles = .none
    /// The axis convention of splat data in files that do not say (`--splat-axes`); nil takes
    /// each format's usual one (`rdf` for 3DGS PLY, `rub` for SPZ).
    public var splatAxes: SplatAxes?

    public init(limits: ReadLimits = ReadLimits(), assetRoot: AssetRoot = .assetFolder,
                allowsPathsOutsideAsset: Bool = false, isStrict: Bool = false) {
        self.limits = limits
        self.assetRoot = assetRoot
        self.allowsPathsOutsideAsset = allowsPathsOutsideAsset
        self.isStrict = isStrict
    }

    /// How this read's messages name the file at `url`: the `s3://` location a staged file stands
    /// for, else the path as it was given.
    public func name(of url: URL) -> String { staged.name(of: url) }

    /// How this read's messages name the file at `path` (absolute once resolved).
    public func name(ofPath path: String) -> String { staged.name(ofPath: path) }
}

public struct ReadLimits: Sendable, Equatable {
    /// Largest file or package entry read into memory.
    public var maxFileBytes: Int
    /// Most elements in one array (points, indices, floats).
    public var maxArrayElements: Int
    /// Deepest node hierarchy; deeper files are refused rather than risking the stack.
    public var maxNodeDepth: Int
    /// Most nodes in one scene, after instancing and references are expanded.
    public var maxNodes: Int
    /// Most entries in a usdz package, most layers in one composition.
    public var maxPackageEntries: Int
    public var maxLayers: Int
    /// Bytes one read may set aside for decoded data (`--max-memory`); see `ReadBudget`.
    public var maxMemoryBytes: Int
    /// Units of work one read may do (`--max-work`); see `ReadBudget`.
    public var maxWork: Int
    /// Most triangles a picture draws once instances are placed (`--max-drawn-triangles`): thumbnails,
    /// previews and turntables refuse a scene past it before framing or drawing anything.
    public var maxPlacedTriangles: Int

    /// Half of the memory this process can have: physical memory, a container's limit or an
    /// address-space limit, whichever is smallest. The other half is headroom for what the
    /// budget does not count (the process itself, the bytes of the file, transient copies).
    public static let defaultMemoryBytes = SystemMemory.available / 2
    /// Enough for a scene of about 50 million triangles with its attributes, or a million
    /// composed prims; a file needs a crafted claim or a raised limit to go beyond.
    public static let defaultWork = 1 << 28
    /// About ten seconds of drawing on a 2-core machine for a 64-pixel thumbnail of a release
    /// build (measured: 1.96 x 10^8 triangles placed at one spot took 34 s), and room for a
    /// legitimate 2 x 10^7-triangle scene.
    public static let defaultPlacedTriangles = 50_000_000

    public init(
        maxFileBytes: Int = 4 << 30,
        maxArrayElements: Int = 1 << 30,
        maxNodeDepth: Int = 512,
        maxNodes: Int = 5_000_000,
        maxPackageEntries: Int = 65_536,
        maxLayers: Int = 4_096,
        maxMemoryBytes: Int = ReadLimits.defaultMemoryBytes,
        maxWork: Int = ReadLimits.defaultWork,
        maxPlacedTriangles: Int = ReadLimits.defaultPlacedTriangles
    ) {
        self.maxFileBytes = maxFileBytes
        self.maxArrayElements = maxArrayElements
        self.maxNodeDepth = maxNodeDepth
        self.maxNodes = maxNodes
        self.maxPackageEntries = maxPackageEntries
        self.maxLayers = maxLayers
        self.maxMemoryBytes = maxMemoryBytes
        self.maxWork = maxWork
        self.maxPlacedTriangles = maxPlacedTriangles
    }
}

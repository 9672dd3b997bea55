/// What a reader may do. The caps keep hostile or broken files from exhausting memory or the stack:
/// readers check counts read from a file against these before allocating.
public struct ReadOptions: Sendable, Equatable {
    public var limits: ReadLimits
    /// Let references and textures resolve outside the asset's folder (off by default).
    public var allowsPathsOutsideAsset: Bool
    /// Turn the first warning into an error.
    public var isStrict: Bool

    public init(limits: ReadLimits = ReadLimits(), allowsPathsOutsideAsset: Bool = false, isStrict: Bool = false) {
        self.limits = limits
        self.allowsPathsOutsideAsset = allowsPathsOutsideAsset
        self.isStrict = isStrict
    }
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

    public init(
        maxFileBytes: Int = 4 << 30,
        maxArrayElements: Int = 1 << 30,
        maxNodeDepth: Int = 512,
        maxNodes: Int = 5_000_000,
        maxPackageEntries: Int = 65_536,
        maxLayers: Int = 4_096
    ) {
        self.maxFileBytes = maxFileBytes
        self.maxArrayElements = maxArrayElements
        self.maxNodeDepth = maxNodeDepth
        self.maxNodes = maxNodes
        self.maxPackageEntries = maxPackageEntries
        self.maxLayers = maxLayers
    }
}

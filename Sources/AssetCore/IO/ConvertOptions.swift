/// What `assetc convert` can be asked to do.
public struct ConvertOptions: Sendable {
    /// A writer's format name; nil takes it from the output's extension.
    public var format: AssetFormat?
    public var upAxis: UpAxis?
    public var metersPerUnit: Double?
    public var triangulate = false
    public var flatten = false
    public var force = false
    /// A usdz gets a usda root layer instead of usdc (`--usda-root`).
    public var textRootLayer = false
    public var readOptions = ReadOptions()
    /// Simplify meshes until the scene draws at most this many triangles (`--max-triangles`).
    public var maxTriangles: Int?
    /// Simplify every mesh to this share of its triangles (`--ratio`, 0 to 1).
    public var simplifyRatio: Double?

    public init() {}
}

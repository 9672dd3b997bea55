import AssetCore

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
    /// Every material without a MaterialX network gets an `ND_gltf_pbr` one built from its inputs (`--materialx`).
    public var addsMaterialXNetworks = false
    public var readOptions = ReadOptions()
    /// Simplify meshes until the scene draws at most this many triangles (`--max-triangles`).
    public var maxTriangles: Int?
    /// Simplify every mesh to this share of its triangles (`--ratio`, 0 to 1).
    public var simplifyRatio: Double?
    /// Keep at most this many placed Gaussian splats, the least visible pruned (`--max-splats`).
    public var maxSplats: Int?
    /// Lower splats' spherical harmonics to this degree, 0 to 3 (`--sh-degree`).
    public var splatSHDegree: Int?
    /// Leave every splat set out even where the format holds them: the service's usdz for AR Quick
    /// Look, which draws none (ARKit's rules refuse `ParticleField3DGaussianSplat`).
    public var dropsSplats = false
    /// Shrink textures whose longer side is past this many pixels (`--max-texture`).
    public var maxTextureSize: Int?
    /// How textures are stored after the texture pass (`--texture-format`).
    public var textureEncoding = TextureEncoding.keep
    /// JPEG quality, 1-100, for textures stored as JPEG (`--jpeg-quality`).
    public var jpegQuality = 85
    /// Tighten the triangle and texture budgets until the output fits in this many bytes (`--max-size`).
    public var maxOutputBytes: Int?
    /// Mesh compression for glTF and GLB output (`--compress`).
    public var meshCompression = MeshCompression.none
    /// FBX output: textures embedded in the file (the default) or written beside it (`--textures beside`).
    public var textureStorage = TextureStorage.embedded

    public init() {}
}

/// How `--texture-format` stores textures: as they were (re-encoded in their own format only when
/// resized), all as PNG, or as JPEG wherever a texture has no transparency.
public enum TextureEncoding: String, CaseIterable, Sendable {
    case keep
    case png
    case jpeg
    /// JPEG for opaque colour textures whose JPEG takes at most half the bytes of their PNG (the
    /// sign of photographic content, where JPEG's loss is not seen), PNG or the source otherwise:
    /// what `--max-size` tries before making textures smaller.
    case auto
}

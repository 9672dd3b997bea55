import AssetCore

/// What a USD stage is made of, beyond the Scene a read builds: every layer and package it
/// depends on, the asset paths that do not resolve, what composition could not do, and the
/// composed prims with their authored types, schemas and properties. Validation rules are
/// written over these facts (OpenUSD's compliance rules look at the same things).
public struct USDStageFacts {
    /// The path the stage was opened from.
    public var rootFile: String
    /// Where the root layer lives: the file, or a package's first entry.
    public var rootLayerLocation: AssetLocation
    public var stage: USDComposedStage
    /// Every layer reached: the root layer's stack, composition arcs and, as OpenUSD's dependency
    /// walk does, arcs in variants that are not selected.
    public var layers: [USDLayer]
    /// What composition could not do (a missing layer, a missing prim, a cycle), each once.
    public var compositionProblems: [Diagnostic]
    public var dependencies: [USDDependency]
    /// Every package a layer was read from, outer packages of nested ones included.
    public var packages: [USDPackageFacts]
    /// Where an asset path written in the layer at `anchor` leads, when something is there.
    public var locate: (_ assetPath: String, _ anchor: AssetLocation) -> AssetLocation?
    /// The bytes at a location, read through the same sandbox, size cap and budget as the layers.
    public var readBytes: (_ location: AssetLocation) throws(AssetError) -> [UInt8]
    /// The first `count` bytes at a location (an image header), charged as what is read.
    public var readPrefix: (_ location: AssetLocation, _ count: Int) throws(AssetError) -> [UInt8]
    /// How findings name a location: a staged file by the `s3://` location it stands for.
    public var name: (_ location: AssetLocation) -> String

    /// Whether the root layer is a usdz package's layer.
    public var rootIsPackaged: Bool {
        if case .packageEntry = rootLayerLocation { return true }
        return false
    }
}

/// An asset path written in a layer: a sublayer, reference or payload (`isLayer`), or an
/// asset-valued attribute such as a texture's `inputs:file`.
public struct USDDependency {
    public var assetPath: String
    public var isLayer: Bool
    /// Where it was written.
    public var location: SourceLocation
    /// nil when it does not resolve; `problem` says why.
    public var resolved: AssetLocation?
    public var problem: String?
}

/// A package's zip layout, or why it could not be read.
public struct USDPackageFacts {
    public var location: AssetLocation
    public var layout: Result<USDZPackageLayout, AssetError>
}

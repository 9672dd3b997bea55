import AssetCore

/// `.usda`: the layer as text, its textures copied into `<name>_textures/` beside it.
public struct USDAWriter: SceneWriter {
    public let format = FormatDescription(name: "usda", fileExtensions: ["usda"], summary: "USD text layer")
    public let requirements = WriterRequirements(keepsPurposeAndVisibility: true)

    public init() {}

    public func write(_ scene: Scene, context: WriteContext) throws(AssetError) -> WriteResult {
        var layer = USDLayerWriter(scene: scene, context: context, textureFolder: context.textureFolder)
        let text = layer.write()
        return WriteResult(files: [OutputFile(relativePath: context.outputName, bytes: Array(text.utf8))] + layer.textureFiles,
                           diagnostics: layer.diagnostics)
    }
}

/// `.usdc`: the layer as a binary crate file, textures copied into `<name>_textures/` beside it.
public struct USDCWriter: SceneWriter {
    public let format = FormatDescription(name: "usdc", fileExtensions: ["usdc"], summary: "USD binary crate layer")
    public let requirements = WriterRequirements(keepsPurposeAndVisibility: true)

    public init() {}

    public func write(_ scene: Scene, context: WriteContext) throws(AssetError) -> WriteResult {
        var layer = USDLayerWriter(scene: scene, context: context, textureFolder: context.textureFolder)
        let (bytes, diagnostics) = try Self.crate(&layer, name: context.outputName)
        return WriteResult(files: [OutputFile(relativePath: context.outputName, bytes: bytes)] + layer.textureFiles,
                           diagnostics: diagnostics)
    }

    /// The scene's layer as crate bytes. The layer writer speaks usda; its text is parsed back into
    /// the layer document the crate writer encodes, so both encodings come from one description of
    /// the scene and cannot drift apart.
    static func crate(_ layer: inout USDLayerWriter, name: String) throws(AssetError) -> ([UInt8], [Diagnostic]) {
        let text = Array(layer.write().utf8)
        let document = try USDAParser.parse(text, location: .file(path: name))
        let output = try USDCrateWriter.encode(document)
        return (output.bytes, layer.diagnostics + output.warnings.map { .warning($0) })
    }
}

/// `.usdz`: the root layer as the package's first entry (binary usdc, or usda when the context
/// prefers text), textures inside under `textures/`, stored and 64-byte aligned as the usdz
/// rules require.
public struct USDZWriter: SceneWriter {
    public let format = FormatDescription(name: "usdz", fileExtensions: ["usdz"], summary: "USD package")
    public let requirements = WriterRequirements(keepsPurposeAndVisibility: true)

    public init() {}

    public func write(_ scene: Scene, context: WriteContext) throws(AssetError) -> WriteResult {
        var layer = USDLayerWriter(scene: scene, context: context, textureFolder: "textures")
        let stem = USDName.sanitize(context.outputStem)
        let root: OutputFile
        var diagnostics: [Diagnostic]
        if context.prefersTextLayers {
            root = OutputFile(relativePath: "\(stem).usda", bytes: Array(layer.write().utf8))
            diagnostics = layer.diagnostics
        } else {
            let (bytes, crateDiagnostics) = try USDCWriter.crate(&layer, name: "\(stem).usdc")
            root = OutputFile(relativePath: "\(stem).usdc", bytes: bytes)
            diagnostics = crateDiagnostics
        }
        for texture in layer.textureFiles where !(texture.relativePath.lowercased().hasSuffix(".png")
                                                  || texture.relativePath.lowercased().hasSuffix(".jpg")
                                                  || texture.relativePath.lowercased().hasSuffix(".jpeg")) {
            diagnostics.append(.warning("texture \(texture.relativePath) is not PNG or JPEG; usdz viewers may not show it"))
        }
        let package = try USDZPackageWriter.package([root] + layer.textureFiles)
        return WriteResult(files: [OutputFile(relativePath: context.outputName, bytes: package)], diagnostics: diagnostics)
    }
}

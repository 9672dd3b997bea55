import AssetCore

/// `.usda`: the layer as text, its textures copied into `<name>_textures/` beside it.
public struct USDAWriter: SceneWriter {
    public let format = AssetFormat.usda
    public let requirements = WriterRequirements(keepsPurposeAndVisibility: true, keepsCurves: true, keepsAnimation: true, keepsMaterialAnimation: true, keepsTextureTransforms: true, keepsMaterialVariants: true, writesUsdSkel: true, keepsSplats: true)

    public init() {}

    public func write(_ scene: Scene, context: WriteContext) throws(AssetError) -> WriteResult {
        var builder = USDLayerBuilder(scene: scene, context: context, textureFolder: context.textureFolder)
        let text = USDAPrinter.print(builder.build())
        return WriteResult(files: [OutputFile(relativePath: context.outputName, bytes: Array(text.utf8))] + builder.textureFiles,
                           diagnostics: builder.diagnostics)
    }
}

/// `.usdc`: the layer as a binary crate file, textures copied into `<name>_textures/` beside it.
public struct USDCWriter: SceneWriter {
    public let format = AssetFormat.usdc
    public let requirements = WriterRequirements(keepsPurposeAndVisibility: true, keepsCurves: true, keepsAnimation: true, keepsMaterialAnimation: true, keepsTextureTransforms: true, keepsMaterialVariants: true, writesUsdSkel: true, keepsSplats: true)

    public init() {}

    public func write(_ scene: Scene, context: WriteContext) throws(AssetError) -> WriteResult {
        var builder = USDLayerBuilder(scene: scene, context: context, textureFolder: context.textureFolder)
        let layer = builder.build()
        let (bytes, diagnostics) = try Self.crate(layer, diagnostics: builder.diagnostics)
        return WriteResult(files: [OutputFile(relativePath: context.outputName, bytes: bytes)] + builder.textureFiles,
                           diagnostics: diagnostics)
    }

    /// A layer document as crate bytes, with the builder's warnings and the encoder's.
    static func crate(_ layer: USDLayer, diagnostics: [Diagnostic]) throws(AssetError) -> ([UInt8], [Diagnostic]) {
        let output = try USDCrateWriter.encode(layer)
        return (output.bytes, diagnostics + output.warnings.map { .warning($0) })
    }
}

/// `.usdz`: the root layer as the package's first entry (binary usdc, or usda when the context
/// prefers text), textures inside under `textures/`, stored and 64-byte aligned as the usdz
/// rules require. A usdz is for AR Quick Look, so it follows ARKit's rules (usdchecker --arkit):
/// Y up, and only the prim types ARKit takes: curves and lights are left out with a warning.
public struct USDZWriter: SceneWriter {
    public let format = AssetFormat.usdz
    public let requirements = WriterRequirements(upAxis: .y, keepsPurposeAndVisibility: true, keepsCurves: false, keepsAnimation: true, keepsMaterialAnimation: true,
                                                 keepsTextureTransforms: true, keepsLights: false, keepsMaterialVariants: true, writesUsdSkel: true, keepsSplats: true)

    public init() {}

    public func write(_ scene: Scene, context: WriteContext) throws(AssetError) -> WriteResult {
        var builder = USDLayerBuilder(scene: scene, context: context, textureFolder: "textures")
        builder.writesNetworks = false
        let networks = scene.materials.filter { $0.network != nil }.map(\.name)
        if !networks.isEmpty {
            builder.diagnostics.append(.warning("AR Quick Look reads UsdPreviewSurface only: the MaterialX networks of \(networks.count == 1 ? "material" : "materials") "
                                                + "\(networks.prefix(5).joined(separator: ", "))\(networks.count > 5 ? ", ..." : "") are left out of the usdz, "
                                                + "each written as the preview surface it maps to (convert to usda or usdc keeps them)"))
        }
        let layer = builder.build()
        let stem = USDName.sanitize(context.outputStem)
        let root: OutputFile
        var diagnostics: [Diagnostic]
        if context.prefersTextLayers {
            root = OutputFile(relativePath: "\(stem).usda", bytes: Array(USDAPrinter.print(layer).utf8))
            diagnostics = builder.diagnostics
        } else {
            let (bytes, crateDiagnostics) = try USDCWriter.crate(layer, diagnostics: builder.diagnostics)
            root = OutputFile(relativePath: "\(stem).usdc", bytes: bytes)
            diagnostics = crateDiagnostics
        }
        for texture in builder.textureFiles where !(texture.relativePath.lowercased().hasSuffix(".png")
                                                  || texture.relativePath.lowercased().hasSuffix(".jpg")
                                                  || texture.relativePath.lowercased().hasSuffix(".jpeg")) {
            diagnostics.append(.warning("texture \(texture.relativePath) is not PNG or JPEG; usdz viewers may not show it"))
        }
        let package = try USDZPackageWriter.package([root] + builder.textureFiles)
        return WriteResult(files: [OutputFile(relativePath: context.outputName, bytes: package)], diagnostics: diagnostics)
    }
}

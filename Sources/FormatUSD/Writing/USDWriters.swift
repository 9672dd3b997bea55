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

/// `.usdz`: the usda layer as the package's first entry, textures inside under `textures/`,
/// stored and 64-byte aligned. The root layer is text; ARKit's rule that it be binary usdc waits
/// for the crate writer.
public struct USDZWriter: SceneWriter {
    public let format = FormatDescription(name: "usdz", fileExtensions: ["usdz"], summary: "USD package")
    public let requirements = WriterRequirements(keepsPurposeAndVisibility: true)

    public init() {}

    public func write(_ scene: Scene, context: WriteContext) throws(AssetError) -> WriteResult {
        var layer = USDLayerWriter(scene: scene, context: context, textureFolder: "textures")
        let text = layer.write()
        var diagnostics = layer.diagnostics
        for texture in layer.textureFiles where !(texture.relativePath.lowercased().hasSuffix(".png")
                                                  || texture.relativePath.lowercased().hasSuffix(".jpg")
                                                  || texture.relativePath.lowercased().hasSuffix(".jpeg")) {
            diagnostics.append(.warning("texture \(texture.relativePath) is not PNG or JPEG; usdz viewers may not show it"))
        }
        let entries = [OutputFile(relativePath: "\(USDName.sanitize(context.outputStem)).usda", bytes: Array(text.utf8))] + layer.textureFiles
        let package = try USDZPackageWriter.package(entries)
        return WriteResult(files: [OutputFile(relativePath: context.outputName, bytes: package)], diagnostics: diagnostics)
    }
}

import AssetCore

/// Collada 1.4.1 that pycollada and assimp load: the node hierarchy with `<matrix>` transforms,
/// one geometry per mesh with a `polylist` per material group (n-gons kept), normals, every
/// texture coordinate set and colours as inputs with their own offsets, phong effects with
/// textures through surface/sampler2D, `up_axis` and `unit`. Fixed timestamps: same scene, same bytes.
public struct ColladaWriter: SceneWriter {
    public let format = AssetFormat.dae
    public let requirements = WriterRequirements(keepsCurves: true, affineTransforms: true, keepsAnimation: true)

    public init() {}

    public func write(_ scene: Scene, context: WriteContext) throws(AssetError) -> WriteResult {
        var document = ColladaDocumentWriter(scene: scene, context: context)
        let text = document.write()
        return WriteResult(files: [OutputFile(relativePath: context.outputName, bytes: Array(text.utf8))] + document.textureFiles,
                           diagnostics: document.diagnostics)
    }
}

import AssetCore

/// Binary FBX 7.4 for game engines and DCC tools: Y up and right-handed, the scene's own unit as
/// `UnitScaleFactor` (centimetres per unit: 100 for metres) with every node at its own scale,
/// polygons as authored with normals, per-edge smoothing, named UV sets, vertex colours and
/// per-polygon materials; skins with a bind pose holding every bone; blend shapes; one animation
/// stack per clip. Textures are embedded by default or written beside the file
/// (`WriteContext.textureStorage`). What FBX has no place for is named in warnings.
public struct FBXWriter: SceneWriter {
    public let format = AssetFormat.fbx
    public let requirements = WriterRequirements(upAxis: .y, affineTransforms: true, keepsAnimation: true, keepsTextureTransforms: true)

    public init() {}

    public func write(_ scene: Scene, context: WriteContext) throws(AssetError) -> WriteResult {
        var encoder = FBXSceneEncoder(scene: scene, context: context, embedsTextures: context.textureStorage == .embedded)
        let records = encoder.encode()
        let bytes = FBXBinaryEncoder.encode(records)
        var warnings = encoder.diagnostics
        warnings += scene.droppedContentWarnings(format: "FBX", keepsMaterials: true, keepsTexcoordSets: Int.max, keepsNormals: true,
                                                 keepsColors: true, keepsPointClouds: false, keepsCamerasAndLights: true)
        if scene.lights.contains(where: { $0.kind == .ambient }) {
            warnings.append(.warning("FBX has no ambient light: \(scene.lights.filter { $0.kind == .ambient }.count) left out"))
        }
        let networks = scene.materials.filter { $0.network != nil }.count
        if networks > 0 {
            warnings.append(.warning("FBX holds no MaterialX networks: \(networks) material(s) written as their physically based values"))
        }
        let lightChannels = scene.animations.reduce(0) { $0 + $1.lightChannels.count }
        if lightChannels > 0 {
            warnings.append(.warning("FBX output keeps no light animation: \(lightChannels) channel(s) left out"))
        }
        return WriteResult(files: [OutputFile(relativePath: context.outputName, bytes: bytes)] + encoder.textureFiles, diagnostics: warnings)
    }
}

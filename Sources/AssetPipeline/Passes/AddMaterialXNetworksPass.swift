import AssetCore
import FormatUSD

/// `--materialx`: every material without a MaterialX network gets an `ND_gltf_pbr` one built from its
/// inputs (`ShadingNetwork.glTFPBR`), which the usda and usdc writers put beside its UsdPreviewSurface.
/// Other formats have no MaterialX: the option is named in a warning and changes nothing there.
public struct AddMaterialXNetworksPass: ScenePass {
    public let name = "add MaterialX networks"
    let format: AssetFormat

    public init(format: AssetFormat) { self.format = format }

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        guard format == .usda || format == .usdc else {
            let why = format == .usdz ? "a usdz is for AR Quick Look, which reads UsdPreviewSurface only" : "\(format.name) has no MaterialX"
            diagnostics.append(.warning("--materialx writes nothing here: \(why)"))
            return
        }
        for i in scene.materials.indices where scene.materials[i].network == nil {
            scene.materials[i].network = .glTFPBR(from: scene.materials[i])
        }
    }
}

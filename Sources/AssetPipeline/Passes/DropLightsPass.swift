import AssetCore

/// Leaves lights out, with one warning that counts them, for outputs whose viewer takes none
/// (ARKit's rules refuse UsdLux prims in a usdz: AR Quick Look lights the scene itself).
public struct DropLightsPass: ScenePass {
    public let name = "drop lights"
    let format: String

    public init(format: String) { self.format = format }

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        guard !scene.lights.isEmpty else { return }
        diagnostics.append(.warning("\(format) for AR Quick Look takes no lights (ARKit's rules): \(scene.lights.count == 1 ? "1 light" : "\(scene.lights.count) lights") left out"))
        scene.lights = []
        var flat = FlatNodeTree(scene.root)
        for i in flat.nodes.indices { flat.nodes[i].light = nil }
        scene.root = flat.rebuilt()
    }
}

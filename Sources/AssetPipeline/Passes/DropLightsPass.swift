import AssetCore

/// Leaves lights out, with one warning that counts them, for outputs whose viewer takes none
/// (ARKit's rules refuse UsdLux prims in a usdz: AR Quick Look lights the scene itself). Their
/// animation goes with them; a clip that animated only lights is left out whole.
public struct DropLightsPass: ScenePass {
    public let name = "drop lights"
    let format: String

    public init(format: String) { self.format = format }

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        guard !scene.lights.isEmpty else { return }
        let channels = scene.animations.reduce(0) { $0 + $1.lightChannels.count }
        let animated = channels == 0 ? "" : ", with \(channels == 1 ? "1 animation channel" : "\(channels) animation channels")"
        diagnostics.append(.warning("\(format) for AR Quick Look takes no lights (ARKit's rules): \(scene.lights.count == 1 ? "1 light" : "\(scene.lights.count) lights") left out\(animated)"))
        scene.lights = []
        scene.animations.removeAll { $0.channels.isEmpty && $0.materialChannels.isEmpty && !$0.lightChannels.isEmpty }
        for i in scene.animations.indices { scene.animations[i].lightChannels = [] }
        var flat = FlatNodeTree(scene.root)
        for i in flat.nodes.indices { flat.nodes[i].light = nil }
        scene.root = flat.rebuilt()
    }
}

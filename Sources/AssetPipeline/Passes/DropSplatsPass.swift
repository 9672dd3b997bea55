import AssetCore

/// Leaves out every Gaussian splat set, with one warning, for formats that have no splats (OBJ,
/// STL, Collada, FBX): their centres alone would read as a point cloud of the wrong colours and
/// sizes, which is worse than saying what is missing.
public struct DropSplatsPass: ScenePass {
    public let name = "drop splats"
    let format: String
    let reason: String?

    /// `reason` replaces "FORMAT holds no Gaussian splats" where the format holds them but the
    /// file's use does not.
    public init(format: String, reason: String? = nil) {
        self.format = format
        self.reason = reason
    }

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        guard !scene.splats.isEmpty else { return }
        let placed = scene.placedSplats()
        if !placed.isEmpty {
            let total = placed.reduce(0) { $0 + scene.splats[$1.instance.splats].count }
            let sets = "\(placed.count) splat set\(placed.count == 1 ? "" : "s") (\(total) splats) left out"
            if let reason {
                diagnostics.append(.warning("\(reason): \(sets)"))
            } else {
                diagnostics.append(.warning("\(format) holds no Gaussian splats: \(sets); write .usdz, .usda, .usdc, .glb, .gltf, .ply or .spz to keep them"))
            }
        }
        scene.splats = []
        Self.clear(&scene.root)
    }

    private static func clear(_ node: inout Node) {
        node.splatInstances = []
        for i in node.children.indices { clear(&node.children[i]) }
    }
}

import AssetCore

/// Leaves out every curve, with one warning, for formats that hold surfaces only (STL, PLY, OBJ
/// as assetc writes it): written as faces they would be wrong, and silently lost they would
/// surprise.
public struct DropCurvesPass: ScenePass {
    public let name = "drop curves"
    let format: String
    /// Why the format takes none, as the warning says it.
    let reason: String

    public init(format: String, reason: String = "holds surfaces only") {
        self.format = format
        self.reason = reason
    }

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        guard !scene.curves.isEmpty else { return }
        let stats = scene.stats
        if stats.curves > 0 {
            diagnostics.append(.warning("\(format) \(reason): \(stats.curves) curves (\(stats.segments) line segments) left out"))
        }
        scene.curves = []
        Self.clear(&scene.root)
    }

    private static func clear(_ node: inout Node) {
        node.curvesInstances = []
        for i in node.children.indices { clear(&node.children[i]) }
    }
}

import AssetCore

/// For formats without material variants: the base bindings stay, and the variants are named in one warning.
public struct DropMaterialVariantsPass: ScenePass {
    public let name = "drop material variants"
    let format: String

    public init(format: String) { self.format = format }

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        guard !scene.materialVariants.isEmpty else { return }
        diagnostics.append(.warning("\(format) has no material variants: \(scene.materialVariants.joined(separator: ", ")) left out; the base materials are written"))
        scene.materialVariants = []
        var flat = FlatNodeTree(scene.root)
        for i in flat.nodes.indices {
            for k in flat.nodes[i].meshInstances.indices { flat.nodes[i].meshInstances[k].variantBindings = [] }
        }
        scene.root = flat.rebuilt()
    }
}

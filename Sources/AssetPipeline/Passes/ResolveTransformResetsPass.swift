import AssetCore

/// Rewrites nodes that reset the transform stack (USD `!resetXformStack!`) as ordinary children,
/// for formats without resets: the local transform becomes inverse(parent's world) x world, so the
/// node stays where it was. A parent whose world transform cannot be inverted keeps the node's
/// transform as it is, with a warning.
public struct ResolveTransformResetsPass: ScenePass {
    public let name = "resolve transform resets"

    public init() {}

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        Self.resolve(&scene.root, parentWorld: .identity, diagnostics: &diagnostics)
    }

    private static func resolve(_ node: inout Node, parentWorld: Matrix4x4, diagnostics: inout [Diagnostic]) {
        for i in node.children.indices {
            var child = node.children[i]
            let world = child.resetsTransformStack ? child.transform : parentWorld * child.transform
            if child.resetsTransformStack {
                if let inverse = parentWorld.inverse {
                    child.transform = inverse * world
                } else {
                    diagnostics.append(.warning("node \(child.name) resets the transform stack under a singular parent; its placement may change"))
                }
                child.resetsTransformStack = false
            }
            resolve(&child, parentWorld: world, diagnostics: &diagnostics)
            node.children[i] = child
        }
    }
}

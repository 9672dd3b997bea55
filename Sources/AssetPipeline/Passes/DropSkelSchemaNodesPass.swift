import AssetCore

/// Leaves out the nodes a USD source's BlendShape and SkelAnimation prims became, for writers other
/// than USD. They hold nothing of their own in the scene (the targets are the mesh's blend shapes,
/// the animation is the clips), so no warning: written as glTF or Collada nodes they were empty
/// nodes, which a USD written from that file kept beside the rig it writes anew, one more at
/// every conversion.
public struct DropSkelSchemaNodesPass: ScenePass {
    public let name = "drop UsdSkel schema nodes"

    public init() {}

    static let schemaTypes: Set<String> = ["BlendShape", "SkelAnimation"]

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        guard Self.holdsSchemaNode(scene.root) else { return }
        scene.root = Self.pruned(scene.root)
    }

    static func isSchemaNode(_ node: Node) -> Bool {
        schemaTypes.contains(node.typeName) && node.meshInstances.isEmpty && node.curvesInstances.isEmpty && node.camera == nil && node.light == nil
            && node.children.allSatisfy(isSchemaNode)
    }

    static func holdsSchemaNode(_ node: Node) -> Bool {
        node.children.contains { isSchemaNode($0) || holdsSchemaNode($0) }
    }

    static func pruned(_ node: Node) -> Node {
        var node = node
        node.children = node.children.filter { !isSchemaNode($0) }.map(pruned)
        return node
    }
}

/// The node tree flattened in depth-first order, each node without its children, so a pass can
/// change nodes by number and rebuild the tree, without recursion (a reader's depth cap is the only
/// bound on depth, and rewriting should not be a second stack).
public struct FlatNodeTree: Sendable {
    /// Depth-first order, parents before children; `children` are emptied.
    public var nodes: [Node]
    /// Index of each node's parent in `nodes`, -1 for top-level nodes.
    public var parents: [Int]
    /// `/Root/Head/Jaw`, as `NodeVisit.path`.
    public var paths: [String]

    public init(_ root: Node) {
        nodes = []
        parents = []
        paths = []
        var stack: [(node: Node, parent: Int, parentPath: String)] = root.children.reversed().map { ($0, -1, "") }
        while let (node, parent, parentPath) = stack.popLast() {
            let index = nodes.count
            var bare = node
            bare.children = []
            let path = parentPath + "/" + node.name
            nodes.append(bare)
            parents.append(parent)
            paths.append(path)
            for child in node.children.reversed() { stack.append((child, index, path)) }
        }
    }

    /// World transforms, honouring `resetsTransformStack`, as `Scene.forEachNode` computes them.
    public func worldTransforms() -> [Matrix4x4] {
        var worlds = [Matrix4x4](repeating: .identity, count: nodes.count)
        for i in nodes.indices {
            let node = nodes[i], parent = parents[i]
            worlds[i] = parent < 0 || node.resetsTransformStack ? node.transform : worlds[parent] * node.transform
        }
        return worlds
    }

    /// The pseudo-root with every node back under its parent, in the original order.
    public func rebuilt() -> Node {
        var children = [[Node]](repeating: [], count: nodes.count)
        var top: [Node] = []
        // Children come after their parent, so walking backwards finishes each node before it is attached.
        for i in nodes.indices.reversed() {
            var node = nodes[i]
            node.children = children[i].reversed()
            children[i] = []
            if parents[i] < 0 { top.append(node) } else { children[parents[i]].append(node) }
        }
        return Node(name: "", children: top.reversed())
    }
}

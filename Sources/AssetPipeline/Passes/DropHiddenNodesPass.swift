import AssetCore

/// Leaves out nodes (and everything under them) whose purpose is guide or proxy, or that are
/// invisible, for formats that cannot mark them so: written as ordinary nodes they would show.
public struct DropHiddenNodesPass: ScenePass {
    public let name = "drop guides, proxies and invisible nodes"

    public init() {}

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        var dropped: [String] = []
        Self.prune(&scene.root, path: "", dropped: &dropped)
        if !dropped.isEmpty {
            let list = dropped.prefix(5).joined(separator: ", ") + (dropped.count > 5 ? ", ..." : "")
            diagnostics.append(.warning("the target format has no guide, proxy or invisible nodes: \(dropped.count) left out (\(list))"))
        }
    }

    private static func prune(_ node: inout Node, path: String, dropped: inout [String]) {
        node.children.removeAll { child in
            let hidden = child.isInvisible || child.purpose == .guide || child.purpose == .proxy
            if hidden { dropped.append(path + "/" + child.name) }
            return hidden
        }
        for i in node.children.indices { prune(&node.children[i], path: path + "/" + node.children[i].name, dropped: &dropped) }
    }
}

import AssetCore

/// Leaves out the geometry of nodes whose purpose the scene does not count (guide and proxy, and
/// unknown purposes, by default) and invisible nodes with everything under them, for formats that
/// cannot mark them so: written as ordinary nodes they would show. A node of an uncounted purpose
/// keeps children that author a counted one of their own, as usd-core's purpose inheritance does.
public struct DropHiddenNodesPass: ScenePass {
    public let name = "drop guides, proxies and invisible nodes"

    public init() {}

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        var dropped: [String] = []
        let counted = scene.countedPurposes
        for i in scene.root.children.indices.reversed() {
            let child = scene.root.children[i]
            if !Self.prune(&scene.root.children[i], path: "/" + child.name, inherited: .default, counted: counted, dropped: &dropped) {
                scene.root.children.remove(at: i)
            }
        }
        if !dropped.isEmpty {
            let list = dropped.prefix(5).joined(separator: ", ") + (dropped.count > 5 ? ", ..." : "")
            diagnostics.append(.warning("the target format has no guide, proxy or invisible nodes: \(dropped.count) left out (\(list))"))
        }
    }

    /// Prunes under `node`; false when nothing of it is left to write.
    private static func prune(_ node: inout Node, path: String, inherited: Purpose, counted: PurposeSet,
                              dropped: inout [String]) -> Bool {
        if node.isInvisible {
            dropped.append(path)
            return false
        }
        let purpose = node.purpose ?? inherited
        var keptChildren = false
        for i in node.children.indices.reversed() {
            let childPath = path + "/" + node.children[i].name
            if prune(&node.children[i], path: childPath, inherited: purpose, counted: counted, dropped: &dropped) {
                keptChildren = true
            } else {
                node.children.remove(at: i)
            }
        }
        guard !counted.contains(purpose) else { return true }
        let hadContent = !node.meshInstances.isEmpty || node.camera != nil || node.light != nil
        node.meshInstances = []
        node.camera = nil
        node.light = nil
        if hadContent || !keptChildren { dropped.append(path) }
        // Kept as a plain transform when a counted descendant needs its place in the hierarchy.
        if keptChildren { node.purpose = nil }
        return keptChildren
    }
}

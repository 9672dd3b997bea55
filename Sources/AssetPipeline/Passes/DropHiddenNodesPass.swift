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
        // A skeleton's joints place its skinned meshes whatever the skeleton's purpose or
        // visibility (usd-core's skeleton-purpose files author `guide`): they stay as plain
        // transforms, or every skin on them would be lost.
        var joints: Set<String> = []
        scene.forEachNode { node, _ in
            for instance in node.meshInstances {
                if let skin = instance.skin, scene.skeletons.indices.contains(skin.skeleton) { joints.formUnion(scene.skeletons[skin.skeleton].jointPaths) }
            }
        }
        for i in scene.root.children.indices.reversed() {
            let child = scene.root.children[i]
            if !Self.prune(&scene.root.children[i], path: "/" + child.name, inherited: .default, counted: counted, joints: joints, dropped: &dropped) {
                scene.root.children.remove(at: i)
            }
        }
        if !dropped.isEmpty {
            let list = dropped.prefix(5).joined(separator: ", ") + (dropped.count > 5 ? ", ..." : "")
            diagnostics.append(.warning("the target format has no guide, proxy or invisible nodes: \(dropped.count) left out (\(list))"))
        }
    }

    /// Prunes under `node`; false when nothing of it is left to write.
    private static func prune(_ node: inout Node, path: String, inherited: Purpose, counted: PurposeSet, joints: Set<String>,
                              dropped: inout [String]) -> Bool {
        let isJoint = joints.contains(path)
        // An invisible node drops everything under it, but for the joints there.
        if node.isInvisible && !isJoint && !joints.contains(where: { $0.hasPrefix(path + "/") }) {
            dropped.append(path)
            return false
        }
        let purpose = node.isInvisible ? .guide : node.purpose ?? inherited
        var keptChildren = false
        for i in node.children.indices.reversed() {
            let childPath = path + "/" + node.children[i].name
            if prune(&node.children[i], path: childPath, inherited: purpose, counted: counted, joints: joints, dropped: &dropped) {
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
        if hadContent || !(keptChildren || isJoint) { dropped.append(path) }
        // Kept as a plain transform when a counted descendant or a skin needs its place in the hierarchy.
        if keptChildren || isJoint {
            node.purpose = nil
            node.isInvisible = false
        }
        return keptChildren || isJoint
    }
}

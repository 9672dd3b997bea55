/// What a traversal knows about a node beyond the node itself.
public struct NodeVisit: Sendable {
    /// `/Root/Head/Jaw`: node names from the top-level node down.
    public var path: String
    /// 1 for top-level nodes.
    public var depth: Int
    public var worldTransform: Matrix4x4
    /// The purpose in force: the nearest authored one on the way up, else `default`.
    public var purpose: Purpose
    /// True when this node or an ancestor is invisible.
    public var isInvisible: Bool
    /// Whether the scene's counted purposes include `purpose`.
    public var hasCountedPurpose: Bool

    /// Whether stats, bounds and images include this node's geometry.
    public var isCounted: Bool { hasCountedPurpose && !isInvisible }
}

extension Scene {
    /// Visits every node under the pseudo-root, depth first, parents before children, children in order.
    ///
    /// Iterative on purpose: a reader's depth cap is the only thing between a deep file and the stack,
    /// and traversal should not be a second one.
    public func forEachNode(_ body: (Node, NodeVisit) throws -> Void) rethrows {
        struct Pending {
            var node: Node
            var parentPath: String
            var depth: Int
            var parentWorld: Matrix4x4
            var purpose: Purpose
            var isInvisible: Bool
        }
        var stack: [Pending] = root.children.reversed().map {
            Pending(node: $0, parentPath: "", depth: 1, parentWorld: .identity, purpose: .default, isInvisible: false)
        }
        while let item = stack.popLast() {
            let node = item.node
            let world = node.resetsTransformStack || item.parentWorld.isIdentity
                ? node.transform : item.parentWorld * node.transform
            let purpose = node.purpose ?? item.purpose
            let visit = NodeVisit(
                path: item.parentPath + "/" + node.name,
                depth: item.depth,
                worldTransform: world,
                purpose: purpose,
                isInvisible: item.isInvisible || node.isInvisible,
                hasCountedPurpose: countedPurposes.contains(purpose))
            try body(node, visit)
            for child in node.children.reversed() {
                stack.append(Pending(
                    node: child, parentPath: visit.path, depth: item.depth + 1, parentWorld: world,
                    purpose: visit.purpose, isInvisible: visit.isInvisible))
            }
        }
    }

    /// The node at a path such as `/Root/Head`, or nil.
    public func node(at path: String) -> Node? {
        var current = root
        for name in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let next = current.children.first(where: { $0.name == name }) else { return nil }
            current = next
        }
        return path.isEmpty ? nil : current
    }

    /// Every mesh instance with the world transform it is placed by, in traversal order.
    public func placedMeshes(includingUncounted: Bool = false) -> [PlacedMesh] {
        placed(includingUncounted) { node, visit, placed in
            for instance in node.meshInstances where meshes.indices.contains(instance.mesh) {
                placed.append(PlacedMesh(instance: instance, nodePath: visit.path, worldTransform: visit.worldTransform))
            }
        }
    }

    /// Every curves instance with the world transform it is placed by, in traversal order.
    public func placedCurves(includingUncounted: Bool = false) -> [PlacedCurves] {
        placed(includingUncounted) { node, visit, placed in
            for instance in node.curvesInstances where curves.indices.contains(instance.curves) {
                placed.append(PlacedCurves(instance: instance, nodePath: visit.path, worldTransform: visit.worldTransform))
            }
        }
    }

    /// Every splat instance with the world transform it is placed by, in traversal order.
    public func placedSplats(includingUncounted: Bool = false) -> [PlacedSplats] {
        placed(includingUncounted) { node, visit, placed in
            for instance in node.splatInstances where splats.indices.contains(instance.splats) {
                placed.append(PlacedSplats(instance: instance, nodePath: visit.path, worldTransform: visit.worldTransform))
            }
        }
    }

    /// What `collect` appends for each node the traversal counts (or for every node), in order.
    private func placed<T>(_ includingUncounted: Bool, _ collect: (Node, NodeVisit, inout [T]) -> Void) -> [T] {
        var placed: [T] = []
        forEachNode { node, visit in
            guard includingUncounted || visit.isCounted else { return }
            collect(node, visit, &placed)
        }
        return placed
    }
}

/// Curves at their place in the world.
public struct PlacedCurves: Sendable {
    public var instance: CurvesInstance
    public var nodePath: String
    public var worldTransform: Matrix4x4
}

/// A splat set at its place in the world.
public struct PlacedSplats: Sendable {
    public var instance: SplatInstance
    public var nodePath: String
    public var worldTransform: Matrix4x4
}

/// A mesh instance at its place in the world.
public struct PlacedMesh: Sendable {
    public var instance: MeshInstance
    public var nodePath: String
    public var worldTransform: Matrix4x4
}

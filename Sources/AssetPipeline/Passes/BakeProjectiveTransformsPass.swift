import AssetCore

/// For formats whose readers take node matrices as affine (glTF requires it; Collada readers
/// ignore the bottom row): a node with a projective transform has it, and every transform below
/// it, baked into copies of its geometry the way usd-core places points (divided by w), and those
/// transforms become identity. Nodes above keep their own. USD writers keep the matrix as it is.
public struct BakeProjectiveTransformsPass: ScenePass {
    public let name = "bake projective transforms"

    public init() {}

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        var baked: [String] = []
        for i in scene.root.children.indices {
            Self.visit(&scene.root.children[i], path: "/" + scene.root.children[i].name, scene: &scene.meshes,
                       curves: &scene.curves, baked: &baked)
        }
        if !baked.isEmpty {
            Self.dropUnplaced(&scene)
            let list = baked.prefix(5).joined(separator: ", ") + (baked.count > 5 ? ", ..." : "")
            diagnostics.append(.warning("the target format has affine transforms only: \(baked.count) projective transforms baked into their geometry (\(list))"))
        }
    }

    private static func visit(_ node: inout Node, path: String, scene meshes: inout [Mesh], curves: inout [Curves], baked: inout [String]) {
        if !node.transform.isAffine {
            baked.append(path)
            bake(&node, above: .identity, meshes: &meshes, curves: &curves)
            return
        }
        for i in node.children.indices {
            visit(&node.children[i], path: path + "/" + node.children[i].name, scene: &meshes, curves: &curves, baked: &baked)
        }
    }

    /// Leaves out meshes and curves no node places any more (the originals of baked copies), so
    /// writers do not write them.
    private static func dropUnplaced(_ scene: inout Scene) {
        var meshUsed = [Bool](repeating: false, count: scene.meshes.count)
        var curvesUsed = [Bool](repeating: false, count: scene.curves.count)
        scene.forEachNode { node, _ in
            for instance in node.meshInstances where meshUsed.indices.contains(instance.mesh) { meshUsed[instance.mesh] = true }
            for instance in node.curvesInstances where curvesUsed.indices.contains(instance.curves) { curvesUsed[instance.curves] = true }
        }
        var meshIndex = [Int](repeating: -1, count: scene.meshes.count), curvesIndex = [Int](repeating: -1, count: scene.curves.count)
        var meshes: [Mesh] = [], curves: [Curves] = []
        for (i, used) in meshUsed.enumerated() where used { meshIndex[i] = meshes.count; meshes.append(scene.meshes[i]) }
        for (i, used) in curvesUsed.enumerated() where used { curvesIndex[i] = curves.count; curves.append(scene.curves[i]) }
        func remap(_ node: inout Node) {
            for k in node.meshInstances.indices where meshIndex.indices.contains(node.meshInstances[k].mesh) {
                node.meshInstances[k].mesh = meshIndex[node.meshInstances[k].mesh]
            }
            for k in node.curvesInstances.indices where curvesIndex.indices.contains(node.curvesInstances[k].curves) {
                node.curvesInstances[k].curves = curvesIndex[node.curvesInstances[k].curves]
            }
            for i in node.children.indices { remap(&node.children[i]) }
        }
        remap(&scene.root)
        scene.meshes = meshes
        scene.curves = curves
    }

    /// Moves `node`'s transform (after `above`, the baked transforms of its ancestors in this
    /// subtree) into new copies of its meshes and curves, then does the same below it.
    private static func bake(_ node: inout Node, above: Matrix4x4, meshes: inout [Mesh], curves: inout [Curves]) {
        let matrix = node.resetsTransformStack ? node.transform : above * node.transform
        node.transform = .identity
        for k in node.meshInstances.indices where meshes.indices.contains(node.meshInstances[k].mesh) {
            var copy = meshes[node.meshInstances[k].mesh]
            copy.transform(by: matrix)
            // A mirroring bake flips the winding; left-handed orientation already says which way faces turn.
            if matrix.linearDeterminant < 0 { copy = copy.reversingWinding() }
            meshes.append(copy)
            node.meshInstances[k].mesh = meshes.count - 1
        }
        for k in node.curvesInstances.indices where curves.indices.contains(node.curvesInstances[k].curves) {
            var copy = curves[node.curvesInstances[k].curves]
            copy.points = matrix.transformedPoints(copy.points)
            curves.append(copy)
            node.curvesInstances[k].curves = curves.count - 1
        }
        for i in node.children.indices { bake(&node.children[i], above: matrix, meshes: &meshes, curves: &curves) }
    }
}

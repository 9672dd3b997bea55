import Foundation

import AssetCore

/// Bakes every placed mesh, curves and splat set into world space (splats turned with their
/// spherical harmonics, `SplatSet.transformed`): one top-level node per instance (named by
/// its node's path), identity transforms, points and normals transformed, mirrored instances re-wound,
/// left-handed meshes turned right-handed. For formats without a hierarchy (OBJ, STL, PLY) or on
/// request (`--flatten`). Nodes outside the counted geometry (guides, proxies, invisible) are left out.
public struct FlattenPass: ScenePass {
    public let name = "flatten"

    public init() {}

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        var meshes: [Mesh] = []
        var nodes: [Node] = []
        var usedNames: [String: Int] = [:]
        for placed in scene.placedMeshes() {
            var mesh = Self.bake(scene.meshes[placed.instance.mesh], placed.worldTransform)
            mesh.name = scene.meshes[placed.instance.mesh].name
            meshes.append(mesh)
            let name = Self.flatName(placed.nodePath, fallback: mesh.name, used: &usedNames)
            var instance = placed.instance
            instance.mesh = meshes.count - 1
            nodes.append(Node(name: name, typeName: "Mesh", meshInstances: [instance]))
        }
        var curves: [Curves] = []
        for placed in scene.placedCurves() {
            var baked = scene.curves[placed.instance.curves]
            baked.points = placed.worldTransform.transformedPoints(baked.points)
            curves.append(baked)
            var node = Node(name: Self.flatName(placed.nodePath, fallback: baked.name, used: &usedNames), typeName: "BasisCurves")
            node.curvesInstances = [CurvesInstance(curves: curves.count - 1, material: placed.instance.material)]
            nodes.append(node)
        }
        var splats: [SplatSet] = []
        for placed in scene.placedSplats() {
            let baked = scene.splats[placed.instance.splats].transformed(by: placed.worldTransform)
            splats.append(baked)
            var node = Node(name: Self.flatName(placed.nodePath, fallback: baked.name, used: &usedNames), typeName: "ParticleField3DGaussianSplat")
            node.splatInstances = [SplatInstance(splats: splats.count - 1)]
            nodes.append(node)
        }
        scene.meshes = meshes
        scene.curves = curves
        scene.splats = splats
        scene.root = Node(name: "", children: nodes)
    }

    /// `/Ship/Mast` as `Ship_Mast`, made unique with `_2`, `_3`... among the flattened nodes.
    static func flatName(_ path: String, fallback: String, used: inout [String: Int]) -> String {
        var name = String(path.dropFirst()).replacingOccurrences(of: "/", with: "_")
        if name.isEmpty { name = fallback }
        let seen = used[name, default: 0] + 1
        used[name] = seen
        return seen > 1 ? name + "_\(seen)" : name
    }

    static func bake(_ source: Mesh, _ world: Matrix4x4) -> Mesh {
        var mesh = source
        mesh.transform(by: world)
        // A mirroring transform flips the winding; so does left-handed orientation. Two flips cancel.
        let mirrored = world.linearDeterminant < 0
        if mirrored != (mesh.orientation == .leftHanded) { mesh = mesh.reversingWinding() }
        mesh.orientation = .rightHanded
        return mesh
    }
}

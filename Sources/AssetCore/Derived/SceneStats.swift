/// The figures `assetc info` and the catalog report. Geometry figures are summed over mesh instances
/// placed in the world (an instanced mesh counts once per placement) and over counted nodes only
/// (see `NodeVisit.isCounted`). Authored meshes and tessellated intrinsic shapes are kept apart,
/// because usd-core's figures count authored Mesh prims only.
public struct SceneStats: Sendable, Equatable, Codable {
    /// Every node below the pseudo-root.
    public var nodes = 0
    /// Authored mesh instances.
    public var meshes = 0
    public var points = 0
    public var faces = 0
    /// Sum of (n - 2) over faces of n >= 3 vertices.
    public var triangles = 0
    /// Instances of tessellated intrinsic shapes (USD Cube, Sphere, ...).
    public var primitives = 0
    /// Placed curves (each polyline once per placement) and the line segments they draw.
    public var curves = 0
    public var segments = 0
    public var materials = 0
    public var textures = 0
    public var cameras = 0
    public var lights = 0

    public init() {}
}

extension Scene {
    public var stats: SceneStats {
        var stats = SceneStats()
        stats.materials = materials.count
        stats.textures = textures.count
        stats.cameras = cameras.count
        stats.lights = lights.count
        // Triangle counts are per mesh; cache them so a mesh instanced many times is summed once.
        var triangleCounts = [Int?](repeating: nil, count: meshes.count)
        forEachNode { node, visit in
            stats.nodes += 1
            guard visit.isCounted else { return }
            for instance in node.curvesInstances where curves.indices.contains(instance.curves) {
                stats.curves += curves[instance.curves].curveVertexCounts.count
                stats.segments += curves[instance.curves].segmentCount
            }
            for instance in node.meshInstances where meshes.indices.contains(instance.mesh) {
                let mesh = meshes[instance.mesh]
                guard mesh.origin.isAuthored else {
                    stats.primitives += 1
                    continue
                }
                stats.meshes += 1
                stats.points += mesh.points.count
                stats.faces += mesh.faceVertexCounts.count
                if triangleCounts[instance.mesh] == nil { triangleCounts[instance.mesh] = mesh.triangleCount }
                stats.triangles += triangleCounts[instance.mesh]!
            }
        }
        return stats
    }
}

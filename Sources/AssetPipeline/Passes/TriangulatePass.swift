import AssetCore

/// Replaces every mesh's polygons by its triangulation (fans for convex faces, ear clipping for
/// concave ones), carrying faceVarying and uniform primvars and subsets along.
public struct TriangulatePass: ScenePass {
    public let name = "triangulate"
    /// When the target format demands triangles (rather than the user asking), the format's name:
    /// one warning then says how many polygons were split.
    public var requiredBy: String?

    public init(requiredBy: String? = nil) {
        self.requiredBy = requiredBy
    }

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        if let requiredBy {
            let polygons = scene.meshes.reduce(0) { $0 + $1.faceVertexCounts.filter { $0 > 3 }.count }
            if polygons > 0 {
                diagnostics.append(.warning("\(requiredBy) holds triangles only: \(polygons) polygons with more than 3 vertices were triangulated"))
            }
        }
        for i in scene.meshes.indices {
            let mesh = scene.meshes[i]
            let triangulation = mesh.triangulated()
            // Already triangles, none degenerate: nothing to change.
            if triangulation.droppedFaces == 0 && !mesh.faceVertexCounts.contains(where: { $0 != 3 }) { continue }
            if triangulation.droppedFaces > 0 {
                let lost = mesh.triangleCount - triangulation.triangleCount
                diagnostics.append(.warning("mesh \(mesh.name): \(triangulation.droppedFaces) degenerate faces (\(lost) triangles) dropped while triangulating"))
            }
            scene.meshes[i] = mesh.remappingCorners(
                triangulation.corners, counts: Array(repeating: 3, count: triangulation.triangleCount),
                newFaceSources: triangulation.faces.map { Int32($0) })
        }
    }
}

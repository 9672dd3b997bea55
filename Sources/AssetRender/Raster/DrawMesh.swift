import AssetCore

/// One mesh made ready to draw: vertex buffers and a triangle list, with the material each
/// triangle uses. Contiguous arrays, no per-triangle objects. Built once per mesh in the mesh's
/// own space (`init(mesh:)`), then placed per instance (`placed`), so a mesh drawn a thousand
/// times is triangulated and unwelded once and only one placed copy exists at a time.
struct DrawMesh {
    var positions: [SIMD3<Float>]
    var normals: [SIMD3<Float>]
    /// Per vertex, the texture coordinates of the set the triangle's material samples (set 0 if none).
    var texcoords: [[SIMD2<Float>]]
    var colors: [SIMD4<Float>]?
    var indices: [UInt32]
    /// The source face of each triangle.
    var triangleFaces: [UInt32]
    /// Material index per triangle, -1 for none; set by `placed`.
    var triangleMaterials: [Int32] = []

    init(mesh: Mesh) {
        let triangulation = mesh.triangulated()
        var source = mesh
        if source.normals == nil {
            source.primvars.append(Primvar(name: Primvar.normalsName, interpolation: .vertex,
                                           values: .float3(mesh.smoothNormals()), role: .normal))
        }
        let unwelded = source.unwelded(corners: triangulation.corners)
        positions = unwelded.positions
        normals = unwelded.normals ?? []
        if normals.count != positions.count { normals = Array(repeating: SIMD3(0, 1, 0), count: positions.count) }
        texcoords = unwelded.texcoords
        colors = unwelded.colors
        indices = unwelded.indices
        triangleFaces = triangulation.faces
    }

    /// This mesh in world space with the instance's materials.
    func placed(_ mesh: Mesh, instance: MeshInstance, world: Matrix4x4) -> DrawMesh {
        var copy = self
        copy.positions = world.transformedPoints(positions)
        copy.normals = world.transformedNormals(normals) ?? normals
        // Subsets bind their own materials; other faces take the instance's.
        var faceMaterial = [Int32](repeating: Int32(instance.material ?? -1), count: mesh.faceVertexCounts.count)
        for (s, subset) in mesh.subsets.enumerated() where s < instance.subsetMaterials.count {
            guard let m = instance.subsetMaterials[s] else { continue }
            for f in subset.faceIndices { faceMaterial[Int(f)] = Int32(m) }
        }
        copy.triangleMaterials = triangleFaces.map { faceMaterial[Int($0)] }
        return copy
    }

    var triangleCount: Int { indices.count / 3 }
}

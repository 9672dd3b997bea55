import AssetCore

/// One placed mesh made ready to draw: world-space vertex buffers and a triangle list, with the
/// material each triangle uses. Contiguous arrays, no per-triangle objects.
struct DrawMesh {
    var positions: [SIMD3<Float>]
    var normals: [SIMD3<Float>]
    /// Per vertex, the texture coordinates of the set the triangle's material samples (set 0 if none).
    var texcoords: [[SIMD2<Float>]]
    var colors: [SIMD4<Float>]?
    var indices: [UInt32]
    /// Material index per triangle, -1 for none.
    var triangleMaterials: [Int32]

    init(mesh: Mesh, instance: MeshInstance, world: Matrix4x4) {
        let triangulation = mesh.triangulated()
        var source = mesh
        if source.normals == nil {
            source.primvars.append(Primvar(name: Primvar.normalsName, interpolation: .vertex,
                                           values: .float3(mesh.smoothNormals()), role: .normal))
        }
        let unwelded = source.unwelded(corners: triangulation.corners)
        positions = world.transformedPoints(unwelded.positions)
        let sourceNormals = unwelded.normals ?? []
        normals = world.transformedNormals(sourceNormals) ?? sourceNormals
        if normals.count != positions.count { normals = Array(repeating: SIMD3(0, 1, 0), count: positions.count) }
        texcoords = unwelded.texcoords
        colors = unwelded.colors
        indices = unwelded.indices
        // Subsets bind their own materials; other faces take the instance's.
        var faceMaterial = [Int32](repeating: Int32(instance.material ?? -1), count: mesh.faceVertexCounts.count)
        for (s, subset) in mesh.subsets.enumerated() where s < instance.subsetMaterials.count {
            guard let m = instance.subsetMaterials[s] else { continue }
            for f in subset.faceIndices { faceMaterial[Int(f)] = Int32(m) }
        }
        triangleMaterials = triangulation.faces.map { faceMaterial[Int($0)] }
    }

    var triangleCount: Int { indices.count / 3 }
}

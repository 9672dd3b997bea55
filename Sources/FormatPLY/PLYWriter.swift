import AssetCore

/// Binary little-endian PLY: one vertex element (position, and normals, the first texture
/// coordinate set and colours when the meshes have them) and one face element. Triangulated:
/// PLY's face lists could hold n-gons, but common readers (trimesh among them) only load faces of
/// one size. World space (the converter flattens first), all meshes in one file. A scene with
/// splats is written as a 3DGS PLY instead (`PLYSplatWriter`).
public struct PLYWriter: SceneWriter {
    public let format = AssetFormat.ply
    public let requirements = WriterRequirements(triangles: true, flattened: true, keepsSplats: true)

    public init() {}

    public func write(_ scene: Scene, context: WriteContext) throws(AssetError) -> WriteResult {
        if !scene.splats.isEmpty { return try PLYSplatWriter.write(scene, context: context) }
        let hasNormals = !scene.meshes.isEmpty && scene.meshes.allSatisfy { $0.normals != nil }
        let hasTexcoords = !scene.meshes.isEmpty && scene.meshes.allSatisfy { !$0.texcoordSets.isEmpty }
        let hasColors = !scene.meshes.isEmpty && scene.meshes.allSatisfy { $0.primvar(named: Primvar.displayColorName) != nil }
        var parts: [(UnweldedMesh, [Int32])] = []
        for mesh in scene.meshes {
            let corners = (0..<UInt32(mesh.faceVertexIndices.count)).map { $0 }
            let sets = hasTexcoords ? [mesh.texcoordSets[0]] : []
            var stripped = mesh
            if !hasNormals { stripped.primvars.removeAll { $0.name == Primvar.normalsName } }
            if !hasColors { stripped.primvars.removeAll { $0.name == Primvar.displayColorName } }
            parts.append((stripped.unwelded(corners: corners, texcoordSets: sets), mesh.faceVertexCounts))
        }
        let vertexCount = parts.reduce(0) { $0 + $1.0.positions.count }
        let faceCount = parts.reduce(0) { $0 + $1.1.count }
        var header = "ply\nformat binary_little_endian 1.0\ncomment written by assetc\n"
        header += "element vertex \(vertexCount)\nproperty float x\nproperty float y\nproperty float z\n"
        if hasNormals { header += "property float nx\nproperty float ny\nproperty float nz\n" }
        if hasTexcoords { header += "property float s\nproperty float t\n" }
        if hasColors { header += "property uchar red\nproperty uchar green\nproperty uchar blue\nproperty uchar alpha\n" }
        header += "element face \(faceCount)\nproperty list uchar int vertex_indices\nend_header\n"
        var out = ByteWriter()
        out.append(header)
        for (mesh, _) in parts {
            for i in mesh.positions.indices {
                let p = mesh.positions[i]
                out.f32(p.x); out.f32(p.y); out.f32(p.z)
                if hasNormals, let n = mesh.normals?[i] { out.f32(n.x); out.f32(n.y); out.f32(n.z) }
                if hasTexcoords { out.f32(mesh.texcoords[0][i].x); out.f32(mesh.texcoords[0][i].y) }
                if hasColors, let c = mesh.colors?[i] {
                    for v in [c.x, c.y, c.z, c.w] { out.u8(UInt8(max(0, min(255, (v * 255).rounded())))) }
                }
            }
        }
        var base: UInt32 = 0
        for (mesh, counts) in parts {
            var corner = 0
            for count in counts {
                guard count <= 255 else {
                    throw AssetError(.limitExceeded("a face of \(count) vertices does not fit PLY's uchar vertex count"))
                }
                out.u8(UInt8(count))
                for _ in 0..<Int(count) { out.u32(mesh.indices[corner] + base); corner += 1 }
            }
            base += UInt32(mesh.positions.count)
        }
        let warnings = scene.droppedContentWarnings(format: "PLY", keepsMaterials: false, keepsTexcoordSets: hasTexcoords ? 1 : 0,
                                                    keepsNormals: hasNormals, keepsColors: hasColors)
        return WriteResult(files: [OutputFile(relativePath: context.outputName, bytes: out.bytes)], diagnostics: warnings)
    }
}

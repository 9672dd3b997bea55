extension Mesh {
    /// For every corner of `faceVertexIndices`, the index into `primvar.values` it takes, whatever
    /// the primvar's interpolation and indexing. Formats with per-corner indices (OBJ, Collada)
    /// write these directly.
    public func cornerElementIndices(of primvar: Primvar) -> [Int32] {
        let faces = primvar.interpolation == .uniform ? cornerFaces() : []
        return (0..<faceVertexIndices.count).map { corner in
            let element: Int
            switch primvar.interpolation {
            case .constant: element = 0
            case .uniform: element = Int(faces[corner])
            case .vertex, .varying: element = Int(faceVertexIndices[corner])
            case .faceVarying: element = corner
            }
            return primvar.indices.map { $0[element] } ?? Int32(element)
        }
    }
}

extension Scene {
    /// Warnings for what a format cannot hold, one per kind of content present.
    public func droppedContentWarnings(format: String, keepsMaterials: Bool, keepsTexcoordSets: Int,
                                       keepsNormals: Bool, keepsColors: Bool) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        if !keepsMaterials && !materials.isEmpty { warnings.append(.warning("\(format) holds no materials: \(materials.count) dropped")) }
        let sets = meshes.map { $0.texcoordSets.count }.max() ?? 0
        if sets > keepsTexcoordSets {
            warnings.append(.warning(keepsTexcoordSets == 0 ? "\(format) holds no texture coordinates: dropped"
                                     : "\(format) holds \(keepsTexcoordSets) texture coordinate set(s): \(sets - keepsTexcoordSets) more dropped"))
        }
        if !keepsNormals && meshes.contains(where: { $0.normals != nil }) { warnings.append(.warning("\(format) holds no vertex normals: dropped")) }
        if !keepsColors && meshes.contains(where: { $0.primvar(named: Primvar.displayColorName) != nil }) {
            warnings.append(.warning("\(format) holds no vertex colours: dropped"))
        }
        if !cameras.isEmpty || !lights.isEmpty { warnings.append(.warning("\(format) output holds no cameras or lights: \(cameras.count + lights.count) dropped")) }
        return warnings
    }
}

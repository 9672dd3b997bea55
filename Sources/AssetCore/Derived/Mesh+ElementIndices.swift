extension Mesh {
    /// For each corner of `faceVertexIndices`, the index into `primvar.values` it takes.
    public func cornerElementIndices(of primvar: Primvar) -> [Int32] {
        valueIndices(of: primvar, corners: nil).map { Int32(bitPattern: $0) }
    }

    /// For each of `corners` (positions in `faceVertexIndices`; nil: every corner in order), the
    /// index into `primvar.values` it takes. The interpolation is decided once, outside the loop,
    /// so this is one pass over contiguous buffers. A per-point primvar without indices gives back
    /// the point indices themselves.
    public func valueIndices(of primvar: Primvar, corners: [UInt32]?) -> [UInt32] {
        let count = corners?.count ?? faceVertexIndices.count
        // The element each corner names, before the primvar's own indices apply.
        let elements: [UInt32]
        switch primvar.interpolation {
        case .constant:
            elements = [UInt32](repeating: 0, count: count)
        case .uniform:
            let faces = cornerFaces()
            elements = Self.gather(faces, at: corners)
        case .vertex, .varying:
            elements = Self.gather(faceVertexIndices, at: corners)
        case .faceVarying:
            elements = corners ?? (0..<UInt32(count)).map { $0 }
        }
        guard let indices = primvar.indices else { return elements }
        return indices.withUnsafeBufferPointer { indices in elements.map { UInt32(bitPattern: indices[Int($0)]) } }
    }

    private static func gather(_ values: [Int32], at corners: [UInt32]?) -> [UInt32] {
        values.withUnsafeBufferPointer { values in
            guard let corners else { return values.map { UInt32(bitPattern: $0) } }
            return corners.map { UInt32(bitPattern: values[Int($0)]) }
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

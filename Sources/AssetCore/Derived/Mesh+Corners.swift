extension Mesh {
    /// The mesh with its corners re-ordered or re-selected: `corners[k]` is the old corner that
    /// becomes new corner k, `counts` the new faces' sizes and `faceOfCorner` the old face each
    /// new face came from (for uniform data and subsets). faceVarying primvars follow their
    /// corners through indices, uniform ones their faces; the values themselves are not copied.
    public func remappingCorners(_ corners: [UInt32], counts: [Int32], newFaceSources: [Int32]) -> Mesh {
        var mesh = self
        mesh.faceVertexCounts = counts
        mesh.faceVertexIndices = faceVertexIndices.withUnsafeBufferPointer { old in corners.map { old[Int($0)] } }
        for i in mesh.primvars.indices {
            let primvar = mesh.primvars[i]
            switch primvar.interpolation {
            case .faceVarying:
                mesh.primvars[i].indices = corners.map { corner in primvar.indices.map { $0[Int(corner)] } ?? Int32(corner) }
            case .uniform:
                mesh.primvars[i].indices = newFaceSources.map { face in primvar.indices.map { $0[Int(face)] } ?? face }
            default:
                break
            }
        }
        if !subsets.isEmpty {
            var newFaces: [Int32: [Int32]] = [:]
            for (new, old) in newFaceSources.enumerated() { newFaces[old, default: []].append(Int32(new)) }
            mesh.subsets = subsets.map { subset in
                GeomSubset(name: subset.name, faceIndices: subset.faceIndices.flatMap { newFaces[$0] ?? [] })
            }
        }
        return mesh
    }

    /// The same surface wound the other way: every face's corners reversed (first corner kept).
    public func reversingWinding() -> Mesh {
        var corners: [UInt32] = []
        corners.reserveCapacity(faceVertexIndices.count)
        var offset = 0
        for count in faceVertexCounts.map(Int.init) {
            if count > 0 {
                corners.append(UInt32(offset))
                for k in stride(from: count - 1, through: 1, by: -1) { corners.append(UInt32(offset + k)) }
            }
            offset += max(count, 0)
        }
        return remappingCorners(corners, counts: faceVertexCounts, newFaceSources: (0..<Int32(faceVertexCounts.count)).map { $0 })
    }
}

import AssetCore

/// Turns one parsed group into a mesh: the positions, texcoords and normals it uses, compacted
/// in first-use order through one scratch table shared by every group (so many small groups in a
/// large file cost their own size, not the file's).
struct OBJMeshAssembler {
    let parser: OBJParser
    private var scratch: [Int32] = []

    init(parser: OBJParser) { self.parser = parser }

    /// Global indices as local ones, and the global elements used, in first-use order; nil when
    /// the group uses every element, so the file's own numbering serves as it is (the common
    /// one-object file pays no remapping and no copies).
    ///
    /// The parser resolved every index into `0..<count`, so the loops index without checks: they
    /// run over every corner of the file (3M for a 1M-triangle mesh, three streams).
    private mutating func compact(_ indices: [Int32], count: Int) -> (local: [Int32], used: [Int32])? {
        var distinct = 0
        withUnsafeTemporaryAllocation(of: Bool.self, capacity: count) { seen in
            seen.initialize(repeating: false)
            indices.withUnsafeBufferPointer { all in
                for g in all where !seen[Int(g)] { seen[Int(g)] = true; distinct += 1 }
            }
        }
        if distinct == count { return nil }
        if scratch.count < count { scratch = [Int32](repeating: -1, count: count) }
        var used: [Int32] = []
        used.reserveCapacity(distinct)
        HugePages.advise(&used)
        let local = scratch.withUnsafeMutableBufferPointer { table in
            [Int32](unsafeUninitializedCapacity: indices.count) { out, made in
                HugePages.advise(UnsafeMutableRawPointer(out.baseAddress), byteCount: indices.count * 4)
                indices.withUnsafeBufferPointer { all in
                    for (k, g) in all.enumerated() {
                        if table[Int(g)] < 0 { table[Int(g)] = Int32(used.count); used.append(g) }
                        out[k] = table[Int(g)]
                    }
                }
                made = indices.count
            }
        }
        for g in used { scratch[Int(g)] = -1 }
        return (local, used)
    }

    /// The distinct material ids of a group's faces, sorted: one pass that only compares while
    /// the faces share one material (the common case), and a table over the few ids otherwise.
    private func distinctMaterials(_ faceMaterials: [Int32]) -> [Int32] {
        guard let first = faceMaterials.first else { return [] }
        return faceMaterials.withUnsafeBufferPointer { all in
            guard let split = all.firstIndex(where: { $0 != first }) else { return [first] }
            // Ids run from inheritedMaterial (-2) to the last material name.
            let offset = Int(-OBJParser.inheritedMaterial)
            var present = [Bool](repeating: false, count: parser.materialNames.count + offset)
            present[Int(first) + offset] = true
            for id in all[split...] { present[Int(id) + offset] = true }
            return present.indices.filter { present[$0] }.map { Int32($0 - offset) }
        }
    }

    mutating func mesh(_ group: OBJParser.Group, name: String, at here: SourceLocation,
                       diagnostics: inout [Diagnostic]) -> (Mesh, [String?]) {
        var mesh = Mesh(name: name)
        let positions = compact(group.positions, count: parser.positions.count)
        mesh.points = positions.map { $0.used.map { parser.positions[Int($0)] } } ?? parser.positions
        mesh.faceVertexIndices = positions?.local ?? group.positions
        mesh.faceVertexCounts = group.faceSizes
        if !parser.colors.isEmpty {
            mesh.primvars.append(Primvar(name: Primvar.displayColorName, interpolation: .vertex,
                                         values: .float3(positions.map { $0.used.map { parser.colors[Int($0)] } } ?? parser.colors), role: .color))
        }
        for (stream, count, isTexcoord) in [(group.texcoords, parser.texcoords.count, true), (group.normals, parser.normals.count, false)] {
            let missing = stream.withUnsafeBufferPointer { all in all.reduce(0) { $0 + ($1 < 0 ? 1 : 0) } }
            guard missing < stream.count else { continue }
            var stream = stream
            var texcoords = parser.texcoords
            if missing > 0 {
                // A normal cannot be made up (the face's own would crease a smooth surface), so
                // normals on some faces only are dropped and recomputed; texture coordinates on
                // some faces only are kept and the rest get (0, 0), as Blender's importer does.
                guard isTexcoord else {
                    diagnostics.append(.warning("normals on some faces of \(name) only; dropped", at: here))
                    continue
                }
                diagnostics.append(.warning("texture coordinates on some faces of \(name) only; \(missing) corners get (0, 0)", at: here))
                texcoords.append(.zero)
                let zero = Int32(texcoords.count - 1)
                stream = stream.map { $0 < 0 ? zero : $0 }
            }
            let compacted = compact(stream, count: isTexcoord ? texcoords.count : count)
            let indices = compacted?.local ?? stream
            let values: PrimvarValues
            if let used = compacted?.used {
                values = isTexcoord ? .float2(used.map { texcoords[Int($0)] }) : .float3(used.map { parser.normals[Int($0)] })
            } else {
                values = isTexcoord ? .float2(texcoords) : .float3(parser.normals)
            }
            mesh.primvars.append(Primvar(name: isTexcoord ? "st" : Primvar.normalsName, interpolation: .faceVarying, values: values,
                                         indices: indices, role: isTexcoord ? .textureCoordinate : .normal))
        }
        // Material runs: one material binds the whole mesh, several become subsets.
        let distinct = distinctMaterials(group.faceMaterials)
        if distinct.count > 1 {
            var faces = [[Int32]](repeating: [], count: distinct.count)
            let slot = Dictionary(uniqueKeysWithValues: distinct.enumerated().map { ($1, $0) })
            for (face, id) in group.faceMaterials.enumerated() { faces[slot[id]!].append(Int32(face)) }
            for (id, indices) in zip(distinct, faces) {
                mesh.subsets.append(GeomSubset(name: id >= 0 ? parser.materialNames[Int(id)] : "unassigned", faceIndices: indices))
            }
        }
        let bound = (distinct.count > 1 ? distinct : Array(distinct.prefix(1))).map { id -> String? in id >= 0 ? parser.materialNames[Int(id)] : nil }
        return (mesh, bound)
    }
}

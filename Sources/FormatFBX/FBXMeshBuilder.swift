import AssetCore

/// A `Geometry: ..., "Mesh"` object as a Mesh: `Vertices`, `PolygonVertexIndex` (a negative index,
/// bitwise-negated, ends each polygon; n-gons kept) and the layer elements, each mapped by its
/// MappingInformationType (ByPolygonVertex -> faceVarying, ByVertice -> vertex, ByPolygon ->
/// uniform, AllSame -> constant, ByEdge -> faceVarying through `Edges`) and referenced Direct or
/// through its index array (IndexToDirect, Index). Per-polygon material indices come back for the
/// scene builder to make subsets of.
struct FBXMeshBuilder {
    let file: String
    let budget: ReadBudget

    struct Built {
        var mesh: Mesh
        /// The material slot of each polygon (LayerElementMaterial), nil when all use slot 0.
        var polygonMaterials: [Int32]?
        /// The UV set names in the order their primvars were named (`st`, `st1`, ...).
        var uvSets: [(fbxName: String, primvar: String)]
    }

    func build(_ geometry: FBXObject, name: String, diagnostics: inout [Diagnostic]) throws(AssetError) -> Built {
        let node = geometry.node
        let here = node.location
        func malformed(_ message: String) -> AssetError { AssetError(.malformed("geometry \(geometry.id) (\(geometry.name)): " + message), at: here) }
        guard let rawPoints = node.value("Vertices")?.doubles, rawPoints.count % 3 == 0 else {
            throw malformed("its Vertices are missing or not a multiple of three numbers")
        }
        guard let rawIndices = node.value("PolygonVertexIndex")?.int32s else { throw malformed("its PolygonVertexIndex is missing") }
        try budget.spend(work: rawIndices.count + rawPoints.count / 3, for: "FBX geometry \(geometry.id)", at: here)
        let pointCount = rawPoints.count / 3
        var points = [SIMD3<Float>](repeating: .zero, count: pointCount)
        rawPoints.withUnsafeBufferPointer { p in
            for i in 0..<pointCount { points[i] = SIMD3(Float(p[3 * i]), Float(p[3 * i + 1]), Float(p[3 * i + 2])) }
        }
        var counts: [Int32] = []
        var indices = [Int32](repeating: 0, count: rawIndices.count)
        var run: Int32 = 0
        try rawIndices.withUnsafeBufferPointer { (raw) throws(AssetError) in
            for (k, v) in raw.enumerated() {
                let index = v < 0 ? ~v : v
                guard index < pointCount else { throw malformed("polygon vertex \(k) names point \(index) of \(pointCount)") }
                indices[k] = index
                run += 1
                if v < 0 { counts.append(run); run = 0 }
            }
        }
        if run > 0 {
            counts.append(run)
            diagnostics.append(.warning("geometry \(geometry.name): the last polygon has no end marker; it was closed", at: here))
        }
        var mesh = Mesh(name: name, points: points, faceVertexCounts: counts, faceVertexIndices: indices)
        let edges = node.value("Edges")?.int32s
        var uvSets: [(String, String)] = []
        var polygonMaterials: [Int32]?
        var elementCounts: [String: Int] = [:]
        for layer in node.children where layer.name.hasPrefix("LayerElement") {
            let kind = String(layer.name.dropFirst("LayerElement".count))
            elementCounts[kind, default: 0] += 1
            let first = elementCounts[kind] == 1
            let setName = layer.value("Name")?.string ?? ""
            do throws(AssetError) {
                switch kind {
                case "Normal" where first:
                    if let p = try primvar(layer, values: "Normals", indexName: "NormalsIndex", width: 3, mesh: mesh, edges: edges) {
                        mesh.primvars.append(Primvar(name: Primvar.normalsName, interpolation: p.0, values: p.1, indices: p.2, role: .normal))
                    }
                case "Tangent" where first, "Binormal" where first:
                    if let p = try primvar(layer, values: kind == "Tangent" ? "Tangents" : "Binormals", indexName: kind == "Tangent" ? "TangentsIndex" : "BinormalsIndex",
                                           width: 3, mesh: mesh, edges: edges) {
                        mesh.primvars.append(Primvar(name: kind == "Tangent" ? "tangents" : "binormals", interpolation: p.0, values: p.1, indices: p.2, role: .vector))
                    }
                case "UV":
                    if let p = try primvar(layer, values: "UV", indexName: "UVIndex", width: 2, mesh: mesh, edges: edges) {
                        let primvarName = uvSets.isEmpty ? "st" : "st\(uvSets.count)"
                        uvSets.append((setName, primvarName))
                        mesh.primvars.append(Primvar(name: primvarName, interpolation: p.0, values: p.1, indices: p.2, role: .textureCoordinate))
                    }
                case "Color" where first:
                    if let p = try primvar(layer, values: "Colors", indexName: "ColorIndex", width: 4, mesh: mesh, edges: edges) {
                        mesh.primvars.append(Primvar(name: Primvar.displayColorName, interpolation: p.0, values: p.1, indices: p.2, role: .color))
                    }
                case "Material" where first:
                    polygonMaterials = try materials(layer, polygons: counts.count)
                case "Smoothing" where node.child("LayerElementNormal") != nil:
                    break  // the normals say what the smoothing groups would
                case "Smoothing", "Visibility", "EdgeCrease", "Hole", "PolygonGroup":
                    if first { diagnostics.append(.warning("geometry \(geometry.name): LayerElement\(kind) is not carried (normals are)", at: layer.location)) }
                default:
                    diagnostics.append(.warning("geometry \(geometry.name): a further LayerElement\(kind) (\(setName.isEmpty ? "unnamed" : setName)) is not carried", at: layer.location))
                }
            } catch {
                diagnostics.append(.warning("geometry \(geometry.name): LayerElement\(kind) left out: \(error.message)", at: layer.location))
            }
        }
        if let problem = mesh.topologyProblem() { throw malformed(problem) }
        for (index, problem) in mesh.primvarProblems().reversed() {
            diagnostics.append(.warning("geometry \(geometry.name): primvar \(mesh.primvars[index].name) left out: \(problem)", at: here))
            mesh.primvars.remove(at: index)
        }
        return Built(mesh: mesh, polygonMaterials: polygonMaterials, uvSets: uvSets)
    }

    /// One layer element as a primvar's interpolation, values and indices.
    private func primvar(_ layer: FBXNode, values valuesName: String, indexName: String, width: Int, mesh: Mesh,
                         edges: [Int32]?) throws(AssetError) -> (Primvar.Interpolation, PrimvarValues, [Int32]?)? {
        guard let raw = layer.value(valuesName)?.doubles else { return nil }
        guard raw.count % width == 0 else { throw AssetError(.malformed("\(valuesName) holds \(raw.count) numbers, not a multiple of \(width)"), at: layer.location) }
        let mapping = layer.value("MappingInformationType")?.string ?? "ByPolygonVertex"
        let reference = layer.value("ReferenceInformationType")?.string ?? "Direct"
        var indices: [Int32]?
        if reference == "IndexToDirect" || reference == "Index" {
            guard let given = layer.value(indexName)?.int32s else { throw AssetError(.malformed("\(reference) without \(indexName)"), at: layer.location) }
            let valueCount = raw.count / width
            if let bad = given.first(where: { $0 < -1 || Int($0) >= valueCount }) {
                throw AssetError(.malformed("\(indexName) names value \(bad) of \(valueCount)"), at: layer.location)
            }
            indices = given.map { max($0, 0) }  // -1 (no value) reads the first
            return try interpolated(mapping, raw: raw, width: width, indices: indices, mesh: mesh, edges: edges, layer: layer)
        }
        guard reference == "Direct" else { throw AssetError(.malformed("ReferenceInformationType \(reference) is not one FBX has"), at: layer.location) }
        return try interpolated(mapping, raw: raw, width: width, indices: nil, mesh: mesh, edges: edges, layer: layer)
    }

    private func interpolated(_ mapping: String, raw: [Double], width: Int, indices: [Int32]?, mesh: Mesh, edges: [Int32]?,
                              layer: FBXNode) throws(AssetError) -> (Primvar.Interpolation, PrimvarValues, [Int32]?) {
        let values = Self.values(raw, width: width)
        switch mapping {
        case "ByPolygonVertex": return (.faceVarying, values, indices)
        case "ByVertice", "ByVertex": return (.vertex, values, indices)
        case "ByPolygon": return (.uniform, values, indices)
        case "AllSame": return (.constant, values, indices.map { Array($0.prefix(1)) })
        case "ByEdge":
            // Each polygon corner takes the value of the edge that starts at it.
            guard let edges else { throw AssetError(.malformed("ByEdge mapping without the geometry's Edges"), at: layer.location) }
            let edgeOfCorner = Self.edgeOfCorner(edges, counts: mesh.faceVertexCounts, indices: mesh.faceVertexIndices)
            let perEdge = indices ?? Array(0..<Int32(values.count))
            let corner = edgeOfCorner.map { e in e >= 0 && Int(e) < perEdge.count ? perEdge[Int(e)] : 0 }
            return (.faceVarying, values, corner)
        default:
            throw AssetError(.malformed("MappingInformationType \(mapping) is not one FBX has"), at: layer.location)
        }
    }

    /// `Edges` lists each edge once, by the polygon-vertex index that starts it; every corner takes
    /// the edge from its point to the next corner's, whichever way round the listing polygon went.
    static func edgeOfCorner(_ edges: [Int32], counts: [Int32], indices: [Int32]) -> [Int32] {
        var next = [Int](repeating: 0, count: indices.count)
        var start = 0
        for count in counts {
            let n = Int(count)
            for k in 0..<n { next[start + k] = start + (k + 1) % n }
            start += n
        }
        func key(_ corner: Int) -> UInt64 {
            let a = UInt32(bitPattern: indices[corner]), b = UInt32(bitPattern: indices[next[corner]])
            return UInt64(min(a, b)) << 32 | UInt64(max(a, b))
        }
        var edgeOf: [UInt64: Int32] = [:]
        for (e, corner) in edges.enumerated() where corner >= 0 && Int(corner) < indices.count {
            if edgeOf[key(Int(corner))] == nil { edgeOf[key(Int(corner))] = Int32(e) }
        }
        return indices.indices.map { edgeOf[key($0)] ?? -1 }
    }

    /// Doubles as Float vectors of `width`, in one pass over contiguous memory.
    static func values(_ raw: [Double], width: Int) -> PrimvarValues {
        let n = raw.count / width
        return raw.withUnsafeBufferPointer { r -> PrimvarValues in
            switch width {
            case 2:
                var out = [SIMD2<Float>](repeating: .zero, count: n)
                for i in 0..<n { out[i] = SIMD2(Float(r[2 * i]), Float(r[2 * i + 1])) }
                return .float2(out)
            case 3:
                var out = [SIMD3<Float>](repeating: .zero, count: n)
                for i in 0..<n { out[i] = SIMD3(Float(r[3 * i]), Float(r[3 * i + 1]), Float(r[3 * i + 2])) }
                return .float3(out)
            default:
                var out = [SIMD4<Float>](repeating: .zero, count: n)
                for i in 0..<n {
                    let x = Float(r[4 * i]), y = Float(r[4 * i + 1]), z = Float(r[4 * i + 2]), w = Float(r[4 * i + 3])
                    out[i] = SIMD4(x, y, z, w)
                }
                return .float4(out)
            }
        }
    }

    /// LayerElementMaterial: the slot of each polygon (ByPolygon), or one slot for all (AllSame).
    private func materials(_ layer: FBXNode, polygons: Int) throws(AssetError) -> [Int32]? {
        guard let slots = layer.value("Materials")?.int32s else { return nil }
        let mapping = layer.value("MappingInformationType")?.string ?? "AllSame"
        if mapping == "AllSame" || slots.count == 1 {
            let slot = slots.first ?? 0
            return slot == 0 ? nil : [Int32](repeating: slot, count: polygons)
        }
        guard slots.count >= polygons else {
            throw AssetError(.malformed("LayerElementMaterial has \(slots.count) slots for \(polygons) polygons"), at: layer.location)
        }
        return Array(slots.prefix(polygons))
    }
}

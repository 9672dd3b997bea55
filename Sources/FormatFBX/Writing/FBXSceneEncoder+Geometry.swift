import AssetCore

/// A mesh as `Geometry::Mesh`: points, polygons as authored (a negative, bitwise-negated index ends
/// each polygon), `Edges`, and layer elements for normals (per polygon vertex, indexed), smoothing (per edge,
/// from the normals), every UV set by its name, vertex colours, tangents and per-polygon material
/// slots. Values stay indexed where the source indexes them (UVs and colours `IndexToDirect`).
extension FBXSceneEncoder {
    mutating func writeGeometry(_ index: Int, blendShapeWeights: [Float], bind: Matrix4x4) -> Int64 {
        var mesh = scene.meshes[index]
        if !bind.isIdentity {
            mesh.transform(by: bind)
            mesh.blendShapes = mesh.blendShapes.map { FBXSceneBuilder.transformed($0, by: bind) }
        }
        let id = newID()
        var points = [Double](repeating: 0, count: mesh.points.count * 3)
        for (k, p) in mesh.points.enumerated() { points[3 * k] = Double(p.x); points[3 * k + 1] = Double(p.y); points[3 * k + 2] = Double(p.z) }
        var polygonIndices = mesh.faceVertexIndices
        var corner = 0
        for count in mesh.faceVertexCounts {
            corner += Int(count)
            if count > 0 { polygonIndices[corner - 1] = ~polygonIndices[corner - 1] }
        }
        let edges = Self.edges(mesh)
        var children: [FBXRecord] = [FBXRecord("GeometryVersion", .int32(124)), FBXRecord("Vertices", .doubles(points)),
                                     FBXRecord("PolygonVertexIndex", .int32s(polygonIndices)), FBXRecord("Edges", .int32s(edges.firstCorners))]
        var layers: [[String]] = [[]]
        // Normals stay indexed (each distinct normal once, a corner naming its own), as Blender
        // writes them: a smooth mesh's per-corner normals would be six times the bytes.
        let normals = mesh.normals.flatMap { Self.cornerNormals($0, mesh: mesh) }
        if let normals {
            var flat = [Double](repeating: 0, count: normals.values.count * 3)
            for (k, n) in normals.values.enumerated() { flat[3 * k] = Double(n.x); flat[3 * k + 1] = Double(n.y); flat[3 * k + 2] = Double(n.z) }
            children.append(layer("Normal", index: 0, name: "", mapping: "ByPolygonVertex", reference: "IndexToDirect", version: 102,
                                  [FBXRecord("Normals", .doubles(flat)), FBXRecord("NormalsIndex", .int32s(normals.corners))]))
            layers[0].append("LayerElementNormal")
        }
        children.append(layer("Smoothing", index: 0, name: "", mapping: "ByEdge", reference: "Direct", version: 102,
                              [FBXRecord("Smoothing", .int32s(Self.smoothEdges(edges, normals: normals)))]))
        layers[0].append("LayerElementSmoothing")
        for (k, set) in mesh.texcoordSets.enumerated() {
            guard let (values, indices) = Self.cornerValues(set, mesh: mesh) else { continue }
            children.append(layer("UV", index: k, name: set.name, mapping: "ByPolygonVertex", reference: "IndexToDirect", version: 101,
                                  [FBXRecord("UV", .doubles(values)), FBXRecord("UVIndex", .int32s(indices))]))
            if k >= layers.count { layers.append([]) }
            layers[k].append("LayerElementUV")
        }
        if let colors = Self.colors(mesh) {
            children.append(layer("Color", index: 0, name: "Col", mapping: "ByPolygonVertex", reference: "IndexToDirect", version: 101,
                                  [FBXRecord("Colors", .doubles(colors.values)), FBXRecord("ColorIndex", .int32s(colors.indices))]))
            layers[0].append("LayerElementColor")
        }
        if let tangents = mesh.primvar(named: "tangents"), let corners = Self.cornerVectors(tangents, mesh: mesh) {
            var flat = [Double](repeating: 0, count: corners.count * 3)
            for (k, t) in corners.enumerated() { flat[3 * k] = Double(t.x); flat[3 * k + 1] = Double(t.y); flat[3 * k + 2] = Double(t.z) }
            children.append(layer("Tangent", index: 0, name: "", mapping: "ByPolygonVertex", reference: "Direct", version: 102,
                                  [FBXRecord("Tangents", .doubles(flat))]))
            layers[0].append("LayerElementTangent")
        }
        let slots = materialSlots(of: mesh)
        if slots.count > 1 {
            children.append(layer("Material", index: 0, name: "", mapping: "ByPolygon", reference: "IndexToDirect", version: 101,
                                  [FBXRecord("Materials", .int32s(Self.polygonSlots(mesh, slots: slots)))]))
        } else {
            children.append(layer("Material", index: 0, name: "", mapping: "AllSame", reference: "IndexToDirect", version: 101,
                                  [FBXRecord("Materials", .int32s([0]))]))
        }
        layers[0].append("LayerElementMaterial")
        for (k, elements) in layers.enumerated() {
            // Layer k holds the k-th element of each kind it lists.
            children.append(FBXRecord("Layer", .int32(Int32(k)), children: [FBXRecord("Version", .int32(100))] + elements.map { type in
                FBXRecord("LayerElement", children: [FBXRecord("Type", .string(type)), FBXRecord("TypedIndex", .int32(Int32(k)))])
            }))
        }
        add(FBXRecord("Geometry", .int64(id), FBXRecord.objectName(mesh.name, "Geometry"), .string("Mesh"), children: children), type: "Geometry")
        writeBlendShapes(of: mesh, index: index, geometry: id, weights: blendShapeWeights)
        return id
    }

    private func layer(_ kind: String, index: Int, name: String, mapping: String, reference: String, version: Int32,
                       _ data: [FBXRecord]) -> FBXRecord {
        FBXRecord("LayerElement" + kind, .int32(Int32(index)), children: [
            FBXRecord("Version", .int32(version)), FBXRecord("Name", .string(name)),
            FBXRecord("MappingInformationType", .string(mapping)), FBXRecord("ReferenceInformationType", .string(reference)),
        ] + data)
    }

    /// The material slots of a mesh's polygons: nil for faces in no subset (the instance's own
    /// material), then each subset; the nil slot is left out when every face is in a subset.
    func materialSlots(of mesh: Mesh) -> [Int?] {
        guard !mesh.subsets.isEmpty else { return [nil] }
        var covered = [Bool](repeating: false, count: mesh.faceCount)
        for subset in mesh.subsets {
            for f in subset.faceIndices where f >= 0 && Int(f) < covered.count { covered[Int(f)] = true }
        }
        return (covered.allSatisfy { $0 } ? [] : [nil]) + mesh.subsets.indices.map { Optional($0) }
    }

    static func polygonSlots(_ mesh: Mesh, slots: [Int?]) -> [Int32] {
        var out = [Int32](repeating: Int32(slots.firstIndex(where: { $0 == nil }) ?? 0), count: mesh.faceCount)
        for (s, subset) in mesh.subsets.enumerated() {
            guard let slot = slots.firstIndex(of: s) else { continue }
            for f in subset.faceIndices where f >= 0 && Int(f) < out.count { out[Int(f)] = Int32(slot) }
        }
        return out
    }

    /// Each edge once, by the polygon-vertex index that starts it, and for every corner the edge it starts.
    struct Edges {
        var firstCorners: [Int32]
        var edgeOfCorner: [Int32]
        /// For each edge, a corner of another polygon running along it (-1 on a border).
        var twinCorner: [Int32]
        var next: [Int32]
    }

    /// The corners grouped by the lower point of the edge they start (a counting sort: contiguous
    /// and linear, where hashing three million point pairs took a sixth of a large mesh's writing);
    /// within a point's group, corners with the same upper point share an edge. Edges are numbered
    /// by lower point; FBX asks only that each be listed once.
    static func edges(_ mesh: Mesh) -> Edges {
        let indices = mesh.faceVertexIndices
        let n = indices.count, pointCount = mesh.points.count
        var next = [Int32](repeating: 0, count: n)
        var start = 0
        for count in mesh.faceVertexCounts {
            let c = Int(count)
            for k in 0..<c { next[start + k] = Int32(start + (k + 1) % c) }
            start += c
        }
        var first: [Int32] = [], twin: [Int32] = []
        first.reserveCapacity(n / 2 + 1)
        twin.reserveCapacity(n / 2 + 1)
        var edgeOfCorner = [Int32](repeating: 0, count: n)
        var offsets = [Int32](repeating: 0, count: pointCount + 1)
        var order = [Int32](repeating: 0, count: n)
        indices.withUnsafeBufferPointer { idx in
            next.withUnsafeBufferPointer { nx in
                for c in 0..<n { offsets[Int(min(idx[c], idx[Int(nx[c])])) + 1] += 1 }
                for p in 0..<pointCount { offsets[p + 1] += offsets[p] }
                var fill = offsets
                for c in 0..<n {
                    let low = Int(min(idx[c], idx[Int(nx[c])]))
                    order[Int(fill[low])] = Int32(c)
                    fill[low] += 1
                }
                for p in 0..<pointCount {
                    let lo = Int(offsets[p]), hi = Int(offsets[p + 1])
                    for k in lo..<hi {
                        let c = Int(order[k])
                        let high = max(idx[c], idx[Int(nx[c])])
                        var shared: Int32 = -1
                        for j in lo..<k {
                            let other = Int(order[j])
                            if max(idx[other], idx[Int(nx[other])]) == high { shared = edgeOfCorner[other]; break }
                        }
                        if shared >= 0 {
                            edgeOfCorner[c] = shared
                            if twin[Int(shared)] < 0 { twin[Int(shared)] = Int32(c) }
                        } else {
                            edgeOfCorner[c] = Int32(first.count)
                            first.append(Int32(c))
                            twin.append(-1)
                        }
                    }
                }
            }
        }
        return Edges(firstCorners: first, edgeOfCorner: edgeOfCorner, twinCorner: twin, next: next)
    }

    /// 1 for a smooth edge, 0 for a hard one: an edge is hard where the two polygons beside it give
    /// either of its points different normals. Without normals every edge is hard, as assetc and
    /// the glTF rules draw a mesh without normals flat.
    static func smoothEdges(_ edges: Edges, normals: (values: [SIMD3<Float>], corners: [Int32])?) -> [Int32] {
        guard let normals else { return [Int32](repeating: 0, count: edges.firstCorners.count) }
        func same(_ a: Int32, _ b: Int32) -> Bool {
            let (i, j) = (normals.corners[Int(a)], normals.corners[Int(b)])
            if i == j { return true }
            let d = normals.values[Int(i)] - normals.values[Int(j)]
            return (d * d).sum() < 1e-6
        }
        var out = [Int32](repeating: 1, count: edges.firstCorners.count)
        for e in out.indices {
            let c = edges.firstCorners[e], t = edges.twinCorner[e]
            guard t >= 0 else { continue }
            let cNext = edges.next[Int(c)], tNext = edges.next[Int(t)]
            // The twin runs the other way round (b -> a) on consistently wound meshes.
            let smooth = same(c, tNext) && same(cNext, t) || same(c, t) && same(cNext, tNext)
            if !smooth { out[e] = 0 }
        }
        return out
    }

    /// A normal primvar's values and the one each corner takes (indices checked against the values).
    static func cornerNormals(_ primvar: Primvar, mesh: Mesh) -> (values: [SIMD3<Float>], corners: [Int32])? {
        guard case .float3(let values) = primvar.values, let corners = cornerIndices(primvar, mesh: mesh) else { return nil }
        return (values, corners)
    }

    /// A 3-component primvar's value at every polygon corner.
    static func cornerVectors(_ primvar: Primvar, mesh: Mesh) -> [SIMD3<Float>]? {
        let values: [SIMD3<Float>]
        switch primvar.values {
        case .float3(let v): values = v
        case .float4(let v): values = v.map { SIMD3($0.x, $0.y, $0.z) }
        default: return nil
        }
        guard let corners = cornerIndices(primvar, mesh: mesh) else { return nil }
        return corners.map { values[Int($0)] }
    }

    /// A primvar's values flattened, and the value each corner takes.
    static func cornerValues(_ primvar: Primvar, mesh: Mesh) -> ([Double], [Int32])? {
        guard let corners = cornerIndices(primvar, mesh: mesh) else { return nil }
        var flat: [Double] = []
        switch primvar.values {
        case .float(let v): flat = v.map(Double.init)
        case .float2(let v): flat.reserveCapacity(v.count * 2); for x in v { flat.append(Double(x.x)); flat.append(Double(x.y)) }
        case .float3(let v):
            flat.reserveCapacity(v.count * 3)
            for x in v { flat.append(Double(x.x)); flat.append(Double(x.y)); flat.append(Double(x.z)) }
        case .float4(let v):
            flat.reserveCapacity(v.count * 4)
            for x in v { flat.append(Double(x.x)); flat.append(Double(x.y)); flat.append(Double(x.z)); flat.append(Double(x.w)) }
        }
        return (flat, corners)
    }

    /// Which of the primvar's values each polygon corner takes (AssetCore's one pass over the
    /// corners), nil when a corner would name a value the primvar does not have.
    static func cornerIndices(_ primvar: Primvar, mesh: Mesh) -> [Int32]? {
        let corners = mesh.cornerElementIndices(of: primvar)
        let count = primvar.values.count
        return corners.contains(where: { $0 < 0 || Int($0) >= count }) ? nil : corners
    }

    /// `displayColor` with `displayOpacity` as RGBA values and the value each corner takes.
    static func colors(_ mesh: Mesh) -> (values: [Double], indices: [Int32])? {
        guard let color = mesh.primvar(named: Primvar.displayColorName), let corners = cornerIndices(color, mesh: mesh) else { return nil }
        let opacity = mesh.primvar(named: Primvar.displayOpacityName)
        let sameShape = opacity.map { $0.interpolation == color.interpolation && $0.indices == color.indices && $0.values.count == color.values.count } ?? false
        var alphas: [Float]?
        if sameShape, case .float(let a)? = opacity?.values { alphas = a }
        var flat: [Double] = []
        flat.reserveCapacity(color.values.count * 4)
        switch color.values {
        case .float3(let v):
            for (k, c) in v.enumerated() { flat.append(Double(c.x)); flat.append(Double(c.y)); flat.append(Double(c.z)); flat.append(Double(alphas?[k] ?? 1)) }
        case .float4(let v):
            for c in v { flat.append(Double(c.x)); flat.append(Double(c.y)); flat.append(Double(c.z)); flat.append(Double(c.w)) }
        default: return nil
        }
        return (flat, corners)
    }
}

import AssetCore

/// One glTF primitive as assetc's geometry: triangle modes (list, strip, fan; indexed or not) as a
/// `Mesh` with vertex-rate primvars, line modes as `Curves`, KHR_gaussian_splatting points as a
/// `SplatSet`, other points as a point cloud (a mesh of points and no faces).
/// Texture coordinates flip to USD's bottom-left origin (`v' = 1 - v`), as the writer flips them back.
struct GLTFMeshBuilder {
    let accessors: GLTFAccessorReader
    let file: String

    enum Built {
        case mesh(Mesh)
        case curves(Curves)
        case splats(SplatSet)
    }

    func build(_ primitive: GLTFAsset.Primitive, name: String, targetNames: [String]? = nil, at here: SourceLocation,
               diagnostics: inout [Diagnostic]) throws(AssetError) -> Built? {
        let mode = primitive.mode ?? 4
        guard let positionIndex = primitive.attributes["POSITION"] else {
            diagnostics.append(.warning("a primitive without POSITION has nothing to place; skipped", at: here))
            return nil
        }
        if mode == 0, let splatting = primitive.extensions?.KHR_gaussian_splatting {
            return .splats(try GLTFSplatBuilder(accessors: accessors).build(primitive, extension: splatting, name: name, at: here, diagnostics: &diagnostics))
        }
        guard (0...6).contains(mode) else { throw AssetError(.malformed("primitive mode \(mode) is not one glTF defines"), at: here) }
        var draco: GLTFDracoMesh?
        if let compressed = primitive.extensions?.KHR_draco_mesh_compression {
            guard mode == 4 else { throw AssetError(.malformed("Draco compresses triangle lists; this primitive has mode \(mode)"), at: here) }
            var described: [String: GLTFAsset.Accessor] = [:]
            for (name, _) in compressed.attributes {
                if let index = primitive.attributes[name], let accessor = accessors.described(index) { described[name] = accessor }
            }
            draco = try GLTFDracoMesh(bytes: try accessors.viewBytes(compressed.bufferView, at: here), attributeIDs: compressed.attributes,
                                      accessors: described, budget: accessors.budget, at: here, diagnostics: &diagnostics)
        }
        func fetch(_ name: String, _ index: Int, _ allowed: Set<Int>) throws(AssetError) -> (values: [Float], components: Int) {
            try attributeValues(name, index, allowed, draco: draco, at: here)
        }
        let points = draco == nil ? try accessors.vectors3(positionIndex, what: "POSITION")
                                  : Self.vectors3(try fetch("POSITION", positionIndex, [3]).values)
        // Vertex counts come from accessor counts, capped far below 2^31, so indices fit Int32.
        let order: [Int32]
        if let draco {
            if let bad = draco.indices.first(where: { Int($0) >= points.count }) {
                throw AssetError(.malformed("Draco index \(bad) is outside the \(points.count) points"), at: here)
            }
            order = draco.indices.map { Int32(bitPattern: $0) }
        } else if let indices = primitive.indices {
            order = try accessors.indices(indices, below: points.count)
        } else {
            guard points.count <= Int(Int32.max) else { throw AssetError(.limitExceeded("\(points.count) vertices in one primitive"), at: here) }
            order = Array(0..<Int32(points.count))
        }
        if mode == 1 || mode == 2 || mode == 3 { return .curves(curves(name: name, points: points, order: order, mode: mode, at: here, diagnostics: &diagnostics)) }

        var mesh = Mesh(name: name, points: points)
        // POINTS are a point cloud: a mesh of points and no faces, its attributes per point.
        mesh.faceVertexIndices = mode == 0 ? [] : triangles(order, mode: mode, at: here, diagnostics: &diagnostics)
        mesh.faceVertexCounts = [Int32](repeating: 3, count: mesh.faceVertexIndices.count / 3)
        var texcoordSets: [(Int, String)] = []
        for (attribute, index) in primitive.attributes.sorted(by: { $0.key < $1.key }) where attribute != "POSITION" {
            switch attribute {
            case "NORMAL":
                let normals = draco?.attribute(attribute) == nil ? try accessors.vectors3(index, what: attribute)
                                                                 : Self.vectors3(try fetch(attribute, index, [3]).values)
                mesh.primvars.append(Primvar(name: Primvar.normalsName, interpolation: .vertex, values: .float3(normals), role: .normal))
            case "TANGENT":
                let tangents = try fetch(attribute, index, [4])
                mesh.primvars.append(Primvar(name: "tangents", interpolation: .vertex, values: .float4(Self.vectors4(tangents.values)), role: .vector))
            case let name where name.hasPrefix("TEXCOORD_"):
                guard let set = Int(name.dropFirst("TEXCOORD_".count)), set >= 0 else { continue }
                let uv = try fetch(attribute, index, [2])
                var flipped = [SIMD2<Float>](repeating: .zero, count: uv.values.count / 2)
                for k in flipped.indices { flipped[k] = SIMD2(uv.values[2 * k], 1 - uv.values[2 * k + 1]) }
                texcoordSets.append((set, attribute))
                mesh.primvars.append(Primvar(name: Self.texcoordName(set), interpolation: .vertex, values: .float2(flipped), role: .textureCoordinate))
            case "COLOR_0":
                let colors = try fetch(attribute, index, [3, 4])
                let values: PrimvarValues = colors.components == 3 ? .float3(Self.vectors3(colors.values)) : .float4(Self.vectors4(colors.values))
                mesh.primvars.append(Primvar(name: Primvar.displayColorName, interpolation: .vertex, values: values, role: .color))
            case let name where name.hasPrefix("JOINTS_") || name.hasPrefix("WEIGHTS_"):
                continue  // read together below
            default:
                diagnostics.append(.warning("attribute \(attribute) is not kept", at: here))
            }
        }
        if mode == 0 {
            if primitive.indices != nil { mesh = mesh.selectingPoints(order) }
            // A point cloud holds no skin and no morph targets: said, not dropped silently.
            let skinned = primitive.attributes.keys.contains { $0.hasPrefix("JOINTS_") || $0.hasPrefix("WEIGHTS_") }
            if skinned || !(primitive.targets ?? []).isEmpty {
                diagnostics.append(.warning("the POINTS primitive's \(skinned ? "skin weights" : "morph targets") are not kept (a point cloud holds neither)", at: here))
            }
            return .mesh(mesh)
        }
        mesh.skinWeights = try skinWeights(primitive, pointCount: points.count, draco: draco, at: here, diagnostics: &diagnostics)
        mesh.blendShapes = try blendShapes(primitive, names: targetNames, pointCount: points.count, at: here, diagnostics: &diagnostics)
        if let problem = mesh.topologyProblem() { throw AssetError(.malformed(problem), at: here) }
        for (index, problem) in mesh.primvarProblems().reversed() {
            diagnostics.append(.warning("\(problem); dropped", at: here))
            mesh.primvars.remove(at: index)
        }
        return .mesh(mesh)
    }

    /// An attribute's values: from the Draco data when it holds it, else from its accessor.
    func attributeValues(_ name: String, _ index: Int, _ allowed: Set<Int>, draco: GLTFDracoMesh?,
                         at here: SourceLocation) throws(AssetError) -> (values: [Float], components: Int) {
        guard let decoded = draco?.attribute(name) else { return try accessors.floats(index, allowedComponents: allowed, what: name) }
        guard allowed.contains(decoded.components) else {
            throw AssetError(.malformed("Draco attribute \(name) has \(decoded.components) components"), at: here)
        }
        return decoded
    }

    /// glTF's TEXCOORD_n as the primvar names the other readers use: `st`, `st1`, `st2`...
    static func texcoordName(_ set: Int) -> String { set == 0 ? "st" : "st\(set)" }

    private func triangles(_ order: [Int32], mode: Int, at here: SourceLocation, diagnostics: inout [Diagnostic]) -> [Int32] {
        switch mode {
        case 4:
            if order.count % 3 != 0 {
                diagnostics.append(.warning("\(order.count) indices is not a whole number of triangles; the last \(order.count % 3) are ignored", at: here))
            }
            // A whole number of triangles is the list itself, shared, not copied.
            return order.count % 3 == 0 ? order : Array(order.prefix(order.count - order.count % 3))
        case 5:
            guard order.count >= 3 else { return [] }
            var out: [Int32] = []
            out.reserveCapacity((order.count - 2) * 3)
            for k in 0..<(order.count - 2) {
                // Every other strip triangle swaps its first two corners to keep the winding.
                let (a, b) = k % 2 == 0 ? (order[k], order[k + 1]) : (order[k + 1], order[k])
                out += [a, b, order[k + 2]]
            }
            return out
        default:
            guard order.count >= 3 else { return [] }
            var out: [Int32] = []
            out.reserveCapacity((order.count - 2) * 3)
            for k in 1..<(order.count - 1) {
                out += [order[0], order[k], order[k + 1]]
            }
            return out
        }
    }

    private func curves(name: String, points: [SIMD3<Float>], order: [Int32], mode: Int, at here: SourceLocation,
                        diagnostics: inout [Diagnostic]) -> Curves {
        var curves = Curves(name: name)
        switch mode {
        case 1:
            if order.count % 2 != 0 { diagnostics.append(.warning("an odd number of LINES indices; the last one is ignored", at: here)) }
            let usable = order.count - order.count % 2
            curves.points = order[..<usable].map { points[Int($0)] }
            curves.curveVertexCounts = [Int32](repeating: 2, count: usable / 2)
        default:
            guard order.count >= 2 else { return curves }
            curves.points = order.map { points[Int($0)] }
            if mode == 2 { curves.points.append(points[Int(order[0])]) }  // LINE_LOOP closes on its first vertex
            curves.curveVertexCounts = [Int32(curves.points.count)]
        }
        return curves
    }

    static func vectors3(_ v: [Float]) -> [SIMD3<Float>] {
        let n = v.count / 3
        return v.withUnsafeBufferPointer { f in
            [SIMD3<Float>](unsafeUninitializedCapacity: n) { out, initialized in
                for k in 0..<n { out[k] = SIMD3(f[3 * k], f[3 * k + 1], f[3 * k + 2]) }
                initialized = n
            }
        }
    }

    static func vectors4(_ v: [Float]) -> [SIMD4<Float>] {
        let n = v.count / 4
        return v.withUnsafeBufferPointer { f in
            [SIMD4<Float>](unsafeUninitializedCapacity: n) { out, initialized in
                for k in 0..<n { out[k] = SIMD4(f[4 * k], f[4 * k + 1], f[4 * k + 2], f[4 * k + 3]) }
                initialized = n
            }
        }
    }
}

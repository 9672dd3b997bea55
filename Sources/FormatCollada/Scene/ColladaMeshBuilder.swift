import AssetCore

/// Builds one `Mesh` per `<geometry>`: positions from `<vertices>`, faces from every surface
/// element (triangles, polylist, polygons with holes' outer rings, tristrips, trifans; lines and
/// line strips are `ColladaCurvesBuilder`'s), and every
/// other input (normals, each texcoord set, colours, tangents) as a faceVarying primvar with
/// indices, exactly as the `<p>` lists index them. Each primitive element becomes a GeomSubset
/// named by its material symbol, so materials bind per primitive.
struct ColladaMeshBuilder {
    struct Built {
        var mesh: Mesh
        /// Per subset, the material symbol it binds (`Mesh.subsets` order).
        var subsetSymbols: [String]
        /// The symbol of the whole mesh when it has one primitive element.
        var symbol: String?
        /// TEXCOORD set number -> primvar name.
        var texcoordNames: [Int: String]
    }

    let document: ColladaDocument

    private struct Channel {
        var name: String
        var role: Primvar.Role
        var sources: [String] = []
        var indices: [Int32] = []
        var present = true
    }

    func build(_ geometry: ColladaGeometry, diagnostics: inout [Diagnostic]) -> Built? {
        let here = document.location(line: geometry.line, element: "geometry[@id=\(geometry.id)]")
        func drop(_ why: String) -> Built? {
            diagnostics.append(.warning("geometry dropped: \(why)", at: here))
            return nil
        }
        if let kind = geometry.unsupportedKind { return drop("<\(kind)> is not a <mesh>") }
        let isLines = { (p: ColladaPrimitive) in p.kind == .lines || p.kind == .linestrips }
        // A geometry of lines only is curves, not an empty mesh.
        if !geometry.primitives.isEmpty && geometry.primitives.allSatisfy(isLines) { return nil }
        guard let positionInput = geometry.vertexInputs.first(where: { $0.semantic == "POSITION" }),
              let positions = geometry.sources[positionInput.source] else {
            return drop("no usable POSITION source in <vertices>")
        }
        var mesh = Mesh(name: geometry.name)
        mesh.points = Self.vectors3(positions)
        var channels: [String: Channel] = [:]
        var channelOrder: [String] = []
        var texcoordNames: [Int: String] = [:]
        var subsetSymbols: [String] = []
        var primitiveCount = 0

        for primitive in geometry.primitives {
            let pHere = document.location(line: primitive.line, element: "geometry[@id=\(geometry.id)]/\(primitive.kind.rawValue)")
            if isLines(primitive) { continue }
            guard let vertexInput = primitive.inputs.first(where: { $0.semantic == "VERTEX" }) else {
                diagnostics.append(.warning("primitive without a VERTEX input skipped", at: pHere))
                continue
            }
            if primitive.hasHoles { diagnostics.append(.warning("polygon holes (<ph>) dropped; outer rings kept", at: pHere)) }
            // Offsets come from the file: one past the range an index record could hold is refused
            // here, before `stride` or `c * stride + offset` can overflow or index outside <p>.
            if let bad = primitive.inputs.first(where: { !(0..<Self.maxInputOffset).contains($0.offset) }) {
                diagnostics.append(.warning("input \(bad.semantic) has offset \(bad.offset), outside 0..<\(Self.maxInputOffset); primitive skipped", at: pHere))
                continue
            }
            let stride = (primitive.inputs.map(\.offset).max() ?? 0) + 1
            guard let (faceSizes, records) = faces(of: primitive, stride: stride, at: pHere, diagnostics: &diagnostics) else { continue }
            let cornerCount = faceSizes.reduce(0) { $0 + Int($1) }
            let firstFace = Int32(mesh.faceVertexCounts.count)
            let firstCorner = mesh.faceVertexIndices.count
            mesh.faceVertexCounts.append(contentsOf: faceSizes)
            Self.gather(records, stride: stride, offset: vertexInput.offset, corners: cornerCount, base: 0, into: &mesh.faceVertexIndices)

            // Every non-vertex input becomes (or extends) a faceVarying channel.
            var seenHere: Set<String> = []
            for input in primitive.inputs where input.semantic != "VERTEX" {
                guard let (key, name, role) = Self.channelName(input, texcoordNames: &texcoordNames) else { continue }
                guard geometry.sources[input.source] != nil else {
                    diagnostics.append(.warning("input \(input.semantic) names source #\(input.source), which is not in this geometry; ignored", at: pHere))
                    continue
                }
                seenHere.insert(key)
                var channel = channels[key] ?? Channel(name: name, role: role)
                if channels[key] == nil {
                    channelOrder.append(key)
                    // Faces before this primitive had no such input.
                    if firstCorner > 0 { channel.present = false }
                }
                var base: Int32 = 0
                if let known = channel.sources.firstIndex(of: input.source) {
                    base = Int32(channel.sources[..<known].reduce(0) { $0 + (geometry.sources[$1]?.count ?? 0) })
                } else {
                    base = Int32(channel.sources.reduce(0) { $0 + (geometry.sources[$1]?.count ?? 0) })
                    channel.sources.append(input.source)
                }
                Self.gather(records, stride: stride, offset: input.offset, corners: cornerCount, base: base, into: &channel.indices)
                channels[key] = channel
            }
            for key in channelOrder where !seenHere.contains(key) { channels[key]?.present = false }
            if let symbol = primitive.material {
                let faceIndices = Array(firstFace..<Int32(mesh.faceVertexCounts.count))
                mesh.subsets.append(GeomSubset(name: symbol, faceIndices: faceIndices))
                subsetSymbols.append(symbol)
            }
            primitiveCount += 1
        }
        guard primitiveCount > 0 || geometry.primitives.allSatisfy(isLines) else { return drop("no surface primitive could be read") }

        for key in channelOrder {
            guard let channel = channels[key] else { continue }
            guard channel.present else {
                diagnostics.append(.warning("\(channel.name) is missing from some primitives; dropped", at: here))
                continue
            }
            let values = channel.sources.compactMap { geometry.sources[$0] }
            let primvar: Primvar
            switch channel.role {
            case .textureCoordinate:
                primvar = Primvar(name: channel.name, interpolation: .faceVarying,
                                  values: .float2(Self.joined(values, Self.vectors2)), indices: channel.indices, role: .textureCoordinate)
            case .color where values.allSatisfy({ $0.componentOffsets.count >= 4 }):
                primvar = Primvar(name: channel.name, interpolation: .faceVarying,
                                  values: .float4(Self.joined(values, Self.vectors4)), indices: channel.indices, role: .color)
            default:
                primvar = Primvar(name: channel.name, interpolation: .faceVarying,
                                  values: .float3(Self.joined(values, Self.vectors3)), indices: channel.indices, role: channel.role)
            }
            mesh.primvars.append(primvar)
        }
        // Normals or colours on <vertices> apply per point.
        for input in geometry.vertexInputs where input.semantic == "NORMAL" || input.semantic == "COLOR" {
            guard let source = geometry.sources[input.source], source.count == mesh.points.count else { continue }
            let name = input.semantic == "NORMAL" ? Primvar.normalsName : Primvar.displayColorName
            guard mesh.primvar(named: name) == nil else { continue }
            mesh.primvars.append(Primvar(name: name, interpolation: .vertex, values: .float3(Self.vectors3(source)),
                                         role: input.semantic == "NORMAL" ? .normal : .color))
        }
        if subsetSymbols.count == 1 && mesh.subsets.count == 1 && mesh.subsets[0].faceIndices.count == mesh.faceVertexCounts.count {
            // One primitive element: its material binds the whole mesh, no subset needed.
            let symbol = subsetSymbols[0]
            mesh.subsets = []
            return validated(Built(mesh: mesh, subsetSymbols: [], symbol: symbol, texcoordNames: texcoordNames), here: here, diagnostics: &diagnostics)
        }
        return validated(Built(mesh: mesh, subsetSymbols: subsetSymbols, symbol: nil, texcoordNames: texcoordNames), here: here, diagnostics: &diagnostics)
    }

    private func validated(_ built: Built, here: SourceLocation, diagnostics: inout [Diagnostic]) -> Built? {
        var built = built
        if let problem = built.mesh.topologyProblem() {
            diagnostics.append(.warning("geometry dropped: \(problem)", at: here))
            return nil
        }
        for (index, problem) in built.mesh.primvarProblems().reversed() {
            diagnostics.append(.warning("\(problem); dropped", at: here))
            built.mesh.primvars.remove(at: index)
        }
        let nonFinite = built.mesh.points.filter { !$0.double.isFinite }.count
        if nonFinite > 0 {
            diagnostics.append(.warning("\(nonFinite) positions are NaN or infinite; they are left out of bounds", at: here))
        }
        return built
    }

    /// The largest `<input offset>` read, plus one: real exporters use a handful of inputs per corner.
    static let maxInputOffset = 1_024

    /// Appends one index per corner: the `offset`-th of each corner's `stride` indices, plus `base`.
    static func gather(_ records: [Int32], stride: Int, offset: Int, corners: Int, base: Int32, into out: inout [Int32]) {
        let gathered = records.withUnsafeBufferPointer { r in
            [Int32](unsafeUninitializedCapacity: corners) { buffer, initialized in
                HugePages.advise(UnsafeMutableRawPointer(buffer.baseAddress), byteCount: corners * 4)
                for c in 0..<corners { buffer[c] = r[c * stride + offset] &+ base }
                initialized = corners
            }
        }
        // The usual case, one primitive per mesh, takes the gathered buffer as it is.
        if out.isEmpty { out = gathered } else { out.append(contentsOf: gathered) }
    }

    /// Face sizes and the corner records: `stride` indices per corner, one input per offset. For
    /// triangles and polylists that is the `<p>` list itself; strips and fans are unrolled.
    private func faces(of primitive: ColladaPrimitive, stride: Int, at here: SourceLocation,
                       diagnostics: inout [Diagnostic]) -> ([Int32], [Int32])? {
        func checked(_ list: [Int32]) -> Bool {
            if list.count % stride == 0 { return true }
            diagnostics.append(.warning("<p> holds \(list.count) indices, not a multiple of the \(stride) inputs; primitive skipped", at: here))
            return false
        }
        switch primitive.kind {
        case .triangles:
            let list = primitive.lists.first ?? []
            guard checked(list) else { return nil }
            let usable = list.count / stride / 3
            if primitive.count > usable {
                diagnostics.append(.warning("count=\(primitive.count) triangles but <p> holds \(usable); the triangles present are used", at: here))
            }
            return (Array(repeating: 3, count: usable), list)
        case .polylist:
            let list = primitive.lists.first ?? []
            guard checked(list) else { return nil }
            let total = primitive.vcount.reduce(0) { $0 + Int(max($1, 0)) }
            guard primitive.vcount.allSatisfy({ $0 >= 0 }), total <= list.count / stride else {
                diagnostics.append(.warning("vcount adds up to \(total) corners but <p> holds \(list.count / stride); primitive skipped", at: here))
                return nil
            }
            if primitive.count > primitive.vcount.count {
                diagnostics.append(.warning("count=\(primitive.count) polygons but vcount lists \(primitive.vcount.count); those listed are used", at: here))
            }
            return (primitive.vcount, list)
        case .polygons:
            var sizes: [Int32] = []
            var records: [Int32] = []
            for list in primitive.lists {
                guard checked(list) else { return nil }
                sizes.append(Int32(list.count / stride))
                records.append(contentsOf: list)
            }
            return (sizes, records)
        case .tristrips, .trifans:
            var sizes: [Int32] = []
            var records: [Int32] = []
            for list in primitive.lists {
                guard checked(list) else { return nil }
                let n = list.count / stride
                guard n >= 3 else { continue }
                func corner(_ k: Int) -> ArraySlice<Int32> { list[(k * stride)..<((k + 1) * stride)] }
                for k in 0..<(n - 2) {
                    let triangle: [Int]
                    if primitive.kind == .trifans { triangle = [0, k + 1, k + 2] }
                    else if k % 2 == 0 { triangle = [k, k + 1, k + 2] }
                    else { triangle = [k + 1, k, k + 2] }  // every other strip triangle flips to keep the winding
                    for c in triangle { records.append(contentsOf: corner(c)) }
                    sizes.append(3)
                }
            }
            return (sizes, records)
        case .lines, .linestrips:
            return nil
        }
    }

    /// The primvar a Collada input feeds: (key, primvar name, role), or nil for inputs not kept.
    private static func channelName(_ input: ColladaInput, texcoordNames: inout [Int: String]) -> (String, String, Primvar.Role)? {
        let set = input.set ?? 0
        switch input.semantic {
        case "NORMAL": return ("NORMAL", Primvar.normalsName, .normal)
        case "TEXCOORD":
            if texcoordNames[set] == nil { texcoordNames[set] = texcoordNames.isEmpty ? "st" : "st\(texcoordNames.count)" }
            return ("TEXCOORD\(set)", texcoordNames[set]!, .textureCoordinate)
        case "COLOR": return ("COLOR\(set)", set == 0 || input.set == nil ? Primvar.displayColorName : "color\(set)", .color)
        case "TANGENT", "TEXTANGENT": return ("\(input.semantic)\(set)", set == 0 ? "tangents" : "tangents\(set)", .vector)
        case "BINORMAL", "TEXBINORMAL": return ("\(input.semantic)\(set)", set == 0 ? "binormals" : "binormals\(set)", .vector)
        default: return nil
        }
    }

    static func component(_ source: ColladaSource, _ element: Int, _ k: Int) -> Float {
        guard k < source.componentOffsets.count else { return 0 }
        return source.floats[source.offset + element * source.stride + source.componentOffsets[k]]
    }

    static func vectors3(_ s: ColladaSource) -> [SIMD3<Float>] {
        vectors(s.count) { SIMD3(component(s, $0, 0), component(s, $0, 1), component(s, $0, 2)) }
    }

    static func vectors2(_ s: ColladaSource) -> [SIMD2<Float>] {
        vectors(s.count) { SIMD2(component(s, $0, 0), component(s, $0, 1)) }
    }

    static func vectors4(_ s: ColladaSource) -> [SIMD4<Float>] {
        vectors(s.count) { SIMD4(component(s, $0, 0), component(s, $0, 1), component(s, $0, 2), component(s, $0, 3)) }
    }

    /// `count` values in one array, its pages asked to be huge before they are first written:
    /// a 1M-triangle mesh's vectors are tens of megabytes of fresh memory.
    private static func vectors<V>(_ count: Int, _ make: (Int) -> V) -> [V] {
        [V](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            HugePages.advise(UnsafeMutableRawPointer(base), byteCount: count * MemoryLayout<V>.stride)
            for i in 0..<count { (base + i).initialize(to: make(i)) }
            initialized = count
        }
    }

    /// The values of every source a channel reads, in order; the usual single source is not copied.
    private static func joined<V>(_ sources: [ColladaSource], _ vectors: (ColladaSource) -> [V]) -> [V] {
        sources.count == 1 ? vectors(sources[0]) : sources.flatMap(vectors)
    }
}

import AssetCore
import Foundation

/// Reads PLY (ASCII, binary little and big endian): the `vertex` element's x/y/z, normals
/// (nx/ny/nz), colours (red/green/blue[/alpha], integers scaled to 0...1, floats as they are) and
/// texture coordinates (s/t, u/v or texture_u/texture_v), and the `face` element's index lists of
/// any size and type as n-gons. Every other element and property is read past. Counts come from
/// the header, so each is checked against the bytes left before anything is allocated. PLY carries
/// no unit and no up axis: the unit is reported unknown, Y up is assumed.
public struct PLYReader: SceneReader {

    public init() {}

    public var formats: [AssetFormat] { [.ply] }

    public func sniff(prefix: [UInt8], pathExtension: String) -> AssetFormat? {
        prefix.starts(with: Array("ply\n".utf8)) || prefix.starts(with: Array("ply\r\n".utf8)) ? .ply : nil
    }

    public func read(_ file: SniffedFile, options: ReadOptions) throws(AssetError) -> ReadResult {
        let display = options.name(of: file.url)
        let budget = ReadBudget(options.limits)
        let bytes: [UInt8]
        if let mapped = try MappedFile.mapIfLarge(path: file.url.path, display: display, budget: budget, staged: options.staged) {
            if let capture = try readMappedCapture(mapped, file: file, options: options, budget: budget) { return capture }
            bytes = Array(mapped.bytes)  // not a binary capture: the general reader, on a copy (the budget has the file already)
        } else {
            bytes = try FileBytes.read(path: file.url.path, display: display, budget: budget, staged: options.staged)
        }
        let header = try PLYHeader(bytes: bytes, file: display)
        var body = PLYBody(bytes: bytes, header: header, file: display, budget: budget)
        var diagnostics: [Diagnostic] = []
        if let vertexIndex = header.elements.firstIndex(where: { $0.name == "vertex" }),
           let layout = try PLYSplatLayout(header.elements[vertexIndex], file: display) {
            return try readSplats(&body, layout: layout, vertexIndex: vertexIndex, file: file, options: options)
        }
        let mesh = try body.read(name: file.url.deletingPathExtension().lastPathComponent, diagnostics: &diagnostics)
        var scene = Scene()
        scene.metadata = SceneMetadata(upAxis: .y, metersPerUnit: 1, sourceFormat: .ply)
        scene.metadata.declaresUnits = false
        scene.meshes = [mesh]
        scene.root.children = [Node(name: mesh.name, typeName: "ply", meshInstances: [MeshInstance(mesh: 0)])]
        return ReadResult(scene: scene, diagnostics: diagnostics)
    }

    /// A large binary 3DGS capture (its vertex element alone, as capture tools write it) decoded
    /// straight from the mapped file, each run of records' pages dropped once decoded: the file is
    /// never resident whole beside its splats, and never copied. Nil for any other PLY.
    private func readMappedCapture(_ mapped: MappedFile, file: SniffedFile, options: ReadOptions,
                                   budget: ReadBudget) throws(AssetError) -> ReadResult? {
        let display = options.name(of: file.url)
        let header = try PLYHeader(bytes: Array(mapped.bytes.prefix(PLYHeader.searchLimit)), file: display)
        guard header.encoding != .ascii, header.elements.count == 1, let element = header.elements.first, element.name == "vertex",
              let layout = try PLYSplatLayout(element, file: display) else { return nil }
        let stride = element.properties.reduce(0) { $0 + $1.type.size }
        let left = mapped.bytes.count - header.bodyStart
        guard element.count <= left / max(stride, 1) else {
            throw AssetError(.malformed("\(element.count) splats of \(stride) bytes run past the end of the file (\(left) bytes are left)"),
                             at: SourceLocation(file: display, line: element.line))
        }
        try budget.spend(work: element.count * max(element.properties.count, 1), for: "\(element.count) vertex records",
                         at: SourceLocation(file: display, line: element.line))
        let decoder = PLYSplatDecoder(layout: layout, element: element, axes: options.splatAxes ?? .rightDownForward)
        var columns = try decoder.columns(budget: budget, file: display)
        decoder.decodeBinary(UnsafeRawBufferPointer(mapped.bytes), start: header.bodyStart, bigEndian: header.encoding == .binaryBigEndian,
                             into: &columns, release: { mapped.release($0) })
        if mapped.changedWhileRead { throw MappedFile.changedError(at: display) }
        let name = file.url.deletingPathExtension().lastPathComponent
        let splats = columns.takeSet(name: name, shDegree: layout.shDegree, axes: decoder.axes)
        return capture(consume splats, layout: layout, header: header, file: file, options: options)
    }

    /// A 3DGS PLY: one splat set on one node, changed from the file's axes (`rdf` unless
    /// `--splat-axes` says otherwise) into the scene's.
    private func readSplats(_ body: inout PLYBody, layout: PLYSplatLayout, vertexIndex: Int, file: SniffedFile,
                            options: ReadOptions) throws(AssetError) -> ReadResult {
        let name = file.url.deletingPathExtension().lastPathComponent
        let splats = try body.readSplats(layout: layout, vertexIndex: vertexIndex, name: name, axes: options.splatAxes ?? .rightDownForward)
        return capture(consume splats, layout: layout, header: body.header, file: file, options: options)
    }

    /// The capture's scene (the set already in the scene frame), with what the layout says about
    /// the file named in warnings.
    private func capture(_ splats: consuming SplatSet, layout: PLYSplatLayout, header: PLYHeader, file: SniffedFile,
                         options: ReadOptions) -> ReadResult {
        let display = options.name(of: file.url)
        let name = file.url.deletingPathExtension().lastPathComponent
        var diagnostics: [Diagnostic] = []
        switch layout.kind {
        case .surfels:
            diagnostics.append(.warning("a 2DGS file (two scales, no scale_2): its surfels are kept as flat 3D Gaussians", at: SourceLocation(file: display)))
        case .colouredGaussians:
            diagnostics.append(.warning("splats coloured by red/green/blue instead of f_dc: their colour is kept as SH degree 0", at: SourceLocation(file: display)))
        case .gaussians: break
        }
        if let faces = header.elements.first(where: { $0.name == "face" && $0.count > 0 }) {
            diagnostics.append(.warning("\(faces.count) faces beside splats are not read", at: SourceLocation(file: display, line: faces.line)))
        }
        let scene = Scene.splatCapture(inSceneFrame: consume splats, node: name, typeName: "ply", format: .ply)
        return ReadResult(scene: scene, diagnostics: diagnostics)
    }
}

/// The body of a PLY file, element by element in header order.
struct PLYBody {
    let bytes: [UInt8]
    let header: PLYHeader
    let file: String
    let budget: ReadBudget
    var cursor: Int
    private var line: Int

    init(bytes: [UInt8], header: PLYHeader, file: String, budget: ReadBudget) {
        self.bytes = bytes
        self.header = header
        self.file = file
        self.budget = budget
        cursor = header.bodyStart
        line = header.bodyLine
    }

    var here: SourceLocation {
        header.encoding == .ascii ? SourceLocation(file: file, line: line) : SourceLocation(file: file, elementPath: "byte \(cursor)")
    }

    mutating func read(name: String, diagnostics: inout [Diagnostic]) throws(AssetError) -> Mesh {
        var mesh = Mesh(name: name)
        var normals: [SIMD3<Float>] = [], colors: [SIMD4<Float>] = [], uvs: [SIMD2<Float>] = []
        var hasAlpha = false
        var droppedFaces = 0
        for element in header.elements {
            // Every record takes at least one byte (binary) or one character: a count the rest of
            // the file cannot hold is refused before anything is reserved for it.
            guard element.count <= bytes.count - cursor || element.properties.isEmpty else {
                throw AssetError(.malformed("element \(element.name) claims \(element.count) records; \(bytes.count - cursor) bytes are left"),
                                 at: SourceLocation(file: file, line: element.line))
            }
            try budget.spend(work: element.count * max(element.properties.count, 1), for: "\(element.count) \(element.name) records",
                             at: SourceLocation(file: file, line: element.line))
            let names = element.properties.map(\.name)
            func slot(_ candidates: [String]) -> Int? { candidates.lazy.compactMap { names.firstIndex(of: $0) }.first }
            switch element.name {
            case "vertex":
                guard let x = slot(["x"]), let y = slot(["y"]), let z = slot(["z"]) else {
                    throw AssetError(.malformed("the vertex element has no x, y and z"), at: SourceLocation(file: file, line: element.line))
                }
                let n = (slot(["nx"]), slot(["ny"]), slot(["nz"]))
                let c = (slot(["red", "r", "diffuse_red"]), slot(["green", "g", "diffuse_green"]), slot(["blue", "b", "diffuse_blue"]), slot(["alpha", "a"]))
                let uv = (slot(["s", "u", "texture_u", "texture_s"]), slot(["t", "v", "texture_v", "texture_t"]))
                hasAlpha = c.3 != nil
                try budget.spend(bytes: element.count * 48, for: "\(element.count) vertices", at: SourceLocation(file: file, line: element.line))
                mesh.points.reserveCapacity(element.count)
                var values = [Double](repeating: 0, count: element.properties.count)
                var unused: [Int64] = []
                for _ in 0..<element.count {
                    try record(element, into: &values, list: &unused, listSlot: nil)
                    mesh.points.append(SIMD3(Float(values[x]), Float(values[y]), Float(values[z])))
                    if let nx = n.0, let ny = n.1, let nz = n.2 { normals.append(SIMD3(Float(values[nx]), Float(values[ny]), Float(values[nz]))) }
                    if let r = c.0, let g = c.1, let b = c.2 {
                        func unit(_ k: Int) -> Float {
                            let scale = element.properties[k].type.colourRange
                            return Float(values[k] / scale)
                        }
                        colors.append(SIMD4(unit(r), unit(g), unit(b), c.3.map(unit) ?? 1))
                    }
                    if let u = uv.0, let v = uv.1 { uvs.append(SIMD2(Float(values[u]), Float(values[v]))) }
                }
            case "face":
                guard let listSlot = slot(["vertex_indices", "vertex_index"]), element.properties[listSlot].countType != nil else {
                    throw AssetError(.malformed("the face element has no vertex_indices list"), at: SourceLocation(file: file, line: element.line))
                }
                var values = [Double](repeating: 0, count: element.properties.count)
                var list: [Int64] = []
                for _ in 0..<element.count {
                    try record(element, into: &values, list: &list, listSlot: listSlot)
                    guard list.count >= 3 else { droppedFaces += 1; continue }
                    for index in list {
                        guard index >= 0, index < Int64(Int32.max) else {
                            throw AssetError(.malformed("face index \(index) is not a vertex number"), at: here)
                        }
                        mesh.faceVertexIndices.append(Int32(index))
                    }
                    mesh.faceVertexCounts.append(Int32(list.count))
                }
            default:
                var values = [Double](repeating: 0, count: element.properties.count)
                var unused: [Int64] = []
                for _ in 0..<element.count { try record(element, into: &values, list: &unused, listSlot: nil) }
            }
        }
        if droppedFaces > 0 { diagnostics.append(.warning("\(droppedFaces) faces with fewer than 3 vertices dropped", at: SourceLocation(file: file))) }
        if let bad = mesh.faceVertexIndices.first(where: { Int($0) >= mesh.points.count }) {
            throw AssetError(.malformed("face index \(bad) is outside the \(mesh.points.count) vertices"), at: SourceLocation(file: file))
        }
        if !normals.isEmpty { mesh.primvars.append(Primvar(name: Primvar.normalsName, interpolation: .vertex, values: .float3(normals), role: .normal)) }
        if !colors.isEmpty {
            let values: PrimvarValues = hasAlpha ? .float4(colors) : .float3(colors.map { SIMD3($0.x, $0.y, $0.z) })
            mesh.primvars.append(Primvar(name: Primvar.displayColorName, interpolation: .vertex, values: values, role: .color))
        }
        if !uvs.isEmpty { mesh.primvars.append(Primvar(name: "st", interpolation: .vertex, values: .float2(uvs), role: .textureCoordinate)) }
        if let problem = mesh.topologyProblem() { throw AssetError(.malformed(problem), at: SourceLocation(file: file)) }
        return mesh
    }

    /// Reads one record: scalar properties into `values` (by position), the list property at
    /// `listSlot` into `list`, other lists read past.
    mutating func record(_ element: PLYHeader.Element, into values: inout [Double], list: inout [Int64],
                                 listSlot: Int?) throws(AssetError) {
        if header.encoding == .ascii { try asciiRecord(element, into: &values, list: &list, listSlot: listSlot); return }
        for (k, property) in element.properties.enumerated() {
            if let countType = property.countType {
                let count = try scalar(countType)
                guard count >= 0, count <= Double(1 << 20) else { throw AssetError(.malformed("a list of \(count) items"), at: here) }
                let n = Int(count)
                guard n <= (bytes.count - cursor) / property.type.size else {
                    throw AssetError(.malformed("a list of \(n) items runs past the end of the file"), at: here)
                }
                if listSlot == k {
                    list.removeAll(keepingCapacity: true)
                    for _ in 0..<n { list.append(Int64(try scalar(property.type))) }
                } else {
                    cursor += n * property.type.size
                }
            } else {
                values[k] = try scalar(property.type)
            }
        }
    }

    private mutating func scalar(_ type: PLYHeader.ScalarType) throws(AssetError) -> Double {
        let size = type.size
        guard size <= bytes.count - cursor else { throw AssetError(.malformed("the file ends inside a record"), at: here) }
        var bits: UInt64 = 0
        if header.encoding == .binaryLittleEndian {
            for k in (0..<size).reversed() { bits = bits << 8 | UInt64(bytes[cursor + k]) }
        } else {
            for k in 0..<size { bits = bits << 8 | UInt64(bytes[cursor + k]) }
        }
        cursor += size
        switch type {
        case .int8: return Double(Int8(truncatingIfNeeded: bits))
        case .uint8: return Double(UInt8(truncatingIfNeeded: bits))
        case .int16: return Double(Int16(truncatingIfNeeded: bits))
        case .uint16: return Double(UInt16(truncatingIfNeeded: bits))
        case .int32: return Double(Int32(truncatingIfNeeded: bits))
        case .uint32: return Double(UInt32(truncatingIfNeeded: bits))
        case .float32: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
        case .float64: return Double(bitPattern: bits)
        }
    }

    private mutating func asciiRecord(_ element: PLYHeader.Element, into values: inout [Double], list: inout [Int64],
                                      listSlot: Int?) throws(AssetError) {
        for (k, property) in element.properties.enumerated() {
            if property.countType != nil {
                let count = try asciiNumber()
                guard count >= 0, count <= Double(1 << 20), count == count.rounded() else { throw AssetError(.malformed("a list count of \(count)"), at: here) }
                if listSlot == k { list.removeAll(keepingCapacity: true) }
                for _ in 0..<Int(count) {
                    let item = try asciiNumber()
                    if listSlot == k {
                        guard item == item.rounded(), abs(item) < 9e18 else { throw AssetError(.malformed("index \(item) is not an integer"), at: here) }
                        list.append(Int64(item))
                    }
                }
            } else {
                values[k] = try asciiNumber()
            }
        }
    }

    private mutating func asciiNumber() throws(AssetError) -> Double {
        let value: Double? = bytes.withUnsafeBufferPointer { p in
            while cursor < p.count, p[cursor] == 0x20 || p[cursor] == 0x09 || p[cursor] == 0x0A || p[cursor] == 0x0D {
                if p[cursor] == 0x0A { line += 1 }
                cursor += 1
            }
            return DecimalNumberParser.parseDouble(p, &cursor)
        }
        guard let value else { throw AssetError(.malformed(cursor >= bytes.count ? "the file ends inside a record" : "expected a number"), at: here) }
        return value
    }
}

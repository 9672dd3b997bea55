import AssetCore

/// Reads STL, binary and ASCII. A file is binary when its size is exactly 84 + 50 x its triangle
/// count, whatever its header says (exporters often start binary headers with "solid"); else ASCII
/// when it starts with `solid`. Each ASCII `solid` becomes a mesh under a node of its name; a binary
/// file is one mesh. Facets keep their own three corners (STL shares nothing), so bounds and
/// triangle counts are the file's; facet normals are recomputed from the corners, as most readers
/// do. STL carries no unit and no up axis: the unit is reported unknown, Y up is assumed.
public struct STLReader: SceneReader {

    public init() {}

    public var formats: [AssetFormat] { [.stl] }

    public func sniff(prefix: [UInt8], pathExtension: String) -> AssetFormat? {
        // Content alone cannot tell a binary STL (any 80 bytes of header) from other data, and
        // "solid" begins other text too; the extension decides, content only confirms ASCII.
        pathExtension == "stl" ? .stl : nil
    }

    public func read(_ file: SniffedFile, options: ReadOptions) throws(AssetError) -> ReadResult {
        let display = options.name(of: file.url)
        let budget = ReadBudget(options.limits)
        let bytes = try FileBytes.read(path: file.url.path, display: display, budget: budget, staged: options.staged)
        var scene = Scene()
        scene.metadata = SceneMetadata(upAxis: .y, metersPerUnit: 1, sourceFormat: .stl)
        scene.metadata.declaresUnits = false
        let stem = file.url.deletingPathExtension().lastPathComponent
        let solids: [(name: String, points: [SIMD3<Float>])]
        if Self.isBinary(bytes) {
            solids = [(stem, try Self.binaryPoints(bytes, file: display, budget: budget))]
        } else if bytes.starts(with: Array("solid".utf8)) {
            solids = try STLASCIIParser(bytes: bytes, file: display, budget: budget).solids()
        } else {
            let count = bytes.count >= 84 ? Int(Self.u32(bytes, 80)) : 0
            throw AssetError(.malformed(bytes.count < 84
                ? "\(bytes.count) bytes: too short for a binary STL header, and not ASCII STL (no 'solid')"
                : "binary STL header claims \(count) triangles (\(84 + 50 * count) bytes) but the file has \(bytes.count)"),
                at: SourceLocation(file: display))
        }
        for (k, solid) in solids.enumerated() {
            let count = solid.points.count
            guard count <= Int(Int32.max) else { throw AssetError(.limitExceeded("\(count) corners in one solid"), at: SourceLocation(file: display)) }
            let mesh = Mesh(name: solid.name.isEmpty ? "solid\(k)" : solid.name, points: solid.points,
                            faceVertexCounts: [Int32](repeating: 3, count: count / 3), faceVertexIndices: (0..<Int32(count)).map { $0 })
            scene.meshes.append(mesh)
            scene.root.children.append(Node(name: mesh.name, typeName: "solid", meshInstances: [MeshInstance(mesh: k)]))
        }
        return ReadResult(scene: scene)
    }

    static func isBinary(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 84 else { return false }
        let count = Int(u32(bytes, 80))
        return count <= (bytes.count - 84) / 50 && 84 + 50 * count == bytes.count
    }

    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }

    static func binaryPoints(_ bytes: [UInt8], file: String, budget: ReadBudget) throws(AssetError) -> [SIMD3<Float>] {
        let triangles = Int(u32(bytes, 80))
        try budget.spend(work: triangles * 9, for: "\(triangles) triangles", at: SourceLocation(file: file))
        try budget.spend(bytes: triangles * 3 * MemoryLayout<SIMD3<Float>>.stride, for: "\(triangles) triangles", at: SourceLocation(file: file))
        return bytes.withUnsafeBytes { raw in
            [SIMD3<Float>](unsafeUninitializedCapacity: triangles * 3) { out, initialized in
                for t in 0..<triangles {
                    let base = 84 + 50 * t + 12  // past the facet normal
                    for c in 0..<3 {
                        let at = base + 12 * c
                        out[3 * t + c] = SIMD3(Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))),
                                               Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self))),
                                               Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self))))
                    }
                }
                initialized = triangles * 3
            }
        }
    }
}

/// ASCII STL: `solid NAME`, then `facet normal nx ny nz` / `outer loop` / three `vertex x y z` /
/// `endloop` / `endfacet`, until `endsolid`. Keywords are checked, numbers go through the shared
/// decimal parser; an error names its line.
struct STLASCIIParser {
    let bytes: [UInt8]
    let file: String
    let budget: ReadBudget

    func solids() throws(AssetError) -> [(name: String, points: [SIMD3<Float>])] {
        var result: [(name: String, points: [SIMD3<Float>])] = []
        var failure: AssetError?
        bytes.withUnsafeBufferPointer { p in
            var i = 0, line = 1
            func skipSpace() {
                while i < p.count, p[i] == 0x20 || p[i] == 0x09 || p[i] == 0x0A || p[i] == 0x0D {
                    if p[i] == 0x0A { line += 1 }
                    i += 1
                }
            }
            func word() -> String {
                skipSpace()
                let start = i
                while i < p.count, p[i] > 0x20 { i += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: p[start..<i]), as: UTF8.self)
            }
            func restOfLine() -> String {
                while i < p.count, p[i] == 0x20 || p[i] == 0x09 { i += 1 }
                let start = i
                while i < p.count, p[i] != 0x0A, p[i] != 0x0D { i += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: p[start..<i]), as: UTF8.self)
            }
            func malformed(_ message: String) { failure = AssetError(.malformed(message), at: SourceLocation(file: file, line: line)) }
            func expect(_ keyword: String) -> Bool {
                let found = word()
                if found != keyword { malformed("expected '\(keyword)', found '\(found.prefix(40))'") }
                return found == keyword
            }
            func number() -> Float? {
                skipSpace()
                guard let v = DecimalNumberParser.parseFloat(p, &i) else { malformed("expected a number"); return nil }
                return v
            }
            while true {
                skipSpace()
                if i >= p.count { return }
                guard expect("solid") else { return }
                let name = restOfLine()
                var points: [SIMD3<Float>] = []
                while true {
                    let keyword = word()
                    if keyword == "endsolid" { _ = restOfLine(); break }
                    guard keyword == "facet" else { malformed(keyword.isEmpty ? "the file ends inside solid '\(name)'" : "expected 'facet' or 'endsolid', found '\(keyword.prefix(40))'"); return }
                    guard expect("normal"), number() != nil, number() != nil, number() != nil, expect("outer"), expect("loop") else { return }
                    for _ in 0..<3 {
                        guard expect("vertex"), let x = number(), let y = number(), let z = number() else { return }
                        points.append(SIMD3(x, y, z))
                    }
                    guard expect("endloop"), expect("endfacet") else { return }
                    if points.count % 300_000 == 0 {
                        do throws(AssetError) { try budget.spend(work: 300_000, for: "ASCII STL facets", at: SourceLocation(file: file, line: line)) } catch {
                            failure = error
                            return
                        }
                    }
                }
                result.append((name, points))
            }
        }
        if let failure { throw failure }
        return result
    }
}

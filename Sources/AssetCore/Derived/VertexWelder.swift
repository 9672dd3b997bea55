/// Finds the distinct combinations of attribute indices among a mesh's corners: the vertices a GPU
/// format needs when positions, normals and texture coordinates are indexed separately.
///
/// Written by hand because the standard library's `Dictionary` would need one array per key and
/// its seeded SipHash per corner; this table hashes a corner's indices in place with a
/// multiply-mix, stores only vertex numbers, and compares a candidate against the first corner
/// that made each vertex, so nothing is allocated per corner.
enum VertexWelder {
    struct Result {
        /// The vertex of every corner, vertices numbered in order of first appearance.
        var vertexOfCorner: [UInt32]
        /// For each vertex, the first corner that produced it (its key is every stream there).
        var firstCorners: [UInt32]
    }

    /// `streams`: one index stream per attribute, each with one entry per corner.
    static func weld(_ streams: [[UInt32]], expectedVertices: Int) -> Result {
        let width = streams.count
        let cornerCount = streams.first?.count ?? 0
        guard width > 0, cornerCount > 0 else { return Result(vertexOfCorner: [], firstCorners: []) }
        // Interleaved, so one corner's key is contiguous. Every buffer here is written through
        // pointers into uninitialised storage: with array subscripts, each corner paid bounds,
        // uniqueness and exclusivity checks on four arrays, most of the weld's time on a 1M-
        // triangle export; and a zero fill first would have been a second pass over fresh memory.
        let keys = [UInt32](unsafeUninitializedCapacity: cornerCount * width) { buffer, initialized in
            HugePages.advise(UnsafeMutableRawPointer(buffer.baseAddress), byteCount: cornerCount * width * 4)
            for (k, stream) in streams.enumerated() {
                stream.withUnsafeBufferPointer { stream in
                    for corner in 0..<cornerCount { buffer[corner * width + k] = stream[corner] }
                }
            }
            initialized = cornerCount * width
        }
        var capacity = 16
        while capacity < min(expectedVertices, cornerCount) * 2 { capacity <<= 1 }
        var vertexCount = 0
        var vertexOfCorner: [UInt32] = []
        let firstCorners = [UInt32](unsafeUninitializedCapacity: cornerCount) { first, firstCount in
            vertexOfCorner = [UInt32](unsafeUninitializedCapacity: cornerCount) { vertexOf, vertexOfCount in
                HugePages.advise(UnsafeMutableRawPointer(vertexOf.baseAddress), byteCount: cornerCount * 4)
                keys.withUnsafeBufferPointer { keys in
                    weld(keys, width: width, cornerCount: cornerCount, capacity: capacity,
                         first: first, vertexOf: vertexOf, vertexCount: &vertexCount)
                }
                vertexOfCount = cornerCount
            }
            firstCount = vertexCount
        }
        return Result(vertexOfCorner: vertexOfCorner, firstCorners: firstCorners)
    }

    /// The table loop over raw buffers: `first` gets each new vertex's first corner, `vertexOf`
    /// every corner's vertex. The table holds vertex numbers and grows by rehashing from `first`.
    private static func weld(_ keys: UnsafeBufferPointer<UInt32>, width: Int, cornerCount: Int, capacity: Int,
                             first: UnsafeMutableBufferPointer<UInt32>, vertexOf: UnsafeMutableBufferPointer<UInt32>,
                             vertexCount: inout Int) {
        @inline(__always) func hash(_ corner: Int) -> Int {
            var h: UInt64 = 0x243F_6A88_85A3_08D3
            for k in 0..<width { h = (h ^ UInt64(keys[corner * width + k])) &* 0x9E37_79B9_7F4A_7C15 }
            return Int(truncatingIfNeeded: h ^ (h >> 29))
        }
        @inline(__always) func same(_ a: Int, _ b: Int) -> Bool {
            for k in 0..<width where keys[a * width + k] != keys[b * width + k] { return false }
            return true
        }
        var table = UnsafeMutableBufferPointer<Int32>.allocate(capacity: capacity)
        table.initialize(repeating: -1)
        defer { table.deallocate() }
        var mask = capacity - 1
        var vertices = 0
        for corner in 0..<cornerCount {
            var slot = hash(corner) & mask
            var found: Int32 = -1
            while true {
                let entry = table[slot]
                if entry < 0 { break }
                if same(Int(first[Int(entry)]), corner) { found = entry; break }
                slot = (slot + 1) & mask
            }
            if found >= 0 {
                vertexOf[corner] = UInt32(found)
                continue
            }
            first[vertices] = UInt32(corner)
            table[slot] = Int32(vertices)
            vertexOf[corner] = UInt32(vertices)
            vertices += 1
            if vertices * 4 > table.count * 3 {
                // Rehash from the first corners: the keys themselves are never copied.
                let grown = UnsafeMutableBufferPointer<Int32>.allocate(capacity: table.count * 2)
                grown.initialize(repeating: -1)
                table.deallocate()
                table = grown
                mask = table.count - 1
                for v in 0..<vertices {
                    var s = hash(Int(first[v])) & mask
                    while table[s] >= 0 { s = (s + 1) & mask }
                    table[s] = Int32(v)
                }
            }
        }
        vertexCount = vertices
    }
}

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
        // Interleaved, so one corner's key is contiguous.
        var keys = [UInt32](repeating: 0, count: cornerCount * width)
        keys.withUnsafeMutableBufferPointer { keys in
            for (k, stream) in streams.enumerated() {
                stream.withUnsafeBufferPointer { stream in
                    for corner in 0..<cornerCount { keys[corner * width + k] = stream[corner] }
                }
            }
        }
        var capacity = 16
        while capacity < min(expectedVertices, cornerCount) * 2 { capacity <<= 1 }
        var table = [Int32](repeating: -1, count: capacity)
        var firstCorners: [UInt32] = []
        firstCorners.reserveCapacity(min(expectedVertices, cornerCount))
        var vertexOfCorner = [UInt32](repeating: 0, count: cornerCount)
        keys.withUnsafeBufferPointer { keys in
            @inline(__always) func hash(_ corner: Int) -> Int {
                var h: UInt64 = 0x243F_6A88_85A3_08D3
                for k in 0..<width { h = (h ^ UInt64(keys[corner * width + k])) &* 0x9E37_79B9_7F4A_7C15 }
                return Int(truncatingIfNeeded: h ^ (h >> 29))
            }
            @inline(__always) func same(_ a: Int, _ b: Int) -> Bool {
                for k in 0..<width where keys[a * width + k] != keys[b * width + k] { return false }
                return true
            }
            var mask = capacity - 1
            for corner in 0..<cornerCount {
                var slot = hash(corner) & mask
                var found: Int32 = -1
                while true {
                    let entry = table[slot]
                    if entry < 0 { break }
                    if same(Int(firstCorners[Int(entry)]), corner) { found = entry; break }
                    slot = (slot + 1) & mask
                }
                if found >= 0 {
                    vertexOfCorner[corner] = UInt32(found)
                    continue
                }
                let vertex = firstCorners.count
                firstCorners.append(UInt32(corner))
                table[slot] = Int32(vertex)
                vertexOfCorner[corner] = UInt32(vertex)
                if firstCorners.count * 4 > table.count * 3 {
                    // Rehash from the first corners: the keys themselves are never copied.
                    table = [Int32](repeating: -1, count: table.count * 2)
                    mask = table.count - 1
                    for (v, c) in firstCorners.enumerated() {
                        var s = hash(Int(c)) & mask
                        while table[s] >= 0 { s = (s + 1) & mask }
                        table[s] = Int32(v)
                    }
                }
            }
        }
        return Result(vertexOfCorner: vertexOfCorner, firstCorners: firstCorners)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// The welder's fallback for a mesh with a point of very many vertices: an open-addressing table
/// from a corner's whole key to its vertex, whose cost per corner does not grow with how many
/// vertices share a point. Each slot holds the vertex number plus one (0: empty, so calloc's zero
/// pages need no fill) and a copy of its key, so a probe reads one slot, not the first corner's key.
final class HashedVertexKeys: VertexWelder.Index, @unchecked Sendable {
    let corners: Range<Int>
    private let width: Int
    private let slotWidth: Int
    private var slots: UnsafeMutablePointer<UInt32>
    private var capacity: Int
    /// For each vertex, the first corner that produced it.
    private(set) var firstCorners: [UInt32] = []

    private init(width: Int, corners: Range<Int>, capacity: Int) {
        self.width = width
        self.corners = corners
        slotWidth = width + 1
        self.capacity = capacity
        slots = Self.allocate(capacity * slotWidth)
    }

    deinit { free(slots) }

    private static func allocate(_ count: Int) -> UnsafeMutablePointer<UInt32> {
        guard let memory = calloc(count, MemoryLayout<UInt32>.stride) else { fatalError("out of memory for \(count) weld slots") }
        return memory.assumingMemoryBound(to: UInt32.self)
    }

    /// Welds `corners`, writing each one's vertex (numbered from 0 in this table) to `vertexOf`.
    static func weld(_ keys: UnsafePointer<UInt32>, width: Int, corners: Range<Int>, expectedVertices: Int,
                     vertexOf: UnsafeMutableBufferPointer<UInt32>) -> HashedVertexKeys {
        var capacity = 16
        while capacity < min(expectedVertices, corners.count) * 2 { capacity <<= 1 }
        let table = HashedVertexKeys(width: width, corners: corners, capacity: capacity)
        for corner in corners {
            vertexOf[corner] = table.findOrInsert(keys + corner * width, corner: corner)
        }
        return table
    }

    @inline(__always) private func hash(_ key: UnsafePointer<UInt32>) -> Int {
        var h: UInt64 = 0x243F_6A88_85A3_08D3
        for k in 0..<width { h = (h ^ UInt64(key[k])) &* 0x9E37_79B9_7F4A_7C15 }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }

    /// The slot holding `key`, or the empty one where it would go.
    @inline(__always) private func slot(of key: UnsafePointer<UInt32>) -> UnsafeMutablePointer<UInt32> {
        let mask = capacity - 1
        var slot = hash(key) & mask
        while true {
            let entry = slots + slot * slotWidth
            if entry[0] == 0 { return entry }
            var same = true
            for k in 0..<width where entry[1 + k] != key[k] { same = false; break }
            if same { return entry }
            slot = (slot + 1) & mask
        }
    }

    func find(_ key: UnsafePointer<UInt32>) -> UInt32? {
        let entry = slot(of: key)
        return entry[0] == 0 ? nil : entry[0] - 1
    }

    private func findOrInsert(_ key: UnsafePointer<UInt32>, corner: Int) -> UInt32 {
        let entry = slot(of: key)
        if entry[0] != 0 { return entry[0] - 1 }
        let vertex = UInt32(firstCorners.count)
        entry[0] = vertex + 1
        (entry + 1).update(from: key, count: width)
        firstCorners.append(UInt32(corner))
        if firstCorners.count * 4 > capacity * 3 { grow() }
        return vertex
    }

    /// Twice the slots, each entry rehashed from the key it carries.
    private func grow() {
        let old = slots, oldCapacity = capacity
        capacity *= 2
        slots = Self.allocate(capacity * slotWidth)
        for s in 0..<oldCapacity {
            let entry = old + s * slotWidth
            guard entry[0] != 0 else { continue }
            slot(of: entry + 1).update(from: entry, count: slotWidth)
        }
        free(old)
    }
}

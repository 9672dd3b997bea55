#if canImport(Glibc)
import Glibc
#endif

/// Each point's vertices, chained: a corner's key starts with its point index, so the point picks
/// the chain and the rest of the key is compared only against vertices made from that point
/// (one or a few). The chains' heads are indexed by point and vertices are numbered as they
/// appear, so consecutive corners, which name nearby points in any real mesh, touch nearby
/// memory; a hash table touched a random slot per corner, a cache miss each.
/// A point with more than `longestChain` vertices ends the weld (nil): past that, walking its
/// chain for every corner of it would grow with the square of its corners.
final class PointChains: VertexWelder.Index, @unchecked Sendable {
    static let longestChain = 64
    let corners: Range<Int>
    private let keys: UnsafePointer<UInt32>
    private let width: Int
    /// Per point, its newest vertex plus one (0: none yet). The last slot gathers out-of-range points.
    private let heads: UnsafeMutablePointer<UInt32>
    private let pointCount: Int
    /// Per vertex, the previous vertex of its point plus one.
    private var next: [UInt32] = []
    /// For each vertex, the first corner that produced it; its key is where that corner's is.
    private(set) var firstCorners: [UInt32] = []

    private init(keys: UnsafePointer<UInt32>, width: Int, corners: Range<Int>, pointCount: Int, expectedVertices: Int) {
        self.keys = keys
        self.corners = corners
        self.width = width
        self.pointCount = pointCount
        // calloc: large blocks come from the kernel already zeroed, so the empty heads cost no fill.
        guard let memory = calloc(pointCount + 1, MemoryLayout<UInt32>.stride) else {
            fatalError("out of memory for \(pointCount) weld chains")
        }
        heads = memory.assumingMemoryBound(to: UInt32.self)
        next.reserveCapacity(expectedVertices)
        firstCorners.reserveCapacity(expectedVertices)
    }

    deinit { free(heads) }

    /// Welds `corners`, writing each one's vertex (numbered from 0 in these chains) to `vertexOf`;
    /// nil when a point has more than `longestChain` vertices.
    static func weld(_ keys: UnsafePointer<UInt32>, width: Int, corners: Range<Int>, pointCount: Int,
                     vertexOf: UnsafeMutableBufferPointer<UInt32>) -> PointChains? {
        let chains = PointChains(keys: keys, width: width, corners: corners, pointCount: pointCount,
                                 expectedVertices: min(pointCount, corners.count))
        for corner in corners {
            let key = keys + corner * width
            let head = chains.head(of: key)
            var walked = 0
            if let vertex = chains.find(key, from: chains.heads[head], walked: &walked) {
                vertexOf[corner] = vertex
            } else {
                guard walked < longestChain else { return nil }
                let vertex = UInt32(chains.firstCorners.count)
                chains.next.append(chains.heads[head])
                chains.heads[head] = vertex + 1
                chains.firstCorners.append(UInt32(corner))
                vertexOf[corner] = vertex
            }
        }
        return chains
    }

    /// The vertex whose key is `key`, when there is one.
    func find(_ key: UnsafePointer<UInt32>) -> UInt32? {
        var walked = 0
        return find(key, from: heads[head(of: key)], walked: &walked)
    }

    @inline(__always) private func head(of key: UnsafePointer<UInt32>) -> Int {
        Int(key[0]) < pointCount ? Int(key[0]) : pointCount
    }

    @inline(__always) private func find(_ key: UnsafePointer<UInt32>, from head: UInt32, walked: inout Int) -> UInt32? {
        var link = head
        while link != 0 {
            walked += 1
            let vertex = Int(link - 1)
            let known = keys + Int(firstCorners[vertex]) * width
            var same = true
            for k in 0..<width where known[k] != key[k] { same = false; break }
            if same { return UInt32(vertex) }
            link = next[vertex]
        }
        return nil
    }
}

import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Finds the distinct combinations of attribute indices among a mesh's corners: the vertices a GPU
/// format needs when positions, normals and texture coordinates are indexed separately.
///
/// Written by hand because the standard library's `Dictionary` would need one array per key and
/// its seeded SipHash per corner, and any hash spreads consecutive corners over random memory;
/// `PointChains` below finds a corner's vertex among those of its own point instead.
///
/// Large meshes are welded in two halves on two cores, each into its own chains; the second half's
/// vertices are then looked up in the first's, which keeps the numbering in order of first
/// appearance, exactly as one pass would give it.
enum VertexWelder {
    struct Result {
        /// The vertex of every corner, vertices numbered in order of first appearance.
        var vertexOfCorner: [UInt32]
        /// For each vertex, the first corner that produced it (its key is every stream there).
        var firstCorners: [UInt32]
    }

    /// `keys`: each corner's attribute indices, `width` per corner, one corner after another.
    /// `keys`' first column is the corner's point, below `pointCount` in any valid mesh (a point
    /// past it is still welded correctly, only slower).
    static func weld(keys: UnsafeBufferPointer<UInt32>, width: Int, pointCount: Int) -> Result {
        let cornerCount = width > 0 ? keys.count / width : 0
        guard cornerCount > 0, let keyBase = keys.baseAddress else { return Result(vertexOfCorner: [], firstCorners: []) }
        nonisolated(unsafe) let base = keyBase
        var firstCorners: [UInt32] = []
        let vertexOfCorner = [UInt32](unsafeUninitializedCapacity: cornerCount) { vertexOf, initialized in
            HugePages.advise(UnsafeMutableRawPointer(vertexOf.baseAddress), byteCount: cornerCount * 4)
            nonisolated(unsafe) let vertexOf = vertexOf  // each half writes only its own corners
            // Each half numbers its own vertices from 0; the second's are renumbered below.
            let halves = SplitReduction.reduce(count: cornerCount, { corners in
                [PointChains.weld(base, width: width, corners: corners, pointCount: pointCount, vertexOf: vertexOf)]
            }, +)
            guard halves.count == 2 else {
                firstCorners = halves[0].firstCorners
                initialized = cornerCount
                return
            }
            // A vertex of the second half is the first half's when its key is there; otherwise it is new,
            // and numbered after every vertex seen before it.
            let (early, late) = (halves[0], halves[1])
            firstCorners = early.firstCorners
            var renumbered = [UInt32](repeating: 0, count: late.firstCorners.count)
            for (local, corner) in late.firstCorners.enumerated() {
                let key = base + Int(corner) * width
                if let known = early.find(key) {
                    renumbered[local] = known
                } else {
                    renumbered[local] = UInt32(firstCorners.count)
                    firstCorners.append(corner)
                }
            }
            let start = cornerCount / 2
            renumbered.withUnsafeBufferPointer { renumbered in
                nonisolated(unsafe) let renumbered = renumbered
                SplitReduction.reduce(count: cornerCount - start, { part in
                    for corner in (start + part.lowerBound)..<(start + part.upperBound) {
                        vertexOf[corner] = renumbered[Int(vertexOf[corner])]
                    }
                }, { _, _ in })
            }
            initialized = cornerCount
        }
        return Result(vertexOfCorner: vertexOfCorner, firstCorners: firstCorners)
    }
}

/// Each point's vertices, chained: a corner's key starts with its point index, so the point picks
/// the chain and the rest of the key is compared only against vertices made from that point
/// (one or a few). The chains' heads are indexed by point and vertices are numbered as they
/// appear, so consecutive corners, which name nearby points in any real mesh, touch nearby
/// memory; a hash table touched a random slot per corner, a cache miss each.
final class PointChains: @unchecked Sendable {
    private let keys: UnsafePointer<UInt32>
    private let width: Int
    /// Per point, its newest vertex plus one (0: none yet). The last slot gathers out-of-range points.
    private let heads: UnsafeMutablePointer<UInt32>
    private let pointCount: Int
    /// Per vertex, the previous vertex of its point plus one.
    private var next: [UInt32] = []
    /// For each vertex, the first corner that produced it; its key is where that corner's is.
    private(set) var firstCorners: [UInt32] = []

    private init(keys: UnsafePointer<UInt32>, width: Int, pointCount: Int, expectedVertices: Int) {
        self.keys = keys
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

    /// Welds `corners`, writing each one's vertex (numbered from 0 in these chains) to `vertexOf`.
    static func weld(_ keys: UnsafePointer<UInt32>, width: Int, corners: Range<Int>, pointCount: Int,
                     vertexOf: UnsafeMutableBufferPointer<UInt32>) -> PointChains {
        let chains = PointChains(keys: keys, width: width, pointCount: pointCount,
                                 expectedVertices: min(pointCount, corners.count))
        for corner in corners {
            let key = keys + corner * width
            let head = chains.head(of: key)
            if let vertex = chains.find(key, from: chains.heads[head]) {
                vertexOf[corner] = vertex
            } else {
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
        find(key, from: heads[head(of: key)])
    }

    @inline(__always) private func head(of key: UnsafePointer<UInt32>) -> Int {
        Int(key[0]) < pointCount ? Int(key[0]) : pointCount
    }

    @inline(__always) private func find(_ key: UnsafePointer<UInt32>, from head: UInt32) -> UInt32? {
        var link = head
        while link != 0 {
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

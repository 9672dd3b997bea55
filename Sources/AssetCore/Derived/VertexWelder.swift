import Dispatch

/// Finds the distinct combinations of attribute indices among a mesh's corners: the vertices a GPU
/// format needs when positions, normals and texture coordinates are indexed separately.
///
/// Written by hand because the standard library's `Dictionary` would need one array per key and
/// its seeded SipHash per corner, and any hash spreads consecutive corners over random memory;
/// `PointChains` finds a corner's vertex among those of its own point instead, and a mesh with a
/// point of very many vertices (no real one; hostile input can) is welded by `HashedVertexKeys`.
///
/// Large meshes are welded in two halves on two cores, each into its own chains; the second half's
/// vertices are then looked up in the first's, which keeps the numbering in order of first
/// appearance, exactly as one pass would give it.
enum VertexWelder {
    /// Which vertex, if any, a key already has; and each vertex's first corner.
    protocol Index: AnyObject, Sendable {
        var firstCorners: [UInt32] { get }
        /// The corners this index numbered.
        var corners: Range<Int> { get }
        func find(_ key: UnsafePointer<UInt32>) -> UInt32?
    }

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
                if let chains = PointChains.weld(base, width: width, corners: corners, pointCount: pointCount, vertexOf: vertexOf) {
                    return [chains as any Index]
                }
                return [HashedVertexKeys.weld(base, width: width, corners: corners, expectedVertices: pointCount, vertexOf: vertexOf)]
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
            let start = late.corners.lowerBound
            renumbered.withUnsafeBufferPointer { renumbered in
                nonisolated(unsafe) let renumbered = renumbered
                SplitReduction.forEachHalf(count: late.corners.count) { part in
                    for corner in (start + part.lowerBound)..<(start + part.upperBound) {
                        vertexOf[corner] = renumbered[Int(vertexOf[corner])]
                    }
                }
            }
            initialized = cornerCount
        }
        return Result(vertexOfCorner: vertexOfCorner, firstCorners: firstCorners)
    }
}

import Dispatch

/// Triangles derived from a mesh's polygons, for renderers and triangle-only writers.
///
/// Triangles name *corners* (positions in `faceVertexIndices`) rather than points, so faceVarying
/// primvars can be looked up per corner; the point is `faceVertexIndices[corner]`.
/// Winding follows the authored polygon order.
public struct Triangulation: Sendable, Equatable {
    /// Three corners per triangle.
    public var corners: [UInt32] = []
    /// The face each triangle came from.
    public var faces: [UInt32] = []
    /// Faces with fewer than three vertices, out-of-range indices or no area: dropped, counted here.
    public var droppedFaces = 0

    public init() {}

    public var triangleCount: Int { faces.count }
}

extension Mesh {
    /// Fans convex faces and ear-clips concave ones; drops degenerate faces and counts them. A
    /// large mesh's two halves of faces are triangulated on two cores, each writing straight into
    /// the shared arrays from where its faces' room begins (a face of `n` corners gives at most
    /// `n - 2` triangles): the same triangles as one pass, with no joining copy, and each core
    /// touching its own fresh pages (a million quads took a fifth of a thumbnail's time on one core).
    public func triangulated() -> Triangulation {
        let faceCount = faceVertexCounts.count
        let halves = faceCount >= SplitReduction.threshold ? 2 : 1
        let middle = halves == 1 ? faceCount : faceCount / 2
        // Per half: its faces, the corner its first face starts at, and the triangles it has room for.
        let (firstCorner, room) = faceVertexCounts.withUnsafeBufferPointer { counts -> (Int, [Int]) in
            let corners = counts[..<middle].reduce(0) { $0 + max(Int($1), 0) }
            let first = counts[..<middle].reduce(0) { $0 + max(Int($1) - 2, 0) }
            let second = counts[middle...].reduce(0) { $0 + max(Int($1) - 2, 0) }
            return (corners, [first, second])
        }
        let total = room[0] + room[1]
        var made = [(triangles: 0, dropped: 0), (triangles: 0, dropped: 0)]
        var faceList: [UInt32] = []
        let cornerList = [UInt32](unsafeUninitializedCapacity: 3 * total) { corners, cornersInitialized in
            faceList = [UInt32](unsafeUninitializedCapacity: total) { faces, facesInitialized in
                HugePages.prefault(UnsafeMutableRawPointer(corners.baseAddress), byteCount: 3 * total * MemoryLayout<UInt32>.stride)
                HugePages.prefault(UnsafeMutableRawPointer(faces.baseAddress), byteCount: total * MemoryLayout<UInt32>.stride)
                guard let cornerBase = corners.baseAddress, let faceBase = faces.baseAddress else {
                    made[0].dropped = faceCount  // no room: every face is degenerate
                    return
                }
                guard halves == 2 else {
                    // A small mesh on this thread: waking a second for it costs more than it saves.
                    made[0] = triangulated(faces: 0..<faceCount, firstCorner: 0, corners: cornerBase, faces: faceBase)
                    facesInitialized = made[0].triangles
                    return
                }
                made.withUnsafeMutableBufferPointer { made in
                    nonisolated(unsafe) let (made, cornerBase, faceBase) = (made, cornerBase, faceBase)
                    DispatchQueue.concurrentPerform(iterations: 2) { half in
                        let at = half == 0 ? 0 : room[0]
                        made[half] = triangulated(faces: half == 0 ? 0..<middle : middle..<faceCount, firstCorner: half == 0 ? 0 : firstCorner,
                                                  corners: cornerBase + 3 * at, faces: faceBase + at)
                    }
                }
                // Degenerate faces in the first half leave a gap before the second's triangles.
                if made[0].triangles < room[0], made[1].triangles > 0 {
                    (cornerBase + 3 * made[0].triangles).moveInitialize(from: cornerBase + 3 * room[0], count: 3 * made[1].triangles)
                    (faceBase + made[0].triangles).moveInitialize(from: faceBase + room[0], count: made[1].triangles)
                }
                facesInitialized = made[0].triangles + made[1].triangles
            }
            cornersInitialized = 3 * (made[0].triangles + made[1].triangles)
        }
        var result = Triangulation()
        (result.corners, result.faces) = (cornerList, faceList)
        result.droppedFaces = made[0].dropped + made[1].dropped
        return result
    }

    /// The triangles of `faces`, the first of which starts at corner `firstCorner`, written from
    /// `corners` and `faces` on (room for `n - 2` triangles a face): how many it wrote and dropped.
    private func triangulated(faces: Range<Int>, firstCorner: Int, corners: UnsafeMutablePointer<UInt32>,
                              faces faceOut: UnsafeMutablePointer<UInt32>) -> (triangles: Int, dropped: Int) {
        var out = CornerWriter(base: corners)
        var triangles = 0, dropped = 0
        var clipper = PolygonTriangulator()
        points.withUnsafeBufferPointer { points in
            faceVertexIndices.withUnsafeBufferPointer { indices in
                faceVertexCounts.withUnsafeBufferPointer { counts in
                    var offset = firstCorner
                    for face in faces {
                        let n = Int(counts[face])
                        defer { offset += max(n, 0) }
                        guard n >= 3, offset + n <= indices.count else {
                            dropped += 1
                            continue
                        }
                        var inRange = true
                        for k in offset..<(offset + n) where indices[k] < 0 || Int(indices[k]) >= points.count {
                            inRange = false
                            break
                        }
                        guard inRange else {
                            dropped += 1
                            continue
                        }
                        let before = out.count
                        if n == 3 {
                            let a = points[Int(indices[offset])].double
                            let b = points[Int(indices[offset + 1])].double
                            let c = points[Int(indices[offset + 2])].double
                            let area2 = Vector.length(Vector.cross(b - a, c - a))
                            if area2 > 0, area2.isFinite {
                                out.append(UInt32(offset))
                                out.append(UInt32(offset + 1))
                                out.append(UInt32(offset + 2))
                            }
                        } else {
                            clipper.triangulate(face: offset..<(offset + n), indices: indices, points: points, into: &out)
                        }
                        let added = (out.count - before) / 3
                        if added == 0 { dropped += 1 }
                        for _ in 0..<added {
                            (faceOut + triangles).initialize(to: UInt32(face))
                            triangles += 1
                        }
                    }
                }
            }
        }
        return (triangles, dropped)
    }
}

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
    /// large mesh's two halves of faces are triangulated on two cores and joined in face order:
    /// the same triangles as one pass (a million quads took a fifth of a thumbnail's time on one core).
    public func triangulated() -> Triangulation {
        let faceCount = faceVertexCounts.count
        guard faceCount >= SplitReduction.threshold else { return triangulated(faces: 0..<faceCount, firstCorner: 0) }
        let middle = faceCount / 2
        let secondCorner = faceVertexCounts.withUnsafeBufferPointer { counts in counts[..<middle].reduce(0) { $0 + max(Int($1), 0) } }
        var halves = [Triangulation(), Triangulation()]
        halves.withUnsafeMutableBufferPointer { halves in
            nonisolated(unsafe) let halves = halves
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                halves[half] = half == 0 ? triangulated(faces: 0..<middle, firstCorner: 0) : triangulated(faces: middle..<faceCount, firstCorner: secondCorner)
            }
        }
        var result = Triangulation()
        result.corners = Self.joined(halves[0].corners, halves[1].corners)
        result.faces = Self.joined(halves[0].faces, halves[1].faces)
        result.droppedFaces = halves[0].droppedFaces + halves[1].droppedFaces
        return result
    }

    /// `first` then `second` in one new array, each half copied on a core of its own: appending the
    /// second half to the first made a copy of the first too, on one core.
    private static func joined(_ first: [UInt32], _ second: [UInt32]) -> [UInt32] {
        let count = first.count + second.count
        return [UInt32](unsafeUninitializedCapacity: count) { out, initialized in
            HugePages.advise(UnsafeMutableRawPointer(out.baseAddress), byteCount: count * MemoryLayout<UInt32>.stride)
            nonisolated(unsafe) let out = out
            first.withUnsafeBufferPointer { a in
                second.withUnsafeBufferPointer { b in
                    nonisolated(unsafe) let (a, b) = (a, b)
                    DispatchQueue.concurrentPerform(iterations: 2) { half in
                        let (source, at) = half == 0 ? (a, 0) : (b, a.count)
                        if let from = source.baseAddress, !source.isEmpty { (out.baseAddress! + at).initialize(from: from, count: source.count) }
                    }
                }
            }
            initialized = count
        }
    }

    /// The triangles of `faces`, the first of which starts at corner `firstCorner`.
    private func triangulated(faces: Range<Int>, firstCorner: Int) -> Triangulation {
        var result = Triangulation()
        let triangles = faceVertexCounts.withUnsafeBufferPointer { counts in counts[faces].reduce(0) { $0 + max(Int($1) - 2, 0) } }
        result.corners.reserveCapacity(triangles * 3)
        result.faces.reserveCapacity(triangles)
        HugePages.advise(&result.corners)
        HugePages.advise(&result.faces)
        var clipper = PolygonTriangulator()
        points.withUnsafeBufferPointer { points in
            faceVertexIndices.withUnsafeBufferPointer { indices in
                faceVertexCounts.withUnsafeBufferPointer { counts in
                    var offset = firstCorner
                    for face in faces {
                        let n = Int(counts[face])
                        defer { offset += max(n, 0) }
                        guard n >= 3, offset + n <= indices.count else {
                            result.droppedFaces += 1
                            continue
                        }
                        var inRange = true
                        for k in offset..<(offset + n) where indices[k] < 0 || Int(indices[k]) >= points.count {
                            inRange = false
                            break
                        }
                        guard inRange else {
                            result.droppedFaces += 1
                            continue
                        }
                        let before = result.corners.count
                        if n == 3 {
                            let a = points[Int(indices[offset])].double
                            let b = points[Int(indices[offset + 1])].double
                            let c = points[Int(indices[offset + 2])].double
                            let area2 = Vector.length(Vector.cross(b - a, c - a))
                            if area2 > 0, area2.isFinite {
                                // Three appends, not an array literal: that would allocate per triangle.
                                result.corners.append(UInt32(offset))
                                result.corners.append(UInt32(offset + 1))
                                result.corners.append(UInt32(offset + 2))
                            }
                        } else {
                            clipper.triangulate(
                                face: offset..<(offset + n), indices: indices, points: points,
                                into: &result.corners)
                        }
                        let added = (result.corners.count - before) / 3
                        if added == 0 {
                            result.droppedFaces += 1
                        } else {
                            // One append a triangle: `append(contentsOf: repeatElement(...))` was a generic call a face.
                            for _ in 0..<added { result.faces.append(UInt32(face)) }
                        }
                    }
                }
            }
        }
        return result
    }
}

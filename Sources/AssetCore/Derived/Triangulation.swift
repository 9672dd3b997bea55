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
    /// Fans convex faces and ear-clips concave ones; drops degenerate faces and counts them.
    public func triangulated() -> Triangulation {
        var result = Triangulation()
        result.corners.reserveCapacity(triangleCount * 3)
        result.faces.reserveCapacity(triangleCount)
        var clipper = PolygonTriangulator()
        points.withUnsafeBufferPointer { points in
            faceVertexIndices.withUnsafeBufferPointer { indices in
                faceVertexCounts.withUnsafeBufferPointer { counts in
                    var offset = 0
                    for face in 0..<counts.count {
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
                            result.faces.append(contentsOf: repeatElement(UInt32(face), count: added))
                        }
                    }
                }
            }
        }
        return result
    }
}

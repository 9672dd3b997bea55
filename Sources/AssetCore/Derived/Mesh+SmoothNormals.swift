extension Mesh {
    /// Smooth per-point normals: each point's is the area-weighted sum of its faces' normals,
    /// following the mesh's orientation. Points on no face get +Y. `triangulation`, when the
    /// caller has it, is this mesh's own (`triangulated()`), not made again.
    public func smoothNormals(triangulation given: Triangulation? = nil) -> [SIMD3<Float>] {
        var sums = [SIMD3<Double>](repeating: .zero, count: points.count)
        let triangulation = given ?? triangulated()
        let sign: Double = orientation == .leftHanded ? -1 : 1
        points.withUnsafeBufferPointer { points in
            faceVertexIndices.withUnsafeBufferPointer { fvi in
                triangulation.corners.withUnsafeBufferPointer { corners in
                    for t in 0..<triangulation.triangleCount {
                        let a = Int(fvi[Int(corners[3 * t])]), b = Int(fvi[Int(corners[3 * t + 1])]), c = Int(fvi[Int(corners[3 * t + 2])])
                        // Twice the triangle's area along its normal: larger faces weigh more.
                        let n = Vector.cross(points[b].double - points[a].double, points[c].double - points[a].double) * sign
                        sums[a] += n; sums[b] += n; sums[c] += n
                    }
                }
            }
        }
        return SplitReduction.map(sums) { s in
            let l = Vector.length(s)
            return l > 0 ? SIMD3(Float(s.x / l), Float(s.y / l), Float(s.z / l)) : SIMD3(0, 1, 0)
        }
    }
}

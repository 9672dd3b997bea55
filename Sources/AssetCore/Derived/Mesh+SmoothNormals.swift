import Dispatch

extension Mesh {
    /// Smooth per-point normals: each point's is the area-weighted sum of its faces' normals,
    /// following the mesh's orientation. Points on no face get +Y. `triangulation`, when the
    /// caller has it, is this mesh's own (`triangulated()`), not made again.
    ///
    /// A large mesh's points are summed in two halves on two cores, each walking every triangle
    /// but adding only into its own points: each sum takes its faces in the same order as on one
    /// core, so the normals are the same to the bit.
    public func smoothNormals(triangulation given: Triangulation? = nil) -> [SIMD3<Float>] {
        let count = points.count
        let triangulation = given ?? triangulated()
        let sign: Double = orientation == .leftHanded ? -1 : 1
        let pointCount = points.count, split = pointCount / 2
        let halves = triangulation.triangleCount >= SplitReduction.threshold ? 2 : 1
        let sums = [SIMD3<Double>](unsafeUninitializedCapacity: count) { buffer, initialized in
            HugePages.prefault(UnsafeMutableRawPointer(buffer.baseAddress), byteCount: count * MemoryLayout<SIMD3<Double>>.stride)
            points.withUnsafeBufferPointer { points in
                faceVertexIndices.withUnsafeBufferPointer { fvi in
                    triangulation.corners.withUnsafeBufferPointer { corners in
                        nonisolated(unsafe) let (points, fvi, corners, sums) = (points, fvi, corners, buffer)
                        DispatchQueue.concurrentPerform(iterations: halves) { half in
                            let own = halves == 1 ? 0..<pointCount : half == 0 ? 0..<split : split..<pointCount
                            // Each half clears its own points, whose pages `prefault` made present.
                            if !own.isEmpty { (sums.baseAddress! + own.lowerBound).initialize(repeating: .zero, count: own.count) }
                            for t in 0..<triangulation.triangleCount {
                                let a = Int(fvi[Int(corners[3 * t])]), b = Int(fvi[Int(corners[3 * t + 1])]), c = Int(fvi[Int(corners[3 * t + 2])])
                                guard own.contains(a) || own.contains(b) || own.contains(c) else { continue }
                                // Twice the triangle's area along its normal: larger faces weigh more.
                                let n = Vector.cross(points[b].double - points[a].double, points[c].double - points[a].double) * sign
                                if own.contains(a) { sums[a] += n }
                                if own.contains(b) { sums[b] += n }
                                if own.contains(c) { sums[c] += n }
                            }
                        }
                    }
                }
            }
            initialized = count
        }
        return SplitReduction.map(sums) { s in
            let l = Vector.length(s)
            return l > 0 ? SIMD3(Float(s.x / l), Float(s.y / l), Float(s.z / l)) : SIMD3(0, 1, 0)
        }
    }
}

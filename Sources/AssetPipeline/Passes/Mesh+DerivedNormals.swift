import AssetCore

/// Normals made again for a simplified mesh whose welding joined corners that had told normals apart.
extension Mesh {
    /// One normal per face, as face-varying values: a faceted mesh stays faceted.
    func flatNormals(named name: String) -> Primvar {
        var normals: [SIMD3<Float>] = []
        var indices: [Int32] = []
        var offset = 0
        for count in faceVertexCounts {
            let n = Int(count)
            let normal = n >= 3 ? faceNormal(offset, n) : SIMD3<Float>(0, 0, 1)
            normals.append(normal)
            indices += Array(repeating: Int32(normals.count - 1), count: n)
            offset += n
        }
        return Primvar(name: name, interpolation: .faceVarying, values: .float3(normals), indices: indices, role: .normal)
    }

    /// One normal per point, the area-weighted mean of its faces' normals.
    func smoothNormals(named name: String) -> Primvar {
        var sums = [SIMD3<Float>](repeating: .zero, count: points.count)
        var offset = 0
        for count in faceVertexCounts {
            let n = Int(count)
            if n >= 3 {
                let weighted = faceNormal(offset, n, normalized: false)
                for k in offset..<(offset + n) { sums[Int(faceVertexIndices[k])] += weighted }
            }
            offset += n
        }
        let normals = sums.map { s -> SIMD3<Float> in
            let length = (s * s).sum().squareRoot()
            return length > 0 ? s / length : SIMD3(0, 0, 1)
        }
        return Primvar(name: name, interpolation: .vertex, values: .float3(normals), role: .normal)
    }

    /// Newell's normal of the face starting at `offset`: twice its area long unless normalized.
    private func faceNormal(_ offset: Int, _ n: Int, normalized: Bool = true) -> SIMD3<Float> {
        var normal = SIMD3<Float>.zero
        for k in 0..<n {
            let a = points[Int(faceVertexIndices[offset + k])], b = points[Int(faceVertexIndices[offset + (k + 1) % n])]
            normal += SIMD3((a.y - b.y) * (a.z + b.z), (a.z - b.z) * (a.x + b.x), (a.x - b.x) * (a.y + b.y))
        }
        guard normalized else { return normal }
        let length = (normal * normal).sum().squareRoot()
        return length > 0 ? normal / length : SIMD3(0, 0, 1)
    }
}

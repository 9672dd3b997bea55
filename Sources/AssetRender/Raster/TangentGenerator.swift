/// Tangents for normal maps on meshes that bring none, made as MikkTSpace makes them: each
/// triangle's tangent and bitangent from how its texture coordinates run over it, the handedness
/// (mirrored coordinates) from the bitangent against normal × tangent, then the normalized
/// tangents of the triangles sharing a texture coordinate and a handedness summed, so a mirror
/// seam keeps two frames. The shader makes the sum orthogonal to the fragment's normal.
/// Contiguous arrays indexed by the texcoord value, no hashing.
enum TangentGenerator {
    static func tangents(positions: [SIMD3<Float>], indices: [UInt32], normals: CornerAttribute<SIMD3<Float>>,
                         texcoords: CornerAttribute<SIMD2<Float>>?) -> CornerAttribute<SIMD4<Float>>? {
        guard let texcoords, !texcoords.values.isEmpty else { return nil }
        let triangles = indices.count / 3
        // Slot 2k for texcoord value k on right-handed triangles, 2k + 1 on mirrored ones.
        var sums = [SIMD3<Float>](repeating: .zero, count: texcoords.values.count * 2)
        var cornerSlots = [UInt32](repeating: 0, count: indices.count)
        for t in 0..<triangles {
            let p0 = positions[Int(indices[3 * t])], p1 = positions[Int(indices[3 * t + 1])], p2 = positions[Int(indices[3 * t + 2])]
            let (s0, s1, s2) = texcoords.corners(of: t)
            let e1 = p1 - p0, e2 = p2 - p0, d1 = s1 - s0, d2 = s2 - s0
            let det = d1.x * d2.y - d2.x * d1.y
            var tangent = SIMD3<Float>.zero
            var sign: Float = 1
            if det != 0 && det.isFinite {
                tangent = (e1 * d2.y - e2 * d1.y) / det
                let bitangent = (e2 * d1.x - e1 * d2.x) / det
                let (n0, n1, n2) = normals.corners(of: t)
                let n = n0 + n1 + n2
                sign = (SurfaceShader.cross(n, tangent) * bitangent).sum() < 0 ? -1 : 1
                let length = (tangent * tangent).sum().squareRoot()
                tangent = length > 0 && length.isFinite ? tangent / length : .zero
            }
            for k in 0..<3 {
                let slot = Int(texcoords.indices[3 * t + k]) * 2 + (sign < 0 ? 1 : 0)
                sums[slot] += tangent
                cornerSlots[3 * t + k] = UInt32(slot)
            }
        }
        let values = sums.enumerated().map { slot, sum in SIMD4(sum.x, sum.y, sum.z, slot % 2 == 1 ? -1 : 1) }
        return CornerAttribute(values: values, indices: cornerSlots)
    }
}

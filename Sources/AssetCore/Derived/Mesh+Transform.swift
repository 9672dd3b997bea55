extension Matrix4x4 {
    /// Points under this transform, computed in double precision and rounded back to float.
    public func transformedPoints(_ points: [SIMD3<Float>]) -> [SIMD3<Float>] {
        if isIdentity { return points }
        let matrix = self
        return SplitReduction.map(points) { p in
            let q = matrix.transformPoint(p.double)
            return SIMD3(Float(q.x), Float(q.y), Float(q.z))
        }
    }

    /// Normals under the inverse transpose (so they stay perpendicular to sheared or unevenly
    /// scaled surfaces), unit length; nil when the transform is singular and normals have no image.
    public func transformedNormals(_ normals: [SIMD3<Float>]) -> [SIMD3<Float>]? {
        guard let normalMatrix = inverse?.transposed else { return nil }
        return SplitReduction.map(normals) { n in
            let m = Vector.normalize(normalMatrix.transformDirection(n.double))
            return SIMD3(Float(m.x), Float(m.y), Float(m.z))
        }
    }
}

extension Mesh {
    /// The mesh with its points and normal primvars under a transform. Normals are left as they are
    /// when the transform is singular. Winding is the caller's concern (a mirror flips it).
    public mutating func transform(by matrix: Matrix4x4) {
        guard !matrix.isIdentity else { return }
        points = matrix.transformedPoints(points)
        for i in primvars.indices where primvars[i].role == .normal || primvars[i].name == Primvar.normalsName {
            if case .float3(let normals) = primvars[i].values, let moved = matrix.transformedNormals(normals) {
                primvars[i].values = .float3(moved)
            }
        }
    }
}

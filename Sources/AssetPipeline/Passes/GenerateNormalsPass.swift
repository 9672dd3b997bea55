import AssetCore

/// Gives meshes without normals smooth per-point normals: each point's is the area-weighted sum of
/// its faces' normals, following the mesh's orientation.
public struct GenerateNormalsPass: ScenePass {
    public let name = "generate normals"

    public init() {}

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        for i in scene.meshes.indices where scene.meshes[i].normals == nil && !scene.meshes[i].points.isEmpty {
            scene.meshes[i].primvars.append(Self.smoothNormals(scene.meshes[i]))
        }
    }

    static func smoothNormals(_ mesh: Mesh) -> Primvar {
        var sums = [SIMD3<Double>](repeating: .zero, count: mesh.points.count)
        let triangulation = mesh.triangulated()
        let sign: Double = mesh.orientation == .leftHanded ? -1 : 1
        mesh.points.withUnsafeBufferPointer { points in
            mesh.faceVertexIndices.withUnsafeBufferPointer { fvi in
                for t in 0..<triangulation.triangleCount {
                    let a = Int(fvi[Int(triangulation.corners[3 * t])])
                    let b = Int(fvi[Int(triangulation.corners[3 * t + 1])])
                    let c = Int(fvi[Int(triangulation.corners[3 * t + 2])])
                    // Twice the triangle's area along its normal: larger faces weigh more.
                    let n = cross(points[b].double - points[a].double, points[c].double - points[a].double) * sign
                    sums[a] += n; sums[b] += n; sums[c] += n
                }
            }
        }
        let normals = sums.map { s -> SIMD3<Float> in
            let l = length(s)
            return l > 0 ? SIMD3(Float(s.x / l), Float(s.y / l), Float(s.z / l)) : SIMD3(0, 1, 0)
        }
        return Primvar(name: Primvar.normalsName, interpolation: .vertex, values: .float3(normals), role: .normal)
    }
}

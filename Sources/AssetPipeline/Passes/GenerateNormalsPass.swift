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
        Primvar(name: Primvar.normalsName, interpolation: .vertex, values: .float3(mesh.smoothNormals()), role: .normal)
    }
}

import AssetCore
import Testing
@testable import FormatFBX

/// The geometry layers the writer derives: each edge listed once, and smoothing from the normals.
@Suite struct FBXWriterGeometryTests {
    /// A unit cube of 8 shared points and 6 quads (wound outwards).
    static func cube(normals: Primvar?) -> Mesh {
        var mesh = Mesh(name: "cube", points: [SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(1, 1, 0), SIMD3(0, 1, 0),
                                               SIMD3(0, 0, 1), SIMD3(1, 0, 1), SIMD3(1, 1, 1), SIMD3(0, 1, 1)],
                        faceVertexCounts: [4, 4, 4, 4, 4, 4],
                        faceVertexIndices: [0, 3, 2, 1, 4, 5, 6, 7, 0, 1, 5, 4, 2, 3, 7, 6, 1, 2, 6, 5, 0, 4, 7, 3])
        if let normals { mesh.primvars = [normals] }
        return mesh
    }

    @Test func everyEdgeIsListedOnceWithItsTwin() {
        let edges = FBXSceneEncoder.edges(Self.cube(normals: nil))
        #expect(edges.firstCorners.count == 12)
        #expect(edges.twinCorner.allSatisfy { $0 >= 0 }, "a closed cube has no border edge")
        var uses = [Int](repeating: 0, count: 12)
        for e in edges.edgeOfCorner { uses[Int(e)] += 1 }
        #expect(uses.allSatisfy { $0 == 2 }, "each edge starts one corner on either side")
    }

    @Test func faceNormalsMakeEveryEdgeHardAndPointNormalsNone() {
        let faceNormals: [SIMD3<Float>] = [SIMD3(0, 0, -1), SIMD3(0, 0, 1), SIMD3(0, -1, 0), SIMD3(0, 1, 0), SIMD3(1, 0, 0), SIMD3(-1, 0, 0)]
        let flat = Primvar(name: Primvar.normalsName, interpolation: .uniform, values: .float3(faceNormals), role: .normal)
        let mesh = Self.cube(normals: flat)
        let hard = FBXSceneEncoder.smoothEdges(FBXSceneEncoder.edges(mesh), normals: FBXSceneEncoder.cornerNormals(flat, mesh: mesh))
        #expect(hard == [Int32](repeating: 0, count: 12))
        let pointNormals = mesh.points.map { Vector.normalize($0 - SIMD3(repeating: 0.5)) }
        let smooth = Primvar(name: Primvar.normalsName, interpolation: .vertex, values: .float3(pointNormals), role: .normal)
        let round = Self.cube(normals: smooth)
        #expect(FBXSceneEncoder.smoothEdges(FBXSceneEncoder.edges(round), normals: FBXSceneEncoder.cornerNormals(smooth, mesh: round))
                == [Int32](repeating: 1, count: 12))
    }
}

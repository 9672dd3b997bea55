import AssetTestSupport
import Testing
@testable import AssetCore

/// Unwelding separately indexed meshes (real exports) against a plain reference: a dictionary
/// keyed by each corner's indices, which is what the hash table replaced.
@Suite struct UnweldTests {
    /// A triangle mesh whose normals and texture coordinates are faceVarying and indexed in their
    /// own orders, with repeats, so corners share some vertices and not others.
    static func exportShaped(points: Int, triangles: Int, seed: UInt64) -> Mesh {
        var random = SeededGenerator(seed: seed)
        let positions = (0..<points).map { i in SIMD3<Float>(Float(i), Float(i % 7), Float(i % 3)) }
        let indices = (0..<(3 * triangles)).map { _ in Int32(random.next() % UInt64(points)) }
        let normalValues = (0..<(points / 2 + 1)).map { i in SIMD3<Float>(0, 1, Float(i)) }
        let uvValues = (0..<(points / 3 + 1)).map { i in SIMD2<Float>(Float(i), -Float(i)) }
        // Each corner's normal and uv follow its point loosely: the same point often, not always, has the same ones.
        let normalIndices = indices.map { Int32((Int($0) + Int(random.next() % 2)) % normalValues.count) }
        let uvIndices = indices.map { Int32((Int($0) * 5 + Int(random.next() % 3)) % uvValues.count) }
        return Mesh(name: "Export", points: positions, faceVertexCounts: Array(repeating: 3, count: triangles), faceVertexIndices: indices,
                    primvars: [Primvar(name: Primvar.normalsName, interpolation: .faceVarying, values: .float3(normalValues),
                                       indices: normalIndices, role: .normal),
                               Primvar(name: "st", interpolation: .faceVarying, values: .float2(uvValues),
                                       indices: uvIndices, role: .textureCoordinate)])
    }

    @Test(arguments: [(10, 40, 1), (500, 3000, 2), (5000, 20000, 3)] as [(Int, Int, UInt64)])
    func separatelyIndexedMeshesUnweldLikeADictionaryWould(points: Int, triangles: Int, seed: UInt64) {
        let mesh = Self.exportShaped(points: points, triangles: triangles, seed: seed)
        let corners = (0..<UInt32(mesh.faceVertexIndices.count)).map { $0 }
        let unwelded = mesh.unwelded(corners: corners)

        // The reference: first appearance numbers each distinct (point, normal, uv) triple.
        let normalIndices = mesh.normals!.indices!, uvIndices = mesh.texcoordSets[0].indices!
        var numbering: [[Int32]: UInt32] = [:]
        var expectedIndices: [UInt32] = []
        for c in corners.map(Int.init) {
            let key = [mesh.faceVertexIndices[c], normalIndices[c], uvIndices[c]]
            if numbering[key] == nil { numbering[key] = UInt32(numbering.count) }
            expectedIndices.append(numbering[key]!)
        }
        #expect(unwelded.indices == expectedIndices)
        #expect(unwelded.positions.count == numbering.count)
        guard case .float3(let normals) = mesh.normals!.values, case .float2(let uvs) = mesh.texcoordSets[0].values else {
            Issue.record("fixture primvars changed type"); return
        }
        for c in corners.map(Int.init) {
            let v = Int(unwelded.indices[c])
            #expect(unwelded.positions[v] == mesh.points[Int(mesh.faceVertexIndices[c])])
            #expect(unwelded.normals?[v] == normals[Int(normalIndices[c])])
            #expect(unwelded.texcoords[0][v] == uvs[Int(uvIndices[c])])
        }
    }

    @Test func perPointAttributesKeepThePointsAsTheyAre() {
        var mesh = Self.exportShaped(points: 50, triangles: 60, seed: 4)
        mesh.primvars = [Primvar(name: Primvar.normalsName, interpolation: .vertex,
                                 values: .float3(mesh.points.map { SIMD3($0.z, $0.y, $0.x) }), role: .normal)]
        let corners = (0..<UInt32(mesh.faceVertexIndices.count)).map { $0 }
        let unwelded = mesh.unwelded(corners: corners)
        #expect(unwelded.positions == mesh.points)
        #expect(unwelded.indices == mesh.faceVertexIndices.map { UInt32($0) })
    }

    @Test func valueIndicesFollowEachInterpolation() {
        let mesh = Mesh(name: "Two quads", points: (0..<6).map { SIMD3(Float($0), 0, 0) }, faceVertexCounts: [4, 4],
                        faceVertexIndices: [0, 1, 4, 3, 1, 2, 5, 4])
        let corners: [UInt32] = [7, 0, 5]
        func indices(_ interpolation: Primvar.Interpolation, _ primvarIndices: [Int32]? = nil) -> [UInt32] {
            mesh.valueIndices(of: Primvar(name: "p", interpolation: interpolation, values: .float([]), indices: primvarIndices), corners: corners)
        }
        #expect(indices(.constant) == [0, 0, 0])
        #expect(indices(.constant, [2]) == [2, 2, 2])
        #expect(indices(.uniform) == [1, 0, 1])
        #expect(indices(.uniform, [9, 8]) == [8, 9, 8])
        #expect(indices(.vertex) == [4, 0, 2])
        #expect(indices(.faceVarying) == [7, 0, 5])
        #expect(indices(.faceVarying, [10, 11, 12, 13, 14, 15, 16, 17]) == [17, 10, 15])
        #expect(mesh.cornerElementIndices(of: Primvar(name: "p", interpolation: .uniform, values: .float([]))) == [0, 0, 0, 0, 1, 1, 1, 1])
    }
}

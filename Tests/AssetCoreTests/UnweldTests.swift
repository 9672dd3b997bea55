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

    /// Past `SplitReduction.threshold` corners the weld runs in two halves, whose numbering must
    /// join as if one pass had made it; nil corners mean every corner in order.
    @Test func aMeshWeldedInTwoHalvesIsNumberedLikeOnePass() {
        let mesh = Self.exportShaped(points: 40_000, triangles: 120_000, seed: 5)
        #expect(mesh.faceVertexIndices.count >= SplitReduction.threshold)
        let unwelded = mesh.unwelded(corners: nil)
        let normalIndices = mesh.normals!.indices!, uvIndices = mesh.texcoordSets[0].indices!
        var numbering: [SIMD3<Int32>: UInt32] = [:]
        var expectedIndices: [UInt32] = []
        expectedIndices.reserveCapacity(mesh.faceVertexIndices.count)
        for c in mesh.faceVertexIndices.indices {
            let key = SIMD3(mesh.faceVertexIndices[c], normalIndices[c], uvIndices[c])
            if let known = numbering[key] { expectedIndices.append(known); continue }
            numbering[key] = UInt32(numbering.count)
            expectedIndices.append(numbering[key]!)
        }
        // The first corner numbered differently, not the whole arrays, when it fails.
        func firstDifference(_ a: [UInt32], _ b: [UInt32]) -> Int? {
            a.count != b.count ? -1 : a.indices.first { a[$0] != b[$0] }
        }
        #expect(firstDifference(unwelded.indices, expectedIndices) == nil)
        #expect(unwelded.positions.count == numbering.count)
        #expect(unwelded.sourcePoints?.count == numbering.count)
        let identity = mesh.unwelded(corners: (0..<UInt32(mesh.faceVertexIndices.count)).map { $0 })
        #expect(firstDifference(identity.indices, unwelded.indices) == nil)
        #expect(identity.normals == unwelded.normals)
        #expect(identity.texcoords == unwelded.texcoords)
    }

    /// A point index past the mesh's points (which a valid mesh never has) still welds by its whole
    /// key, in the one chain such points share.
    @Test func pointsPastTheCountStillWeldByTheirWholeKey() {
        let keys: [UInt32] = [7, 1, 9, 1, 7, 1, 9, 2, 2, 1, 7, 2]
        let welded = keys.withUnsafeBufferPointer { VertexWelder.weld(keys: $0, width: 2, pointCount: 3) }
        #expect(welded.vertexOfCorner == [0, 1, 0, 2, 3, 4])
        #expect(welded.firstCorners == [0, 1, 3, 4, 5])
    }

    /// One point with a vertex per corner (hostile, no real mesh has it) must not walk a chain per
    /// corner: past `PointChains.longestChain` the table takes over, numbering alike.
    @Test(.timeLimit(.minutes(1)), arguments: [1_000, 300_000])
    func onePointWithThousandsOfVerticesIsHashedNotChained(corners: Int) {
        let keys = (0..<corners).flatMap { c -> [UInt32] in [0, UInt32(c / 2), 7] }
        let welded = keys.withUnsafeBufferPointer { VertexWelder.weld(keys: $0, width: 3, pointCount: 1) }
        #expect(welded.vertexOfCorner.count == corners)
        #expect(welded.vertexOfCorner.indices.first { welded.vertexOfCorner[$0] != UInt32($0 / 2) } == nil)
        #expect(welded.firstCorners == (0..<UInt32((corners + 1) / 2)).map { $0 * 2 })
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

import AssetCore
import Foundation
import Testing
@testable import FormatFBX

/// layers.fbx (Tests/Fixtures/fbx/ascii/make_ascii_fixtures.py): one strip of two quads and a
/// triangle, three times, each time with its layer elements in other mapping and reference modes.
/// Whatever the mode, every corner must come out with the value the fixture's formula gives it:
/// UV = (x / 3, y) of the corner's point, colour = (v / 7, 0, 1 - v / 7) of point v, and so on.
@Suite struct FBXLayersTests {
    static let scene: Scene = {
        let url = FBXRecordsTests.fixtures.appendingPathComponent("ascii/layers.fbx")
        do throws(AssetError) { return try FBXReader().read(from: url, options: ReadOptions()).scene } catch {
            fatalError("layers.fbx does not read: \(error)")
        }
    }()

    static func mesh(_ name: String) throws -> Mesh {
        try #require(scene.meshes.first { $0.name == name })
    }

    /// A primvar's value at every corner, through its interpolation and indices.
    static func corners(_ primvar: Primvar, _ mesh: Mesh) -> [SIMD4<Float>] {
        let values: [SIMD4<Float>] = switch primvar.values {
        case .float(let v): v.map { SIMD4($0, 0, 0, 0) }
        case .float2(let v): v.map { SIMD4($0.x, $0.y, 0, 0) }
        case .float3(let v): v.map { SIMD4($0.x, $0.y, $0.z, 0) }
        case .float4(let v): v
        }
        var out: [SIMD4<Float>] = []
        var corner = 0
        for (face, count) in mesh.faceVertexCounts.enumerated() {
            for _ in 0..<Int(count) {
                let element = switch primvar.interpolation {
                case .constant: 0
                case .uniform: face
                case .vertex, .varying: Int(mesh.faceVertexIndices[corner])
                case .faceVarying: corner
                }
                out.append(values[Int(primvar.indices?[element] ?? Int32(element))])
                corner += 1
            }
        }
        return out
    }

    static func expectEach(_ mesh: Mesh, _ name: String, _ expected: (Int, Int, Int) -> SIMD4<Float>) throws {
        let primvar = try #require(mesh.primvar(named: name), "\(mesh.name) has no \(name)")
        let got = corners(primvar, mesh)
        var corner = 0, next = 0
        for (face, count) in mesh.faceVertexCounts.enumerated() {
            for k in 0..<Int(count) {
                let point = Int(mesh.faceVertexIndices[corner]), following = Int(mesh.faceVertexIndices[next + (k + 1) % Int(count)])
                #expect(((got[corner] - expected(point, face, following)) * (got[corner] - expected(point, face, following))).sum() < 1e-10,
                        "\(mesh.name).\(name) at corner \(corner): \(got[corner]) is not \(expected(point, face, following))")
                corner += 1
            }
            next += Int(count)
        }
    }

    static func uv(_ point: Int) -> SIMD4<Float> {
        let x = [0, 1, 2, 0, 1, 2, 3][point], y = [0, 0, 0, 1, 1, 1, 1][point]
        return SIMD4(Float(x) / 3, Float(y), 0, 0)
    }

    @Test func byPolygonVertexAndByVerticeCorners() throws {
        let mesh = try Self.mesh("Corners")
        try Self.expectEach(mesh, "st") { point, _, _ in Self.uv(point) }           // ByPolygonVertex IndexToDirect
        try Self.expectEach(mesh, "st1") { point, _, _ in Self.uv(point) * 0.5 }     // ByPolygonVertex Direct
        try Self.expectEach(mesh, "normals") { _, _, _ in SIMD4(0, 0, 1, 0) }        // ByPolygonVertex Direct
        try Self.expectEach(mesh, Primvar.displayColorName) { point, _, _ in         // ByVertice Direct
            SIMD4(Float(point) / 7, 0, 1 - Float(point) / 7, 1)
        }
        // ByPolygon materials [0, 1, 0]: Red, Green, Red.
        let node = try #require(Self.scene.root.children.first { $0.name == "Corners" })
        let instance = try #require(node.meshInstances.first)
        let names = zip(mesh.subsets, instance.subsetMaterials).map { ($0.faceIndices, $1.map { Self.scene.materials[$0].name }) }
        #expect(names.map(\.0) == [[0, 2], [1]] && names.map(\.1) == ["Red", "Green"])
    }

    @Test func byVerticeIndexToDirectAndByPolygonColours() throws {
        let mesh = try Self.mesh("Points")
        let normals: [SIMD4<Float>] = [SIMD4(0, 0, 1, 0), SIMD4(0, 0.6, 0.8, 0)]
        try Self.expectEach(mesh, "normals") { point, _, _ in normals[[0, 0, 1, 0, 1, 1, 0][point]] }
        try Self.expectEach(mesh, "st") { point, _, _ in Self.uv(point) }            // ByVertice Direct
        try Self.expectEach(mesh, Primvar.displayColorName) { _, face, _ in          // ByPolygon IndexToDirect
            face == 1 ? SIMD4(0, 1, 0, 1) : SIMD4(1, 0, 0, 1)
        }
        // AllSame material slot 1: every face Green.
        let instance = try #require(Self.scene.root.children.first { $0.name == "Points" }?.meshInstances.first)
        #expect(mesh.subsets.map(\.faceIndices) == [[0, 1, 2]] && instance.subsetMaterials.map { $0.map { Self.scene.materials[$0].name } } == ["Green"])
    }

    @Test func byPolygonIndexAllSameAndByEdge() throws {
        let mesh = try Self.mesh("Faces")
        try Self.expectEach(mesh, "normals") { _, face, _ in face == 2 ? SIMD4(0, 0.6, 0.8, 0) : SIMD4(0, 0, 1, 0) }  // ByPolygon Direct
        try Self.expectEach(mesh, "st") { point, _, _ in Self.uv(point) }            // ByPolygonVertex Index
        try Self.expectEach(mesh, Primvar.displayColorName) { _, _, _ in SIMD4(0.2, 0.4, 0.6, 1) }  // AllSame
        // ByEdge: each corner reads the edge to the next corner, whichever polygon listed it.
        try Self.expectEach(mesh, "st1") { point, _, following in SIMD4(Float(min(point, following)), Float(max(point, following)), 0, 0) }
    }
}

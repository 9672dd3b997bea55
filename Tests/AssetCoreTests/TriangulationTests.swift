import Testing
@testable import AssetCore

@Suite struct TriangulationTests {
    @Test func convexQuadIsFanned() {
        let t = TestScenes.quad.triangulated()
        #expect(t.corners == [0, 1, 2, 0, 2, 3])
        #expect(t.faces == [0, 0])
        #expect(t.droppedFaces == 0)
    }

    @Test func concaveHexagonIsEarClippedWithItsArea() {
        let mesh = TestScenes.lShape
        let t = mesh.triangulated()
        #expect(t.triangleCount == 4)
        let triangles = trianglePoints(mesh, t)
        let area = triangles.map { triangleArea($0.0, $0.1, $0.2) }.reduce(0, +)
        #expect(abs(area - 3) < 1e-9, "a fan from vertex 0 would cover area outside the L")
        // Winding kept: every triangle faces +Z like the polygon.
        for (a, b, c) in triangles {
            #expect(Vector.cross(b.double - a.double, c.double - a.double).z > 0)
        }
    }

    @Test func concaveClockwisePolygonKeepsItsWinding() {
        var mesh = TestScenes.lShape
        mesh.faceVertexIndices.reverse()  // now clockwise from +Z, normal -Z
        let t = mesh.triangulated()
        let triangles = trianglePoints(mesh, t)
        #expect(t.triangleCount == 4)
        #expect(abs(triangles.map { triangleArea($0.0, $0.1, $0.2) }.reduce(0, +) - 3) < 1e-9)
        for (a, b, c) in triangles {
            #expect(Vector.cross(b.double - a.double, c.double - a.double).z < 0)
        }
    }

    @Test func concavePolygonInAnotherPlaneIsClippedThere() {
        // The L hexagon rotated into the YZ plane.
        var mesh = TestScenes.lShape
        mesh.points = mesh.points.map { SIMD3($0.z, $0.x, $0.y) }
        let t = mesh.triangulated()
        let area = trianglePoints(mesh, t).map { triangleArea($0.0, $0.1, $0.2) }.reduce(0, +)
        #expect(t.triangleCount == 4)
        #expect(abs(area - 3) < 1e-9)
    }

    @Test func degenerateFacesAreDroppedAndCounted() {
        let mesh = Mesh(
            name: "Broken",
            points: [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]],
            faceVertexCounts: [2, 3, 3, 3, 4],
            faceVertexIndices: [0, 1,  // a line
                                0, 1, 2,  // collinear
                                0, 0, 3,  // repeated vertex
                                0, 1, 3,  // the only good triangle
                                0, 1, 2, 9])  // out-of-range index
        let t = mesh.triangulated()
        #expect(t.faces == [3])
        #expect(t.corners == [8, 9, 10])  // corners 0-1, 2-4 and 5-7 belong to the faces before
        #expect(t.droppedFaces == 4)
    }

    @Test func selfIntersectingPolygonStillYieldsTriangles() {
        // A bow tie: no ear exists after the first cut on some orders; the fallback must terminate.
        let mesh = Mesh(
            name: "BowTie",
            points: [[0, 0, 0], [2, 2, 0], [2, 0, 0], [0, 2, 0], [-1, 1, 0]],
            faceVertexCounts: [5],
            faceVertexIndices: [0, 1, 2, 3, 4])
        let t = mesh.triangulated()
        #expect(t.triangleCount == 3)
    }

    @Test func emptyMeshHasNoTriangles() {
        let t = Mesh(name: "Empty").triangulated()
        #expect(t.triangleCount == 0)
        #expect(t.droppedFaces == 0)
    }

    @Test func triangleCountFigureCountsNMinusTwo() {
        let mesh = Mesh(name: "Mixed", points: Array(repeating: .zero, count: 5),
                        faceVertexCounts: [3, 4, 5, 2, 1], faceVertexIndices: Array(repeating: 0, count: 15))
        #expect(mesh.triangleCount == 1 + 2 + 3)
    }
}

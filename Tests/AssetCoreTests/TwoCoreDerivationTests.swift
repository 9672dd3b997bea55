import Testing
@testable import AssetCore

/// A large mesh is triangulated and given smooth normals in two halves on two cores; the result
/// must be what one pass gives. A pattern small enough for one pass (a quad, a concave L, a
/// triangle, a degenerate two-corner face, a pentagon sharing points) repeated until the mesh is
/// past `SplitReduction.threshold` faces and points, each copy on points of its own with the same
/// coordinates: every copy's triangles and normals must be the pattern's, offset.
@Suite struct TwoCoreDerivationTests {
    static let pattern = Mesh(
        name: "pattern",
        points: [[0, 0, 0], [2, 0, 0], [2, 1, 0], [1, 1, 0], [1, 2, 0], [0, 2, 0], [0, 0, 1], [2, 0, 1.5], [1, 3, 0.5]],
        faceVertexCounts: [4, 6, 3, 2, 5],
        faceVertexIndices: [0, 1, 7, 6, 0, 1, 2, 3, 4, 5, 2, 8, 4, 3, 5, 1, 2, 8, 4, 0])

    /// The pattern with faces that have room for triangles but give none (a triangle on a line,
    /// a quad whose corners are all on it): each half then writes fewer triangles than it had
    /// room for, and the second half's must close the first's gap.
    static let degeneratePattern = Mesh(
        name: "degenerate pattern",
        points: pattern.points + [[1, 0, 0]],
        faceVertexCounts: [3] + pattern.faceVertexCounts + [4],
        faceVertexIndices: [0, 9, 1] + pattern.faceVertexIndices + [0, 9, 1, 9])

    static func repeated(_ copies: Int, of p: Mesh = pattern) -> Mesh {
        var points: [SIMD3<Float>] = [], counts: [Int32] = [], indices: [Int32] = []
        points.reserveCapacity(copies * p.points.count)
        for copy in 0..<copies {
            let offset = Int32(copy * p.points.count)
            points += p.points
            counts += p.faceVertexCounts
            indices += p.faceVertexIndices.map { $0 + offset }
        }
        return Mesh(name: "repeated", points: points, faceVertexCounts: counts, faceVertexIndices: indices)
    }

    @Test func twoHalvesTriangulateAsOnePass() {
        let one = Self.pattern.triangulated()
        #expect(Set(one.faces) == [0, 1, 2, 4] && one.droppedFaces == 1, "only the two-corner face is dropped")
        expectRepeatedTriangulation(of: Self.pattern)
    }

    @Test func facesGivingFewerTrianglesThanTheirRoomLeaveNoGap() {
        let one = Self.degeneratePattern.triangulated()
        #expect(one.droppedFaces == 3, "the line triangle, the two-corner face and the line quad are dropped")
        #expect(one.corners.count == 3 * one.triangleCount)
        expectRepeatedTriangulation(of: Self.degeneratePattern)
    }

    private func expectRepeatedTriangulation(of pattern: Mesh) {
        let one = pattern.triangulated()
        let copies = SplitReduction.threshold / pattern.faceVertexCounts.count + 3
        let mesh = Self.repeated(copies, of: pattern)
        #expect(mesh.faceVertexCounts.count >= SplitReduction.threshold, "large enough for two halves")
        let both = mesh.triangulated()
        let cornersPerCopy = UInt32(pattern.faceVertexIndices.count), facesPerCopy = UInt32(pattern.faceVertexCounts.count)
        #expect(both.droppedFaces == copies * one.droppedFaces)
        #expect(both.triangleCount == copies * one.triangleCount)
        var expectedCorners: [UInt32] = [], expectedFaces: [UInt32] = []
        for copy in 0..<UInt32(copies) {
            expectedCorners += one.corners.map { $0 + copy * cornersPerCopy }
            expectedFaces += one.faces.map { $0 + copy * facesPerCopy }
        }
        // Compared without printing a million values when they differ: the first place they do.
        let corners = both.corners == expectedCorners, faces = both.faces == expectedFaces
        #expect(corners, "corners in face order across the halves' seam; first difference at \(firstDifference(both.corners, expectedCorners))")
        #expect(faces, "faces; first difference at \(firstDifference(both.faces, expectedFaces))")
    }

    @Test func twoHalvesOfPointsSumNormalsAsOnePass() {
        let one = Self.pattern.smoothNormals()
        let copies = SplitReduction.threshold / Self.pattern.faceVertexCounts.count + 3
        let normals = Self.repeated(copies).smoothNormals()
        #expect(normals.count == copies * one.count)
        // The same bits in every copy, those on either side of the split point included.
        let mismatched = (0..<normals.count).filter { normals[$0] != one[$0 % one.count] }
        #expect(mismatched.isEmpty, "first mismatched normal: \(mismatched.first.map(String.init) ?? "none")")
    }
}

/// The first index where `a` and `b` differ (the shorter one's count when one is a prefix), -1 if equal.
private func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
    zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? (a.count == b.count ? -1 : min(a.count, b.count))
}

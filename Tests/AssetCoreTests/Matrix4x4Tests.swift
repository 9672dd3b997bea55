import Testing
@testable import AssetCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct Matrix4x4Tests {
    @Test func rowMajorAndColumnMajorAreTransposes() {
        let elements = (0..<16).map(Double.init)
        let byRows = Matrix4x4(rowMajor: elements)
        let byColumns = Matrix4x4(columnMajor: elements)
        #expect(byRows == byColumns.transposed)
        #expect(byRows[0, 3] == 3)
        #expect(byColumns[3, 0] == 3)
    }

    @Test func translationMovesPointsNotDirections() {
        let m = Matrix4x4.translation([1, 2, 3])
        #expect(m.transformPoint([1, 1, 1]) == [2, 3, 4])
        #expect(m.transformDirection([1, 1, 1]) == [1, 1, 1])
    }

    @Test func quarterTurnAboutZTakesXToY() {
        let m = Matrix4x4.rotation(axis: [0, 0, 2], degrees: 90)
        #expect(m.transformPoint([1, 0, 0]) == [0, 1, 0])
        #expect(m.transformPoint([0, 1, 0]) == [-1, 0, 0])
    }

    @Test func quaternionMatchesAxisAngle() {
        let half = 30.0 * .pi / 180  // 60 degrees about (1,1,0)/sqrt(2)
        let axis = Vector.normalize(SIMD3<Double>(1, 1, 0))
        let q = Quaternion(real: cos(half), imaginary: axis * sin(half))
        let fromQuaternion = Matrix4x4.rotation(q)
        let fromAxis = Matrix4x4.rotation(axis: [1, 1, 0], degrees: 60)
        #expect(fromQuaternion.isApproximatelyEqual(to: fromAxis, tolerance: 1e-12))
    }

    @Test func inverseUndoesAComposedTransform() throws {
        let m = Matrix4x4.translation([3, -2, 5]) * Matrix4x4.rotation(axis: [1, 2, 3], degrees: 37)
            * Matrix4x4.scale([2, -0.5, 4])
        let inverse = try #require(m.inverse)
        #expect((m * inverse).isApproximatelyEqual(to: .identity, tolerance: 1e-12))
        #expect(abs(m.determinant - (2 * -0.5 * 4)) < 1e-12)
    }

    @Test func singularMatrixHasNoInverse() {
        #expect(Matrix4x4.scale([1, 0, 1]).inverse == nil)
    }

    @Test func negativeScaleMirrors() {
        #expect(Matrix4x4.scale([-1, 1, 1]).linearDeterminant < 0)
        #expect(Matrix4x4.rotation(axis: [0, 1, 0], degrees: 180).linearDeterminant > 0)
    }

    @Test func zeroAxisRotationIsIdentity() {
        #expect(Matrix4x4.rotation(axis: .zero, degrees: 45) == .identity)
    }
}

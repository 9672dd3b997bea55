import Testing
@testable import AssetCore

@Suite struct InstancedGeometryTests {
    /// The L shape placed four times: moved, mirrored and scaled along the axes (the box fast
    /// path), and rotated (every point), in a scene whose only mesh is shared.
    static func scene() -> Scene {
        var scene = Scene()
        scene.meshes = [TestScenes.lShape]
        let placements: [Matrix4x4] = [
            .translation([10, 0, 0]),
            .translation([-3, 2, 1]) * .scale([-2, 0.5, 3]),
            .scale([1, -1, 1]),
            .translation([0, 5, 0]) * .rotation(axis: [0, 0, 1], degrees: 45),
        ]
        scene.root = Node(name: "", children: placements.enumerated().map { TestScenes.node("n\($0.offset)", $0.element, mesh: 0) })
        return scene
    }

    @Test func worldBoundsAreTheBoundsOfEveryTransformedPoint() {
        let scene = Self.scene()
        var expected = Bounds3.empty
        for placed in scene.placedMeshes() {
            for p in scene.meshes[0].points { expected.formUnion(Bounds3(min: placed.worldTransform.transformPoint(p.double), max: placed.worldTransform.transformPoint(p.double))) }
        }
        let bounds = scene.worldBounds
        #expect(abs(bounds.min.x - expected.min.x) < 1e-12 && abs(bounds.max.x - expected.max.x) < 1e-12)
        #expect(abs(bounds.min.y - expected.min.y) < 1e-12 && abs(bounds.max.y - expected.max.y) < 1e-12)
        #expect(abs(bounds.min.z - expected.min.z) < 1e-12 && abs(bounds.max.z - expected.max.z) < 1e-12)
        // Worked out by hand: the mirrored, scaled copy reaches x = -3 - 2*2 = -7; the translated one x = 12.
        #expect(bounds.min.x == -7 && bounds.max.x == 12)
    }

    @Test func trianglesAreCountedPerPlacement() {
        // The L hexagon is 4 triangles; placed 4 times.
        #expect(Self.scene().instancedTriangleCount() == 16)
        let budget = ReadBudget(ReadLimits(maxWork: 15))
        #expect(throws: AssetError.self) {
            try budget.spendInstancedTriangles(of: Self.scene(), for: "drawing", at: SourceLocation(file: "a.dae"))
        }
    }
}

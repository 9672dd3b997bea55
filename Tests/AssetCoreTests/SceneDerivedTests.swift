import Testing
@testable import AssetCore

@Suite struct SceneDerivedTests {
    @Test func worldBoundsComposeParentTransforms() {
        let child = TestScenes.node("Child", .translation([0, 0, 5]), mesh: 0)
        let parent = TestScenes.node("Parent", .scale([2, 2, 2]), children: [child])
        let scene = Scene(root: Node(name: "", children: [parent]), meshes: [TestScenes.quad])
        let b = scene.worldBounds
        // Child's quad spans (0..1, 0..1, 0); translated to z=5, then everything doubled.
        #expect(b.min == [0, 0, 10])
        #expect(b.max == [2, 2, 10])
    }

    @Test func negativeScaleMirrorsBounds() {
        let node = TestScenes.node("Mirror", .scale([-1, 1, 1]), mesh: 0)
        let scene = Scene(root: Node(name: "", children: [node]), meshes: [TestScenes.quad])
        #expect(scene.worldBounds.min == [-1, 0, 0])
        #expect(scene.worldBounds.max == [0, 1, 0])
    }

    @Test func resetXformStackIgnoresAncestors() {
        var child = TestScenes.node("Reset", .translation([10, 0, 0]), mesh: 0)
        child.resetsTransformStack = true
        let parent = TestScenes.node("Far", .translation([1000, 1000, 1000]), children: [child])
        let scene = Scene(root: Node(name: "", children: [parent]), meshes: [TestScenes.quad])
        #expect(scene.worldBounds.min == [10, 0, 0])
    }

    @Test func guidesProxiesAndInvisibleNodesAreNotCounted() {
        var guide = TestScenes.node("Guide", .translation([100, 0, 0]), mesh: 0)
        guide.purpose = .guide
        let underGuide = TestScenes.node("UnderGuide", .translation([0, 100, 0]), mesh: 0)
        guide.children = [underGuide]
        var proxy = TestScenes.node("Proxy", .translation([-100, 0, 0]), mesh: 0)
        proxy.purpose = .proxy
        var hidden = TestScenes.node("Hidden", .translation([0, 0, 100]), mesh: 0)
        hidden.isInvisible = true
        var render = TestScenes.node("Render", mesh: 0)
        render.purpose = .render
        let scene = Scene(root: Node(name: "", children: [guide, proxy, hidden, render]), meshes: [TestScenes.quad])
        #expect(scene.worldBounds == Bounds3(min: [0, 0, 0], max: [1, 1, 0]))
        let stats = scene.stats
        #expect(stats.nodes == 5)
        #expect(stats.meshes == 1)
        #expect(stats.points == 4)
    }

    @Test func instancedMeshCountsOncePerPlacement() {
        let a = TestScenes.node("A", mesh: 0)
        let b = TestScenes.node("B", .translation([3, 0, 0]), mesh: 0)
        let l = TestScenes.node("L", mesh: 1)
        var cube = Mesh(name: "Cube", points: [[-1, -1, -1], [1, 1, 1]], faceVertexCounts: [4, 4, 4, 4, 4, 4],
                        faceVertexIndices: Array(repeating: 0, count: 24))
        cube.origin = .primitive("Cube")
        let c = TestScenes.node("C", mesh: 2)
        let scene = Scene(
            root: Node(name: "", children: [a, b, l, c]),
            meshes: [TestScenes.quad, TestScenes.lShape, cube],
            materials: [Material(name: "M")])
        let stats = scene.stats
        #expect(stats.meshes == 3)
        #expect(stats.points == 4 + 4 + 6)
        #expect(stats.faces == 3)
        #expect(stats.triangles == 2 + 2 + 4)
        #expect(stats.primitives == 1)
        #expect(stats.materials == 1)
        // The tessellated cube still counts for bounds.
        #expect(scene.worldBounds == Bounds3(min: [-1, -1, -1], max: [4, 2, 1]))
    }

    @Test func emptyMeshesAndNonFinitePointsLeaveBoundsAlone() {
        let empty = TestScenes.node("Empty", mesh: 0)
        let scene0 = Scene(root: Node(name: "", children: [empty]), meshes: [Mesh(name: "E")])
        #expect(scene0.worldBounds.isEmpty)
        var bad = TestScenes.quad
        bad.points.append([.nan, 0, 0])
        bad.points.append([0, .infinity, 0])
        let scene1 = Scene(root: Node(name: "", children: [TestScenes.node("Bad", mesh: 0)]), meshes: [bad])
        #expect(scene1.worldBounds == Bounds3(min: [0, 0, 0], max: [1, 1, 0]))
    }

    @Test func deepHierarchyAtTheDepthCapTraversesWithPaths() {
        let depth = ReadLimits().maxNodeDepth
        var node = TestScenes.node("N\(depth)", .translation([1, 0, 0]), mesh: 0)
        for level in stride(from: depth - 1, through: 1, by: -1) {
            node = TestScenes.node("N\(level)", .translation([1, 0, 0]), children: [node])
        }
        let scene = Scene(root: Node(name: "", children: [node]), meshes: [TestScenes.quad])
        var deepest = 0
        var lastPath = ""
        scene.forEachNode { _, visit in
            deepest = max(deepest, visit.depth)
            lastPath = visit.path
        }
        #expect(deepest == depth)
        #expect(lastPath.hasPrefix("/N1/N2/N3/"))
        #expect(lastPath.hasSuffix("/N\(depth)"))
        #expect(scene.worldBounds.min.x == Double(depth))
        #expect(scene.node(at: "/N1/N2")?.name == "N2")
        #expect(scene.node(at: "/N1/Missing") == nil)
    }

    @Test func traversalIsPreOrderInChildOrder() {
        let tree = TestScenes.node("A", children: [
            TestScenes.node("B", children: [TestScenes.node("C")]),
            TestScenes.node("D"),
        ])
        let scene = Scene(root: Node(name: "", children: [tree, TestScenes.node("E")]))
        var paths: [String] = []
        scene.forEachNode { _, visit in paths.append(visit.path) }
        #expect(paths == ["/A", "/A/B", "/A/B/C", "/A/D", "/E"])
    }
}

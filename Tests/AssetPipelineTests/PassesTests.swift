import AssetCore
import Testing
@testable import AssetPipeline

/// An L-shaped hexagon and a quad in one mesh, with a faceVarying st, a uniform colour and a subset.
func twoFaceMesh() -> Mesh {
    Mesh(name: "M",
         points: [[0, 0, 0], [2, 0, 0], [2, 1, 0], [1, 1, 0], [1, 2, 0], [0, 2, 0], [3, 0, 0], [4, 0, 0], [4, 1, 0], [3, 1, 0]],
         faceVertexCounts: [6, 4], faceVertexIndices: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
         primvars: [
            Primvar(name: "st", interpolation: .faceVarying, values: .float2((0..<10).map { SIMD2(Float($0), 0) }), role: .textureCoordinate),
            Primvar(name: "displayColor", interpolation: .uniform, values: .float3([[1, 0, 0], [0, 0, 1]]), role: .color),
         ],
         subsets: [GeomSubset(name: "Second", faceIndices: [1])])
}

@Suite struct PassesTests {
    func scene(_ mesh: Mesh, _ transform: Matrix4x4 = .identity) -> Scene {
        Scene(root: Node(name: "", children: [Node(name: "N", transform: transform, meshInstances: [MeshInstance(mesh: 0)])]),
              meshes: [mesh])
    }

    @Test func triangulateCarriesPrimvarsAndSubsets() {
        var s = scene(twoFaceMesh())
        var diagnostics: [Diagnostic] = []
        TriangulatePass().run(&s, diagnostics: &diagnostics)
        let mesh = s.meshes[0]
        #expect(mesh.faceVertexCounts == Array(repeating: 3, count: 6))
        #expect(mesh.topologyProblem() == nil)
        #expect(mesh.primvarProblems().isEmpty)
        // The quad's two triangles are faces 4 and 5 and keep the subset and the quad's colour.
        #expect(mesh.subsets[0].faceIndices == [4, 5])
        #expect(mesh.primvar(named: "displayColor")?.indices == [0, 0, 0, 0, 1, 1])
        // faceVarying st follows its corners: corner k of the output reads the st the input corner had.
        let st = mesh.primvar(named: "st")!
        for (k, point) in mesh.faceVertexIndices.enumerated() {
            #expect(Int32(st.indices![k]) == point, "st was authored equal to the point index")
        }
        #expect(s.stats.triangles == 6)
    }

    @Test func zUpToYUpStandsContentUp() {
        var s = scene(Mesh(name: "Post", points: [[0, 0, 0], [1, 0, 0], [0, 0, 10]], faceVertexCounts: [3], faceVertexIndices: [0, 1, 2]))
        s.metadata.upAxis = .z
        s.metadata.metersPerUnit = 0.01
        var diagnostics: [Diagnostic] = []
        AxisAndUnitsPass(upAxis: .y, metersPerUnit: 1).run(&s, diagnostics: &diagnostics)
        #expect(s.metadata.upAxis == .y)
        #expect(s.metadata.metersPerUnit == 1)
        let b = s.worldBounds
        // 10 cm along +Z becomes 0.1 m along +Y; +Y (depth) becomes -Z.
        #expect(abs(b.max.y - 0.1) < 1e-12)
        #expect(abs(b.max.x - 0.01) < 1e-12)
        #expect(abs(b.min.z) < 1e-12 && abs(b.max.z) < 1e-12)
    }

    @Test func flattenBakesTransformsAndRewindsMirrors() {
        let quad = Mesh(name: "Q", points: [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], faceVertexCounts: [4], faceVertexIndices: [0, 1, 2, 3])
        var s = scene(quad, .scale([-1, 1, 1]) * .translation([5, 0, 0]))
        let before = s.worldBounds
        var diagnostics: [Diagnostic] = []
        FlattenPass().run(&s, diagnostics: &diagnostics)
        #expect(s.worldBounds == before)
        #expect(s.root.children.map(\.transform) == [.identity])
        #expect(s.meshes[0].faceVertexIndices == [0, 3, 2, 1], "the mirror flipped the winding; flatten restores it")
        let p = s.meshes[0].points
        let normal = Vector.cross(p[3].double - p[0].double, p[2].double - p[0].double)
        #expect(normal.z > 0, "still facing +Z after the mirror")
    }

    @Test func hiddenNodesAreLeftOutForFormatsWithoutThem() {
        var s = scene(twoFaceMesh())
        s.root.children.append(Node(name: "Guide", meshInstances: [MeshInstance(mesh: 0)], purpose: .guide))
        var diagnostics: [Diagnostic] = []
        DropHiddenNodesPass().run(&s, diagnostics: &diagnostics)
        #expect(s.root.children.map(\.name) == ["N"])
        #expect(diagnostics.count == 1)
    }

    /// usd-core's inheritance: a child's own counted purpose survives a guide parent, whose own
    /// geometry goes; the chosen purposes decide, and an unknown purpose is never counted.
    @Test func droppingFollowsTheCountedPurposes() {
        var s = scene(twoFaceMesh())
        let child = Node(name: "Drawn", meshInstances: [MeshInstance(mesh: 0)], purpose: .render)
        s.root.children.append(Node(name: "Guide", children: [child, Node(name: "Helper", meshInstances: [MeshInstance(mesh: 0)])],
                                    meshInstances: [MeshInstance(mesh: 0)], purpose: .guide))
        s.root.children.append(Node(name: "Sketch", meshInstances: [MeshInstance(mesh: 0)], purpose: Purpose(rawValue: "sketch")))
        var byDefault = s
        var diagnostics: [Diagnostic] = []
        DropHiddenNodesPass().run(&byDefault, diagnostics: &diagnostics)
        #expect(byDefault.root.children.map(\.name) == ["N", "Guide"])
        #expect(byDefault.root.children[1].meshInstances.isEmpty && byDefault.root.children[1].purpose == nil)
        #expect(byDefault.root.children[1].children.map(\.name) == ["Drawn"])
        #expect(byDefault.placedMeshes().map(\.nodePath) == ["/N", "/Guide/Drawn"])

        var guides = s
        guides.countedPurposes = PurposeSet([.default, .guide])
        DropHiddenNodesPass().run(&guides, diagnostics: &diagnostics)
        #expect(guides.placedMeshes().map(\.nodePath) == ["/N", "/Guide", "/Guide/Helper"])
    }

    /// The renderer gives meshes without normals these smooth ones (see DrawMesh).
    @Test func smoothNormalsFaceOutward() {
        let normals = twoFaceMesh().smoothNormals()
        #expect(normals.count == twoFaceMesh().points.count)
        #expect(normals.allSatisfy { $0 == SIMD3(0, 0, 1) })
    }
}

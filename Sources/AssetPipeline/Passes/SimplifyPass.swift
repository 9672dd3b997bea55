import AssetCore

/// Brings a scene's triangles under a budget (`--max-triangles N`, or `--ratio R` of what it has):
/// the budget is spread over the meshes by their share of the scene's triangles as drawn (a mesh
/// placed four times counts four times, and is simplified once, for all its instances), and each
/// mesh is simplified by `MeshSimplifier`. What it did is reported mesh by mesh.
public struct SimplifyPass: ScenePass {
    public enum Target: Sendable, Equatable {
        case triangles(Int)
        case ratio(Double)
    }

    public struct MeshReport: Sendable, Equatable {
        public var mesh: String
        public var trianglesBefore: Int
        public var trianglesAfter: Int
        /// The largest deviation from the original surface, in the mesh's units.
        public var error: Float
        public var usedSloppy: Bool
    }

    public var name: String { "simplify" }
    public var target: Target
    /// Meshes with fewer triangles are left alone: there is nothing to gain and their shape is most of them.
    public var smallestSimplified = 64
    private let reports: Locked<[MeshReport]>

    public init(target: Target) {
        self.target = target
        reports = Locked([])
    }

    /// What the last run did, mesh by mesh.
    public var report: [MeshReport] { reports.value }

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        var instances = [Int](repeating: 0, count: scene.meshes.count)
        for placed in scene.placedMeshes() { instances[placed.instance.mesh] += 1 }
        let triangles = scene.meshes.map(\.triangleCount)
        let drawn = zip(triangles, instances).reduce(0) { $0 + $1.0 * $1.1 }
        let ratio: Double
        switch target {
        case .triangles(let budget): ratio = drawn == 0 ? 1 : Double(budget) / Double(drawn)
        case .ratio(let r): ratio = r
        }
        guard ratio < 1 else { return }
        var done: [MeshReport] = []
        for index in scene.meshes.indices where instances[index] > 0 && triangles[index] >= smallestSimplified {
            let goal = max(1, Int((Double(triangles[index]) * ratio).rounded(.down)))
            guard let result = MeshSimplifier.simplify(scene.meshes[index], targetTriangles: goal) else { continue }
            scene.meshes[index] = result.mesh
            done.append(MeshReport(mesh: scene.meshes[index].name, trianglesBefore: result.trianglesBefore, trianglesAfter: result.trianglesAfter,
                                   error: result.error, usedSloppy: result.usedSloppy))
        }
        if scene.meshes.indices.contains(where: { instances[$0] > 0 && triangles[$0] >= smallestSimplified && MeshSimplifier.tooManySeams(scene.meshes[$0]) }) {
            diagnostics.append(.warning("meshes with more than \(MeshSimplifier.maxWeldedPrimvars) face-varying primvars are not simplified"))
        }
        let after = zip(scene.meshes.map(\.triangleCount), instances).reduce(0) { $0 + $1.0 * $1.1 }
        if done.contains(where: \.usedSloppy) {
            diagnostics.append(.warning("some meshes' UV seams and material borders kept them above their budget; they were simplified without keeping their borders"))
        }
        if case .triangles(let budget) = target, after > budget {
            diagnostics.append(.warning("simplified to \(after) triangles as drawn, above the budget of \(budget): small meshes and locked borders keep the rest"))
        }
        reports.withLock { $0 = done }
    }
}

extension MeshSimplifier {
    static func tooManySeams(_ mesh: Mesh) -> Bool {
        mesh.primvars.filter { $0.interpolation == .faceVarying && $0.role != .normal }.count > maxWeldedPrimvars
    }
}

import AssetCore

/// How a scene's skeletons, skins, blend shapes and animation are written as UsdSkel, in the shape
/// AR Quick Look plays: the default prim is the one SkelRoot, and one Skeleton under it holds every
/// joint of every skeleton (each joint's parent is its nearest ancestor that is also a joint), with
/// one SkelAnimation whose joint transforms and blend-shape weights are resampled on the union of
/// the first clip's key times. A mesh with blend shapes but no skin gets a joint of its own that
/// follows its node, since UsdSkel animates blend shapes only through a skeleton.
///
/// The Skeleton prim sits under the default prim with no transform of its own, so skeleton space is
/// the default prim's space (`rootWorld`). A joint's skinning matrix in every format is
/// `world(joint) · inverseBind`; UsdSkel's is `rootWorld · skelXf · bind⁻¹` with `skelXf` the
/// joint's skeleton-space transform, so `bind = inverseBind⁻¹` and `skelXf = rootWorld⁻¹ · world`.
struct USDRigPlan {
    var jointPaths: [String] = []
    var tokens: [String] = []
    var bindTransforms: [Matrix4x4] = []
    var restTransforms: [Matrix4x4] = []
    /// Per scene skeleton: its joints' numbers in the written Skeleton (-1 for a joint not placed).
    var jointMaps: [[Int32]] = []
    /// Node path -> the joint that stands in for that node (meshes with blend shapes and no skin).
    var nodeJoints: [String: Int] = [:]
    /// Node path -> its mesh's blend-shape tokens, in `Mesh.blendShapes` order.
    var shapeTokens: [String: [String]] = [:]
    /// The SkelAnimation's `blendShapes`.
    var animationShapes: [String] = []
    /// Sample times in seconds; empty when nothing moves.
    var times: [Double] = []
    /// Per time: each joint's skeleton-space local transform as translation, rotation, scale.
    var jointSamples: [[TransformComponents]] = []
    /// Per time: a weight per `animationShapes` entry.
    var weightSamples: [[Float]] = []

    /// Sample times at most; longer clips are thinned evenly, with a warning.
    static let maxTimes = 20_000

    init?(scene: Scene, rootWorld: Matrix4x4, diagnostics: inout [Diagnostic]) {
        let flat = FlatNodeTree(scene.root)
        var indexByPath: [String: Int] = [:]
        for (i, path) in flat.paths.enumerated() { indexByPath[path] = i }
        var shaped: [(path: String, node: Int, instance: MeshInstance)] = []
        for i in flat.nodes.indices {
            for instance in flat.nodes[i].meshInstances where scene.meshes.indices.contains(instance.mesh) {
                if !scene.meshes[instance.mesh].blendShapes.isEmpty { shaped.append((flat.paths[i], i, instance)) }
            }
        }
        guard !scene.skeletons.isEmpty || !shaped.isEmpty else { return nil }

        // The union of joints, in tree order so parents come first.
        var inverseBindByPath: [String: Matrix4x4] = [:]
        for skeleton in scene.skeletons {
            for (j, path) in skeleton.jointPaths.enumerated() where indexByPath[path] != nil {
                let inverseBind = skeleton.inverseBindMatrices.indices.contains(j) ? skeleton.inverseBindMatrices[j] : .identity
                if let known = inverseBindByPath[path], !known.isApproximatelyEqual(to: inverseBind, tolerance: 1e-6) {
                    diagnostics.append(.warning("joint \(path) has different bind matrices in two skins; USD keeps the first"))
                    continue
                }
                inverseBindByPath[path] = inverseBind
            }
        }
        var unionIndex: [Int: Int] = [:]
        var nodeOfJoint: [Int] = []
        for i in flat.nodes.indices where inverseBindByPath[flat.paths[i]] != nil {
            unionIndex[i] = nodeOfJoint.count
            nodeOfJoint.append(i)
            jointPaths.append(flat.paths[i])
            bindTransforms.append(inverseBindByPath[flat.paths[i]]!.inverse ?? .identity)
        }
        jointMaps = scene.skeletons.map { skeleton in
            skeleton.jointPaths.map { path in indexByPath[path].flatMap { unionIndex[$0] }.map(Int32.init) ?? -1 }
        }
        let skeletonJoints = nodeOfJoint.count
        for entry in shaped where scene.meshes[entry.instance.mesh].skinWeights == nil || entry.instance.skin == nil {
            guard nodeJoints[entry.path] == nil else { continue }
            nodeJoints[entry.path] = nodeOfJoint.count
            nodeOfJoint.append(entry.node)
            jointPaths.append(entry.path)
            bindTransforms.append(.identity)
        }

        // Tokens: a joint's parent is its nearest joint ancestor; names distinct among siblings.
        var parents = [Int](repeating: -1, count: nodeOfJoint.count)
        for j in 0..<skeletonJoints {
            var up = flat.parents[nodeOfJoint[j]]
            while up >= 0, unionIndex[up] == nil { up = flat.parents[up] }
            if up >= 0 { parents[j] = unionIndex[up]! }
        }
        var siblingNames: [Int: USDName.Uniquer] = [:]
        for j in nodeOfJoint.indices {
            let node = flat.nodes[nodeOfJoint[j]]
            let name = siblingNames[parents[j], default: USDName.Uniquer()].name(j < skeletonJoints ? node.name : node.name + "_shapes")
            tokens.append(parents[j] >= 0 ? tokens[parents[j]] + "/" + name : name)
        }

        let toSkeleton = rootWorld.inverse ?? .identity
        func locals(_ worlds: [Matrix4x4]) -> [Matrix4x4] {
            nodeOfJoint.indices.map { j in
                let world = worlds[nodeOfJoint[j]]
                guard parents[j] >= 0 else { return toSkeleton * world }
                return (worlds[nodeOfJoint[parents[j]]].inverse ?? .identity) * world
            }
        }
        restTransforms = locals(flat.worldTransforms())

        // Blend-shape tokens: the shape's own name, prefixed with its node's where two meshes share it.
        var owners: [String: Int] = [:]
        for entry in shaped { for shape in scene.meshes[entry.instance.mesh].blendShapes { owners[USDName.sanitize(shape.name), default: 0] += 1 } }
        for entry in shaped where shapeTokens[entry.path] == nil {
            var names = USDName.Uniquer()
            let prefix = USDName.sanitize(flat.nodes[entry.node].name) + "_"
            shapeTokens[entry.path] = scene.meshes[entry.instance.mesh].blendShapes.map { shape in
                let base = USDName.sanitize(shape.name)
                return names.name(owners[base, default: 0] > 1 ? prefix + base : base)
            }
            animationShapes += shapeTokens[entry.path]!
        }

        times = Self.keyTimes(scene, diagnostics: &diagnostics)
        for time in times {
            let animated = scene.animatedTree(at: time)
            jointSamples.append(locals(animated.tree.worldTransforms()).map(TransformComponents.init))
            var weights: [Float] = []
            var done: Set<String> = []
            for entry in shaped where done.insert(entry.path).inserted {
                let count = scene.meshes[entry.instance.mesh].blendShapes.count
                let given = animated.blendShapeWeights[entry.node] ?? entry.instance.blendShapeWeights
                weights += (0..<count).map { $0 < given.count ? given[$0] : 0 }
            }
            weightSamples.append(weights)
        }
    }

    /// The first clip's key times, thinned evenly past `maxTimes`.
    private static func keyTimes(_ scene: Scene, diagnostics: inout [Diagnostic]) -> [Double] {
        guard let clip = scene.animations.first else { return [] }
        var all = Set<Double>()
        for channel in clip.channels { all.formUnion(channel.linearSampleTimes().filter(\.isFinite)) }
        var sorted = all.sorted()
        if sorted.count > maxTimes {
            diagnostics.append(.warning("the animation has \(sorted.count) key times; USD gets \(maxTimes) evenly spaced samples of it"))
            let (first, last) = (sorted[0], sorted[sorted.count - 1])
            sorted = (0..<maxTimes).map { first + (last - first) * Double($0) / Double(maxTimes - 1) }
        }
        return sorted.count > 1 ? sorted : []
    }
}

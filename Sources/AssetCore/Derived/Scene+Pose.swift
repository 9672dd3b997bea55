extension Scene {
    /// The scene as it stands at `time` seconds of animation clip `clip`: animated nodes and joints
    /// moved, blend shapes and skins applied to copies of their meshes, every binding then dropped,
    /// so the result is static geometry that stats, bounds, the renderer and any writer take as is.
    ///
    /// A skinned mesh's points are computed in the world and carried back into its node's space, so
    /// the node keeps its place in the tree and its name.
    public func posed(at time: Double, clip: Int = 0) -> Scene {
        let animated = animatedTree(at: time, clip: clip)
        var flat = animated.tree
        let indexByPath = animated.indexByPath
        let weightOverrides = animated.blendShapeWeights
        let worlds = flat.worldTransforms()
        var posed = self
        for i in flat.nodes.indices {
            for k in flat.nodes[i].meshInstances.indices {
                let instance = flat.nodes[i].meshInstances[k]
                guard meshes.indices.contains(instance.mesh),
                      let mesh = deformed(instance, weights: weightOverrides[i], points: animated.points[i], nodeWorld: worlds[i], worlds: worlds,
                                          indexByPath: indexByPath)
                else { continue }
                flat.nodes[i].meshInstances[k].mesh = posed.meshes.count
                flat.nodes[i].meshInstances[k].skin = nil
                flat.nodes[i].meshInstances[k].blendShapeWeights = []
                posed.meshes.append(mesh)
            }
        }
        posed.root = flat.rebuilt()
        if animations.indices.contains(clip) {
            for channel in animations[clip].materialChannels where posed.materials.indices.contains(channel.material) {
                guard let value = channel.sample(at: time) else { continue }
                posed.materials[channel.material].setAnimatedValue(channel.input, value)
            }
            for channel in animations[clip].lightChannels where posed.lights.indices.contains(channel.light) {
                guard let value = channel.sample(at: time) else { continue }
                posed.lights[channel.light].setAnimatedValue(channel.input, value)
            }
        }
        posed.animations = []
        return posed
    }

    /// A copy of the instance's mesh with blend shapes and skin applied, in the node's space; nil
    /// when nothing deforms it.
    private func deformed(_ instance: MeshInstance, weights: [Float]?, points: [SIMD3<Float>]?, nodeWorld: Matrix4x4, worlds: [Matrix4x4],
                          indexByPath: [String: Int]) -> Mesh? {
        var mesh = meshes[instance.mesh]
        // A point cache replaces the points the mesh was read with (when it has as many).
        let cached = points.map { $0.count == mesh.points.count } ?? false
        if cached, let points { mesh.points = points }
        let shapeWeights = weights ?? instance.blendShapeWeights
        let shaped = !mesh.blendShapes.isEmpty && shapeWeights.contains { $0 != 0 }
        var skinning: (SkinWeights, [LinearBlendSkinning.AffineColumns])?
        if let binding = instance.skin, skeletons.indices.contains(binding.skeleton), let influences = mesh.skinWeights,
           let toNode = nodeWorld.inverse {
            let skeleton = skeletons[binding.skeleton]
            let matrices = skeleton.jointPaths.indices.map { j -> LinearBlendSkinning.AffineColumns in
                // A joint whose node is missing stays at its bind pose (the reader warned).
                let inverseBind = skeleton.inverseBindMatrices.indices.contains(j) ? skeleton.inverseBindMatrices[j] : .identity
                guard let n = indexByPath[skeleton.jointPaths[j]] else { return .init(toNode * binding.geomBindTransform) }
                return .init(toNode * worlds[n] * inverseBind * binding.geomBindTransform)
            }
            skinning = (influences, matrices)
        }
        guard shaped || skinning != nil || cached else { return nil }
        if shaped { BlendShapeEvaluation.apply(mesh.blendShapes, weights: shapeWeights, to: &mesh.points) }
        if let (influences, matrices) = skinning {
            mesh.points = LinearBlendSkinning.skin(points: mesh.points, influences: influences, matrices: matrices)
            if let n = mesh.primvars.firstIndex(where: { $0.name == Primvar.normalsName }) {
                if mesh.primvars[n].interpolation == .vertex, mesh.primvars[n].indices == nil, case .float3(let normals) = mesh.primvars[n].values {
                    mesh.primvars[n].values = .float3(LinearBlendSkinning.skinDirections(normals, influences: influences, matrices: matrices))
                } else {
                    // Normals shared across joints per corner cannot follow the skin; the renderer
                    // derives smooth ones instead.
                    mesh.primvars.remove(at: n)
                }
            }
        } else if shaped, let n = mesh.primvars.firstIndex(where: { $0.name == Primvar.normalsName }) {
            mesh.primvars.remove(at: n)
        }
        mesh.skinWeights = nil
        mesh.blendShapes = []
        return mesh
    }

    /// The node tree with clip `clip`'s channels applied to node transforms at `time`, and the
    /// blend-shape weights channels give, by node number: what posing, and writers that resample
    /// animation, start from.
    public func animatedTree(at time: Double, clip: Int = 0) -> AnimatedTree {
        var flat = FlatNodeTree(root)
        var indexByPath: [String: Int] = [:]
        for (i, path) in flat.paths.enumerated() { indexByPath[path] = i }
        var weights: [Int: [Float]] = [:]
        var points: [Int: [SIMD3<Float>]] = [:]
        if animations.indices.contains(clip) {
            var channelsByNode: [Int: [AnimationChannel]] = [:]
            for channel in animations[clip].channels {
                guard let i = indexByPath[channel.nodePath] else { continue }
                switch channel.property {
                case .blendShapeWeights:
                    if let value = channel.sample(at: time) { weights[i] = value }
                case .points:
                    if let value = channel.sample(at: time) {
                        points[i] = (0..<(value.count / 3)).map { SIMD3(value[3 * $0], value[3 * $0 + 1], value[3 * $0 + 2]) }
                    }
                default:
                    channelsByNode[i, default: []].append(channel)
                }
            }
            for (i, channels) in channelsByNode {
                if let local = channels.localTransform(rest: flat.nodes[i].transform, at: time) { flat.nodes[i].transform = local }
            }
        }
        return AnimatedTree(tree: flat, indexByPath: indexByPath, blendShapeWeights: weights, points: points)
    }

    /// Whether any clip has keys.
    public var isAnimated: Bool { animations.contains { $0.timeRange != nil } }
}

/// See `Scene.animatedTree(at:clip:)`.
public struct AnimatedTree: Sendable {
    public var tree: FlatNodeTree
    public var indexByPath: [String: Int]
    public var blendShapeWeights: [Int: [Float]]
    /// Point caches: the sampled points of the node's mesh.
    public var points: [Int: [SIMD3<Float>]]
}

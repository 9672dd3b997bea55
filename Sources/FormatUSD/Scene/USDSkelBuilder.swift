import AssetCore

/// UsdSkel read into the scene model: Skeleton prims become joint nodes plus a `Skeleton`, meshes
/// with SkelBindingAPI primvars get `SkinWeights` and a binding, BlendShape targets become
/// `BlendShape`s, and SkelAnimation samples become channels of the stage's one clip.
///
/// Bindings are resolved after traversal (`finish`), because a mesh may come before the Skeleton
/// it names.
struct USDSkelBuilder {
    let values: USDAttributeValues
    let budget: ReadBudget
    /// USD time codes per second: seconds = time code / this.
    let timeCodesPerSecond: Double
    /// The time a value without samples (a default) is keyed at, in seconds.
    let defaultKeyTime: Double
    var diagnostics: [Diagnostic] = []
    /// Channels of the stage's clip: SkelAnimation joints and blend-shape weights, sampled xformOps.
    var channels: [AnimationChannel] = []
    var skeletons: [Skeleton] = []
    var skeletonByPath: [String: Int] = [:]
    /// The SkelAnimation each skeleton plays, by skeleton index.
    var animationSources: [Int: (path: String, location: SourceLocation)] = [:]
    var pending: [PendingBinding] = []

    /// What traversal passes down: UsdSkel's `skel:skeleton` and `skel:animationSource` are inherited
    /// through namespace, and bindings only take effect under a SkelRoot.
    struct Inherited {
        var skeleton: String?
        var animationSource: String?
        var insideSkelRoot = false
    }

    struct PendingBinding {
        var nodePath: String
        var mesh: Int
        var skeleton: String
        /// Mesh-local joint order (`skel:joints`), when authored.
        var localJoints: [String]?
        var geomBindTransform: Matrix4x4
        var location: SourceLocation
        /// Blend-shape names in the mesh's order, for mapping animation weights.
        var blendShapeNames: [String]
    }

    init(values: USDAttributeValues, budget: ReadBudget, timeCodesPerSecond: Double, startTimeCode: Double?) {
        self.values = values
        self.budget = budget
        self.timeCodesPerSecond = timeCodesPerSecond
        defaultKeyTime = (startTimeCode ?? 0) / timeCodesPerSecond
    }

    func inherited(for prim: USDComposedPrim, from parent: Inherited) -> Inherited {
        var context = parent
        if let target = prim.attribute("skel:skeleton")?.targets.first { context.skeleton = target }
        if let target = prim.attribute("skel:animationSource")?.targets.first { context.animationSource = target }
        if prim.typeName == "SkelRoot" { context.insideSkelRoot = true }
        return context
    }

    // MARK: Skeletons

    /// Reads a Skeleton prim; returns its joints as nodes to place under the Skeleton's node.
    mutating func skeleton(_ prim: USDComposedPrim, context: Inherited) throws(AssetError) -> [Node] {
        let names = values.value(prim.attribute("joints"))?.strings ?? []
        try budget.spend(work: names.count, for: "skeleton \(prim.path)", at: prim.location)
        let binds = matrices(prim, "bindTransforms", count: names.count)
        let rests = matrices(prim, "restTransforms", count: names.count)

        var flat: [Node] = [], parents: [Int] = [], paths: [String] = []
        var indexByName: [String: Int] = [:]
        var inverseBinds: [Matrix4x4] = []
        var kept: [String] = []
        var keptBinds: [Matrix4x4] = []
        for (j, name) in names.enumerated() {
            guard indexByName[name] == nil else {
                diagnostics.append(.warning("skeleton \(prim.path) names joint '\(name)' twice; the second is ignored", at: prim.location))
                continue
            }
            let components = name.split(separator: "/", omittingEmptySubsequences: true)
            guard let leaf = components.last else {
                diagnostics.append(.warning("skeleton \(prim.path) has an empty joint name at [\(j)]; ignored", at: prim.location))
                continue
            }
            var parent = -1
            if components.count > 1 {
                let parentName = components.dropLast().joined(separator: "/")
                if let p = indexByName[parentName] { parent = p }
                else {
                    diagnostics.append(.warning("skeleton \(prim.path): joint '\(name)' names parent '\(parentName)', which is not an earlier joint; it is placed at the root",
                                                at: prim.location))
                }
            }
            var local = Matrix4x4.identity
            if let rests { local = rests[j] }
            else if let binds {
                // Without rest transforms, the bind pose stands in for the rest pose, as UsdSkel's
                // query does.
                local = parent >= 0 ? (keptBinds[parent].inverse ?? .identity) * binds[j] : binds[j]
            }
            var node = Node(name: String(leaf), typeName: "Joint", transform: local)
            node.isJoint = true
            let path = (parent >= 0 ? paths[parent] : prim.path) + "/" + leaf
            indexByName[name] = flat.count
            flat.append(node)
            parents.append(parent)
            paths.append(path)
            kept.append(name)
            keptBinds.append(binds?[j] ?? .identity)
            var inverse = Matrix4x4.identity
            if let binds {
                if let i = binds[j].inverse { inverse = i }
                else { diagnostics.append(.warning("skeleton \(prim.path): bind transform of joint '\(name)' is singular; identity is used", at: prim.location)) }
            }
            inverseBinds.append(inverse)
        }
        if binds == nil && !names.isEmpty {
            diagnostics.append(.warning("skeleton \(prim.path) has no bindTransforms; skinned meshes bound to it stay at their bind pose", at: prim.location))
        }
        let index = skeletons.count
        skeletonByPath[prim.path] = index
        if let source = prim.attribute("skel:animationSource")?.targets.first ?? context.animationSource {
            animationSources[index] = (source, prim.location)
        }
        skeletons.append(Skeleton(name: prim.name, jointPaths: paths, jointNames: kept, inverseBindMatrices: inverseBinds, skeletonPath: prim.path))
        return Self.nest(flat, parents: parents)
    }

    /// Joint nodes under their parents; iterative, as joint chains can be long.
    private static func nest(_ nodes: [Node], parents: [Int]) -> [Node] {
        var nodes = nodes
        var children = [[Node]](repeating: [], count: nodes.count)
        var top: [Node] = []
        for i in nodes.indices.reversed() {
            nodes[i].children = children[i].reversed()
            if parents[i] < 0 { top.append(nodes[i]) } else { children[parents[i]].append(nodes[i]) }
        }
        return top.reversed()
    }

    /// `count` matrices from a matrix4d[] attribute, or nil (with a warning when authored but wrong).
    private mutating func matrices(_ prim: USDComposedPrim, _ name: String, count: Int) -> [Matrix4x4]? {
        guard let numbers = values.numbers(prim.attribute(name)) else { return nil }
        guard numbers.count == count * 16 else {
            diagnostics.append(.warning("\(prim.path).\(name) has \(numbers.count / 16) matrices for \(count) joints; ignored", at: prim.location))
            return nil
        }
        return (0..<count).map { Matrix4x4(columnMajor: Array(numbers[($0 * 16)..<($0 * 16 + 16)])) }
    }
}

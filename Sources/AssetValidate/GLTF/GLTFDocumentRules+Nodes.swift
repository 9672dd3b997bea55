import Foundation

/// Nodes (transforms, the hierarchy, what they instance), scenes, skins and animations.
extension GLTFDocumentRules {
    /// Each node's parent, from `children`; a second parent is NODE_PARENT_OVERRIDE.
    func parents() -> [Int: Int] {
        var parent: [Int: Int] = [:]
        for (index, node) in nodes.enumerated() {
            for child in (node["children"]?.elements ?? []).compactMap(\.integer) where nodes.indices.contains(child) && parent[child] == nil {
                parent[child] = index
            }
        }
        return parent
    }

    func meshHasJoints(_ mesh: Int) -> Bool {
        guard meshes.indices.contains(mesh) else { return false }
        return (meshes[mesh]["primitives"]?.elements ?? []).contains { $0["attributes"]?["JOINTS_0"] != nil }
    }

    func targetCount(_ mesh: Int) -> Int? {
        guard meshes.indices.contains(mesh) else { return nil }
        return meshes[mesh]["primitives"]?.elements?.first?["targets"]?.elements?.count ?? 0
    }

    mutating func nodeRules() {
        var parent: [Int: Int] = [:]
        let joints = Set((root["skins"]?.elements ?? []).flatMap { ($0["joints"]?.elements ?? []).compactMap(\.integer) })
        for (index, node) in nodes.enumerated() {
            let here = "/nodes/\(index)"
            for (k, child) in (node["children"]?.elements ?? []).compactMap(\.integer).enumerated() where nodes.indices.contains(child) {
                usage.refer("nodes", child)
                if let other = parent[child] {
                    findings.add("NODE_PARENT_OVERRIDE", "node \(child) is already a child of node \(other)", at: "\(here)/children/\(k)")
                } else {
                    parent[child] = index
                }
            }
            usage.refer("meshes", node["mesh"]?.integer)
            usage.refer("cameras", node["camera"]?.integer)
            usage.refer("skins", node["skin"]?.integer)
            transform(node, at: here)
            if let mesh = node["mesh"]?.integer {
                let skinned = meshHasJoints(mesh)
                if node["skin"] != nil && !skinned {
                    findings.add("NODE_SKIN_WITH_NON_SKINNED_MESH", "mesh \(mesh) has no JOINTS_0 and WEIGHTS_0", at: here + "/skin")
                }
                if node["skin"] == nil && skinned { findings.add("NODE_SKINNED_MESH_WITHOUT_SKIN", "mesh \(mesh) is skinned but the node has no skin", at: here) }
                if let weights = node["weights"]?.elements, let targets = targetCount(mesh), weights.count != targets {
                    findings.add("NODE_WEIGHTS_INVALID", "\(weights.count) weights for mesh \(mesh)'s \(targets) morph targets", at: here + "/weights")
                }
                if node["skin"] != nil && skinned && ["matrix", "translation", "rotation", "scale"].contains(where: { node[$0] != nil }) {
                    findings.add("NODE_SKINNED_MESH_LOCAL_TRANSFORMS", "the skin ignores this node's transform", at: here)
                }
            }
            if let skin = node["skin"]?.integer, let mesh = node["mesh"]?.integer,
               let joints = (root["skins"]?.elements ?? []).dropFirst(skin).first?["joints"]?.elements?.count {
                // The data checks compare each vertex's joint indices with the skin's joint count.
                for set in usage.skinSets.indices where usage.skinSets[set].mesh == mesh {
                    if usage.skinSets[set].jointCount.map({ joints < $0 }) ?? true { (usage.skinSets[set].jointCount, usage.skinSets[set].skin) = (joints, skin) }
                }
            }
            let empty = !joints.contains(index) && ["children", "mesh", "camera", "skin", "extensions", "weights"].allSatisfy { node[$0] == nil }
            if empty { findings.add("NODE_EMPTY", "the node has nothing in it and nothing under it", at: here) }
        }
        loops()
        unusedMeshWeights()
        skinsInScenes()
        for (index, node) in nodes.enumerated() where node["skin"] != nil && node["mesh"].map({ meshHasJoints($0.integer ?? -1) }) == true {
            guard parent[index] != nil else { continue }
            findings.add("NODE_SKINNED_MESH_NON_ROOT", "the skinned node is not a root node", at: "/nodes/\(index)")
            // An ancestor that moves it: its transform is ignored too (glTF 2.0, 3.7.3.3).
            var ancestor = parent[index], seen: Set<Int> = []
            while let a = ancestor, seen.insert(a).inserted {
                if ["matrix", "translation", "rotation", "scale"].contains(where: { nodes[a][$0] != nil }) {
                    findings.add("NODE_SKINNED_MESH_PARENT_TRANSFORMS", "ancestor node \(a) has a transform, which the skin ignores", at: "/nodes/\(index)")
                    break
                }
                ancestor = parent[a]
            }
        }
        scenes(parent: parent)
    }

    /// Mesh weights every node using the mesh replaces with its own.
    private mutating func unusedMeshWeights() {
        for (m, mesh) in meshes.enumerated() where mesh["weights"] != nil {
            let users = nodes.filter { $0["mesh"]?.integer == m }
            if !users.isEmpty && users.allSatisfy({ $0["weights"] != nil }) {
                findings.add("UNUSED_MESH_WEIGHTS", "every node using mesh \(m) gives its own weights", at: "/meshes/\(m)/weights")
            }
        }
    }

    /// A skinned node drawn in a scene that holds none of its skin's joints has no pose to take.
    private mutating func skinsInScenes() {
        let skins = root["skins"]?.elements ?? []
        for (s, scene) in (root["scenes"]?.elements ?? []).enumerated() {
            // Every node under the scene's roots.
            var inScene: Set<Int> = []
            var stack = (scene["nodes"]?.elements ?? []).compactMap(\.integer).filter { nodes.indices.contains($0) }
            while let next = stack.popLast() {
                guard inScene.insert(next).inserted else { continue }
                stack += (nodes[next]["children"]?.elements ?? []).compactMap(\.integer).filter { nodes.indices.contains($0) }
            }
            for index in inScene.sorted() {
                guard let skin = nodes[index]["skin"]?.integer, skins.indices.contains(skin) else { continue }
                let joints = (skins[skin]["joints"]?.elements ?? []).compactMap(\.integer)
                if !joints.isEmpty && !joints.contains(where: inScene.contains) {
                    findings.add("NODE_SKIN_NO_SCENE", "scene \(s) draws node \(index) but none of skin \(skin)'s joints", at: "/nodes/\(index)")
                }
            }
        }
    }

    private mutating func transform(_ node: JSONValue, at here: String) {
        if let matrix = node["matrix"]?.elements?.compactMap(\.number), matrix.count == 16 {
            if ["translation", "rotation", "scale"].contains(where: { node[$0] != nil }) {
                findings.add("NODE_MATRIX_TRS", "the node has a matrix and translation, rotation or scale", at: here + "/matrix")
            }
            let identity: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
            if matrix == identity {
                findings.add("NODE_MATRIX_DEFAULT", "the matrix is the identity, the default", at: here + "/matrix")
            } else if !Self.decomposable(matrix) {
                findings.add("NODE_MATRIX_NON_TRS", "the matrix shears or projects, or its last row is not (0, 0, 0, 1)", at: here + "/matrix")
            }
        }
        if let rotation = node["rotation"]?.elements?.compactMap(\.number), rotation.count == 4 {
            let length = rotation.reduce(0) { $0 + $1 * $1 }.squareRoot()
            if abs(length - 1) > 0.000005 { findings.add("ROTATION_NON_UNIT", "the quaternion's length is \(length)", at: here + "/rotation") }
        }
    }

    /// Whether a column-major matrix is translation x rotation x scale: last row (0, 0, 0, 1), and
    /// the 3x3 part's columns orthogonal (no shear), with a non-zero determinant.
    static func decomposable(_ m: [Double]) -> Bool {
        guard abs(m[3]) < 1e-6, abs(m[7]) < 1e-6, abs(m[11]) < 1e-6, abs(m[15] - 1) < 1e-6 else { return false }
        let c = [[m[0], m[1], m[2]], [m[4], m[5], m[6]], [m[8], m[9], m[10]]]
        let lengths = c.map { ($0[0] * $0[0] + $0[1] * $0[1] + $0[2] * $0[2]).squareRoot() }
        guard lengths.allSatisfy({ $0 > 1e-12 }) else { return false }
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            let dot = (c[a][0] * c[b][0] + c[a][1] * c[b][1] + c[a][2] * c[b][2]) / (lengths[a] * lengths[b])
            if abs(dot) > 1e-4 { return false }
        }
        return true
    }

    private mutating func loops() {
        // Walking up from each node: a loop is a node that reaches itself.
        let parent = parents()
        var reported: Set<Int> = []
        for start in nodes.indices {
            var seen: Set<Int> = [start]
            var at = start
            while let up = parent[at] {
                if up == start {
                    if reported.insert(start).inserted { findings.add("NODE_LOOP", "node \(start) is its own ancestor", at: "/nodes/\(start)") }
                    break
                }
                if !seen.insert(up).inserted { break }
                at = up
            }
        }
    }

    private mutating func scenes(parent: [Int: Int]) {
        let scenes = root["scenes"]?.elements ?? []
        if let scene = root["scene"]?.integer { usage.refer("scenes", scene) }
        for (index, scene) in scenes.enumerated() {
            for (k, node) in (scene["nodes"]?.elements ?? []).compactMap(\.integer).enumerated() where nodes.indices.contains(node) {
                usage.refer("nodes", node)
                if let up = parent[node] { findings.add("SCENE_NON_ROOT_NODE", "node \(node) is a child of node \(up)", at: "/scenes/\(index)/nodes/\(k)") }
            }
        }
    }

    mutating func skins() {
        let parent = parents()
        for (index, skin) in (root["skins"]?.elements ?? []).enumerated() {
            let here = "/skins/\(index)"
            let joints = (skin["joints"]?.elements ?? []).compactMap(\.integer).filter { nodes.indices.contains($0) }
            for joint in joints { usage.refer("nodes", joint) }
            usage.refer("nodes", skin["skeleton"]?.integer)
            if let ibm = skin["inverseBindMatrices"]?.integer, let accessor = accessor(ibm) {
                use(ibm, as: .inverseBindMatrices, at: here + "/inverseBindMatrices")
                if !hasFormat(accessor, [(Self.float, false, "MAT4")]) {
                    findings.add("SKIN_IBM_INVALID_FORMAT", "inverse bind matrices are \(format(accessor))", at: here + "/inverseBindMatrices")
                }
                if let count = accessor["count"]?.integer, count < joints.count {
                    findings.add("INVALID_IBM_ACCESSOR_COUNT", "\(count) matrices for \(joints.count) joints", at: here + "/inverseBindMatrices")
                }
                if view(of: accessor)?["byteStride"] != nil {
                    findings.add("SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE", "the matrices' bufferView has a byteStride", at: here + "/inverseBindMatrices")
                }
            }
            // Every joint's chain of ancestors; the common root is on all of them.
            let chains = joints.map { joint -> [Int] in
                var chain = [joint], at = joint, guardCount = 0
                while let up = parent[at], guardCount < nodes.count { chain.append(up); at = up; guardCount += 1 }
                return chain
            }
            // A joint that names no node has no root at all, so none is common (as the validator has it).
            let listed = skin["joints"]?.elements?.count ?? 0
            if listed > joints.count {
                findings.add("SKIN_NO_COMMON_ROOT", "a joint names no node, so the joints have no common root", at: here + "/joints")
                continue
            }
            guard let first = chains.first else { continue }
            let common = first.filter { candidate in chains.allSatisfy { $0.contains(candidate) } }
            if common.isEmpty && joints.count > 1 { findings.add("SKIN_NO_COMMON_ROOT", "the joints share no ancestor", at: here + "/joints") }
            if let skeleton = skin["skeleton"]?.integer, nodes.indices.contains(skeleton), !chains.allSatisfy({ $0.contains(skeleton) }) {
                findings.add("SKIN_SKELETON_INVALID", "node \(skeleton) is not an ancestor of every joint", at: here + "/skeleton")
            }
        }
    }

    mutating func animations() {
        for (a, animation) in (root["animations"]?.elements ?? []).enumerated() {
            let base = "/animations/\(a)"
            let samplers = animation["samplers"]?.elements ?? []
            var usedSamplers: Set<Int> = []
            var targets: [String: Int] = [:]
            for (c, channel) in (animation["channels"]?.elements ?? []).enumerated() {
                let here = "\(base)/channels/\(c)"
                guard let target = channel["target"], let path = target["path"]?.string else { continue }
                let sampler = channel["sampler"]?.integer
                if let sampler { usedSamplers.insert(sampler) }
                if let pointer = target["extensions"]?["KHR_animation_pointer"] {
                    if target["node"] != nil { findings.add("KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_NODE", "the channel names a node as well as a pointer", at: here + "/target/node") }
                    if path != "pointer" { findings.add("KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_PATH", "path is '\(path)'", at: here + "/target/path") }
                    // The pointer's property decides the output's type, which this check does not resolve;
                    // the sampler's keys and counts are checked as any other's (a weights pointer's count
                    // per key is its mesh's morph targets), and its accessors are used.
                    if let sampler, samplers.indices.contains(sampler) {
                        samplerRules(samplers[sampler], path: "pointer", morphs: pointerMorphs(pointer["pointer"]?.string ?? ""),
                                     at: "\(base)/samplers/\(sampler)")
                    }
                    continue
                }
                guard let node = target["node"]?.integer, nodes.indices.contains(node) else { continue }
                usage.refer("nodes", node)
                let key = "\(node)/\(path)"
                if let previous = targets[key] {
                    findings.add("ANIMATION_DUPLICATE_TARGETS", "channel \(previous) already drives node \(node)'s \(path)", at: here)
                } else {
                    targets[key] = c
                }
                let subject = nodes[node]
                if path != "weights" && subject["matrix"] != nil {
                    findings.add("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", "node \(node) has a matrix, so its \(path) cannot be animated", at: here + "/target/node")
                }
                if path != "weights", subject["skin"] != nil, let mesh = subject["mesh"]?.integer, meshHasJoints(mesh) {
                    findings.add("ANIMATION_CHANNEL_TARGET_NODE_SKIN", "node \(node)'s skinned mesh ignores its \(path)", at: here + "/target/node")
                }
                var morphs = 0
                if path == "weights" {
                    morphs = subject["mesh"]?.integer.flatMap(targetCount) ?? 0
                    if morphs == 0 {
                        findings.add("ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS", "node \(node)'s mesh has no morph targets", at: here + "/target/node")
                    }
                }
                if let sampler, samplers.indices.contains(sampler) {
                    samplerRules(samplers[sampler], path: path, morphs: morphs, at: "\(base)/samplers/\(sampler)")
                }
            }
            for s in samplers.indices where !usedSamplers.contains(s) {
                findings.add("UNUSED_OBJECT", "no channel uses sampler \(s)", at: "\(base)/samplers/\(s)")
            }
        }
    }

    /// The morph target count a `/meshes/M/weights` or `/nodes/N/weights` pointer animates; 0 for other pointers.
    private func pointerMorphs(_ pointer: String) -> Int {
        let parts = pointer.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].isEmpty, parts[3] == "weights", let n = Int(parts[2]) else { return 0 }
        if parts[1] == "meshes" { return targetCount(n) ?? 0 }
        guard parts[1] == "nodes", nodes.indices.contains(n), let mesh = nodes[n]["mesh"]?.integer else { return 0 }
        return targetCount(mesh) ?? 0
    }

    private mutating func samplerRules(_ sampler: JSONValue, path: String, morphs: Int, at here: String) {
        let interpolation = sampler["interpolation"]?.string ?? "LINEAR"
        guard let inputIndex = sampler["input"]?.integer, let input = accessor(inputIndex),
              let outputIndex = sampler["output"]?.integer, let output = accessor(outputIndex) else { return }
        use(inputIndex, as: .animationInput, at: here + "/input")
        use(outputIndex, as: .animationOutput, at: here + "/output")
        if path == "rotation" { usage.rotationOutputs.insert(outputIndex) }
        if !hasFormat(input, [(Self.float, false, "SCALAR")]) {
            findings.add("ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT", "key times are \(format(input))", at: here + "/input")
        }
        if input["min"] == nil || input["max"] == nil {
            findings.add("ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", "the key times' accessor has no min and max", at: here + "/input")
        }
        for (index, accessor, key) in [(inputIndex, input, "input"), (outputIndex, output, "output")] where view(of: accessor)?["byteStride"] != nil {
            findings.add("ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE", "accessor \(index)'s bufferView has a byteStride", at: "\(here)/\(key)")
        }
        guard let keys = input["count"]?.integer, let values = output["count"]?.integer else { return }
        // The validator asks two keys of a cubic spline only: one LINEAR or STEP key is a pose.
        let needed = interpolation == "CUBICSPLINE" ? 2 : 1
        if keys < needed {
            findings.add("ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS", "\(interpolation) needs \(needed) keys; there are \(keys)", at: here + "/input")
        }
        let expected = keys * (interpolation == "CUBICSPLINE" ? 3 : 1) * (path == "weights" || path == "pointer" ? max(morphs, 1) : 1)
        if values != expected {
            findings.add("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", "\(values) values; \(keys) \(interpolation) keys need \(expected)", at: here + "/output")
        }
        let f = Self.float, b = Self.byte, ub = Self.unsignedByte, s = Self.short, us = Self.unsignedShort
        let allowed: [(Int, Bool, String)]
        switch path {
        case "translation", "scale": allowed = [(f, false, "VEC3")]
        case "rotation": allowed = [(f, false, "VEC4"), (b, true, "VEC4"), (ub, true, "VEC4"), (s, true, "VEC4"), (us, true, "VEC4")]
        case "pointer": allowed = []
        default: allowed = [(f, false, "SCALAR"), (b, true, "SCALAR"), (ub, true, "SCALAR"), (s, true, "SCALAR"), (us, true, "SCALAR")]
        }
        if !allowed.isEmpty, !hasFormat(output, allowed) {
            findings.add("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", "\(path) values are \(format(output))", at: here + "/output")
        }
    }
}

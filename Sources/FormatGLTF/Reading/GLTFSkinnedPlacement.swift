import AssetCore

/// glTF places a skinned mesh by its joints alone: "only the joint transforms are applied to the
/// skinned mesh; the transform of the skinned mesh node MUST be ignored" (glTF 2.0, 3.7.3.3).
/// The scene model draws a mesh at rest through its node's world transform and skins it through
/// the joints only when posed, so a skinned node with a transform of its own, or under a parent
/// with one, would stand at rest where glTF never puts it (the validator's
/// `skin/ignored_local_transform.gltf`: bounds at (1, 2, 3), not the origin).
///
/// Where the node's world transform W differs from where the joints put the bind-space points at
/// rest, S (each joint's world times its inverse bind matrix), the mesh's points are carried by
/// A = W⁻¹·S into the node's space and its skin binding undoes A (`geomBindTransform` A⁻¹), so
/// the rest scene shows S·p and every pose is unchanged. The node, its children and its
/// animation stay as they are.
enum GLTFSkinnedPlacement {
    static func apply(to scene: inout Scene) {
        let flat = FlatNodeTree(scene.root)
        let worlds = flat.worldTransforms()
        var indexByPath: [String: Int] = [:]
        for (i, path) in flat.paths.enumerated() { indexByPath[path] = i }
        var users = [Int](repeating: 0, count: scene.meshes.count)
        for node in flat.nodes { for instance in node.meshInstances where users.indices.contains(instance.mesh) { users[instance.mesh] += 1 } }
        var moved = false
        var nodes = flat.nodes
        for i in nodes.indices {
            for k in nodes[i].meshInstances.indices {
                let instance = nodes[i].meshInstances[k]
                guard let binding = instance.skin, scene.skeletons.indices.contains(binding.skeleton),
                      scene.meshes.indices.contains(instance.mesh), let weights = scene.meshes[instance.mesh].skinWeights,
                      let rest = restPlacement(scene.skeletons[binding.skeleton], weights: weights, worlds: worlds, indexByPath: indexByPath),
                      !close(rest, worlds[i]), let toNode = worlds[i].inverse
                else { continue }
                let carry = toNode * rest
                guard let undo = carry.inverse else { continue }
                var mesh = scene.meshes[instance.mesh]
                mesh.transform(by: carry)
                for s in mesh.blendShapes.indices {
                    mesh.blendShapes[s].offsets = mesh.blendShapes[s].offsets.map { SIMD3<Float>(carry.transformDirection($0.double)) }
                    // Normal offsets move with the normals they add to: the inverse transpose.
                    if let normalOffsets = mesh.blendShapes[s].normalOffsets, let normals = carry.inverse?.transposed {
                        mesh.blendShapes[s].normalOffsets = normalOffsets.map { SIMD3<Float>(normals.transformDirection($0.double)) }
                    }
                }
                // A mesh other nodes also place gets a copy of its own.
                if users[instance.mesh] > 1 {
                    users[instance.mesh] -= 1
                    scene.meshes.append(mesh)
                    nodes[i].meshInstances[k].mesh = scene.meshes.count - 1
                } else {
                    scene.meshes[instance.mesh] = mesh
                }
                nodes[i].meshInstances[k].skin?.geomBindTransform = undo * binding.geomBindTransform
                moved = true
            }
        }
        guard moved else { return }
        var rebuilt = flat
        rebuilt.nodes = nodes
        scene.root = rebuilt.rebuilt()
    }

    /// Where the joints put bind-space points at rest: the joint world times its inverse bind
    /// matrix, which is one matrix for every joint when the nodes stand in the bind pose. When
    /// they do not (the file's rest pose is not its bind pose), the joint carrying the most
    /// weight decides. Nil when no joint is in the scene.
    private static func restPlacement(_ skeleton: Skeleton, weights: SkinWeights, worlds: [Matrix4x4], indexByPath: [String: Int]) -> Matrix4x4? {
        var total = [Double](repeating: 0, count: skeleton.jointPaths.count)
        weights.joints.withUnsafeBufferPointer { joints in
            weights.weights.withUnsafeBufferPointer { values in
                for n in 0..<min(joints.count, values.count) where total.indices.contains(Int(joints[n])) {
                    total[Int(joints[n])] += Double(values[n])
                }
            }
        }
        var best: (joint: Int, weight: Double)?
        for j in skeleton.jointPaths.indices where indexByPath[skeleton.jointPaths[j]] != nil {
            if best == nil || total[j] > best!.weight { best = (j, total[j]) }
        }
        guard let j = best?.joint, let n = indexByPath[skeleton.jointPaths[j]] else { return nil }
        let inverseBind = skeleton.inverseBindMatrices.indices.contains(j) ? skeleton.inverseBindMatrices[j] : .identity
        return worlds[n] * inverseBind
    }

    /// Equal to within float precision at the matrices' own scale.
    private static func close(_ a: Matrix4x4, _ b: Matrix4x4) -> Bool {
        let scale = max(1, a.columnMajorElements.map(abs).max() ?? 1)
        return a.isApproximatelyEqual(to: b, tolerance: 1e-5 * scale)
    }
}

import AssetCore

/// Skins, morph targets and animations in the glTF writer. glTF keeps what the scene model keeps:
/// joints are nodes, influences are JOINTS_n/WEIGHTS_n sets of four, blend shapes are morph
/// targets, and channels carry their keys and interpolation as they are. What glTF cannot say is
/// converted: a geometry bind transform is baked into the skinned vertices, matrix channels are split
/// into translation, rotation and scale keys, USD in-between shapes are left out with a warning.
extension GLTFBuilder {
    /// JOINTS_n (unsigned shorts) and WEIGHTS_n (floats) for the vertices, ceil(influences / 4) sets.
    mutating func skinAttributes(_ weights: SkinWeights, jointCount: Int, sourcePoints: [UInt32]?, vertexCount: Int) -> [String: Int] {
        let k = weights.influencesPerPoint
        let sets = (k + 3) / 4
        var attributes: [String: Int] = [:]
        for set in 0..<sets {
            var joints = [UInt16](repeating: 0, count: vertexCount * 4)
            var values = [Float](repeating: 0, count: vertexCount * 4)
            for v in 0..<vertexCount {
                let point = Int(sourcePoints?[v] ?? UInt32(v))
                for c in 0..<4 {
                    let e = point * k + set * 4 + c
                    guard set * 4 + c < k, e < weights.joints.count else { continue }
                    let joint = Int(weights.joints[e])
                    // An influence on no joint keeps no weight (glTF has no "none" joint).
                    guard joint >= 0, joint < jointCount, joint <= Int(UInt16.max) else { continue }
                    joints[v * 4 + c] = UInt16(joint)
                    values[v * 4 + c] = weights.weights[e]
                }
            }
            buffer.pad(to: 4)
            let start = buffer.count
            for j in joints { buffer.u16(j) }
            let view = addView(buffer.count - start, target: 34962)
            document.accessors.append(GLTFDocument.Accessor(bufferView: view, componentType: 5123, count: vertexCount, type: "VEC4"))
            attributes["JOINTS_\(set)"] = document.accessors.count - 1
            attributes["WEIGHTS_\(set)"] = addFloats(values, type: "VEC4", count: vertexCount)
        }
        return attributes
    }

    /// One morph target per blend shape, its offsets spread over the vertices.
    mutating func morphTargets(_ shapes: [BlendShape], sourcePoints: [UInt32]?, vertexCount: Int, pointCount: Int) -> [[String: Int]] {
        var targets: [[String: Int]] = []
        var droppedInbetweens = 0
        for shape in shapes {
            droppedInbetweens += shape.inbetweens.count
            func dense(_ offsets: [SIMD3<Float>]) -> [SIMD3<Float>] {
                var perPoint = [SIMD3<Float>](repeating: .zero, count: pointCount)
                if let indices = shape.pointIndices {
                    for (n, index) in indices.enumerated() where n < offsets.count && index >= 0 && Int(index) < pointCount { perPoint[Int(index)] = offsets[n] }
                } else {
                    for i in 0..<Swift.min(pointCount, offsets.count) { perPoint[i] = offsets[i] }
                }
                return (0..<vertexCount).map { perPoint[Int(sourcePoints?[$0] ?? UInt32($0))] }
            }
            var target: [String: Int] = [:]
            let positions = dense(shape.offsets)
            target["POSITION"] = addFloats(positions.flatMap { [$0.x, $0.y, $0.z] }, type: "VEC3", count: vertexCount, bounds: true)
            if let normals = shape.normalOffsets {
                target["NORMAL"] = addFloats(dense(normals).flatMap { [$0.x, $0.y, $0.z] }, type: "VEC3", count: vertexCount)
            }
            targets.append(target)
        }
        if droppedInbetweens > 0 {
            diagnostics.append(.warning("glTF morph targets have no in-between shapes: \(droppedInbetweens) left out, each shape's full offsets kept"))
        }
        return targets
    }

    /// Skins (after every node has its number) and each clip as one glTF animation.
    mutating func addSkinsAndAnimations(nodeIndexByPath: [String: Int], skinnedNodes: [(node: Int, skeleton: Int)]) {
        var skinIndex: [Int: Int] = [:]
        var skins: [GLTFDocument.Skin] = []
        for (s, skeleton) in scene.skeletons.enumerated() {
            let joints = skeleton.jointPaths.map { nodeIndexByPath[$0] }
            guard !joints.isEmpty, joints.allSatisfy({ $0 != nil }) else {
                if !joints.isEmpty { diagnostics.append(.warning("skeleton \(skeleton.name) has joints outside the written scene; its skin is left out")) }
                continue
            }
            let matrices = skeleton.jointPaths.indices.map { j in
                skeleton.inverseBindMatrices.indices.contains(j) ? skeleton.inverseBindMatrices[j] : .identity
            }
            let accessor = addFloats(matrices.flatMap { $0.columnMajorElements.map(Float.init) }, type: "MAT4", count: matrices.count)
            // Inverse bind matrices are not vertex data.
            document.bufferViews[document.accessors[accessor].bufferView!].target = nil
            skinIndex[s] = skins.count
            skins.append(GLTFDocument.Skin(name: skeleton.name.isEmpty ? nil : skeleton.name, inverseBindMatrices: accessor, joints: joints.map { $0! }))
        }
        for (node, skeleton) in skinnedNodes { document.nodes[node].skin = skinIndex[skeleton] }
        if !skins.isEmpty { document.skins = skins }

        var animations: [GLTFDocument.Animation] = []
        var animatedNodes: Set<Int> = []
        let pointCaches = scene.animations.flatMap(\.channels).filter { if case .points = $0.property { return true }; return false }.count
        if pointCaches > 0 {
            diagnostics.append(.warning("glTF has no point caches: \(pointCaches == 1 ? "1 animated point set" : "\(pointCaches) animated point sets") left out (the meshes keep the points they were read with)"))
        }
        for clip in scene.animations {
            var animation = GLTFDocument.Animation(name: clip.name.isEmpty ? nil : clip.name)
            for channel in clip.channels where !channel.times.isEmpty {
                guard let node = nodeIndexByPath[channel.nodePath] else { continue }
                let input = addFloats(channel.times.map(Float.init), type: "SCALAR", count: channel.times.count, bounds: true)
                for (path, values, interpolation, type) in Self.gltfChannels(channel) {
                    let target = path == "weights" ? (meshNodeByPath[channel.nodePath] ?? node) : node
                    let output = addFloats(values, type: type, count: values.count / Self.width(type))
                    for view in [document.accessors[input].bufferView, document.accessors[output].bufferView].compactMap({ $0 }) { document.bufferViews[view].target = nil }
                    animation.samplers.append(.init(input: input, interpolation: interpolation, output: output))
                    animation.channels.append(.init(sampler: animation.samplers.count - 1, target: .init(node: target, path: path)))
                    if path != "weights" { animatedNodes.insert(target) }
                }
            }
            materialPointerChannels(clip, into: &animation)
            lightPointerChannels(clip, into: &animation)
            if !animation.channels.isEmpty { animations.append(animation) }
        }
        if !animations.isEmpty { document.animations = animations }
        // glTF moves animated nodes by their TRS, so those have no matrix.
        for node in animatedNodes {
            guard let m = document.nodes[node].matrix else { continue }
            let parts = TransformComponents(Matrix4x4(columnMajor: m))
            document.nodes[node].matrix = nil
            document.nodes[node].translation = [parts.translation.x, parts.translation.y, parts.translation.z]
            document.nodes[node].rotation = [parts.rotation.imaginary.x, parts.rotation.imaginary.y, parts.rotation.imaginary.z, parts.rotation.real]
            document.nodes[node].scale = [parts.scale.x, parts.scale.y, parts.scale.z]
        }
    }

    static func width(_ type: String) -> Int { ["SCALAR": 1, "VEC3": 3, "VEC4": 4][type] ?? 1 }

    /// A channel as glTF channels: (path, output values, interpolation, accessor type).
    static func gltfChannels(_ channel: AnimationChannel) -> [(String, [Float], String, String)] {
        let interpolation = ["step": "STEP", "linear": "LINEAR", "cubic": "CUBICSPLINE"][channel.interpolation.rawValue]!
        switch channel.property {
        case .translation: return [("translation", channel.values, interpolation, "VEC3")]
        case .rotation: return [("rotation", channel.values, interpolation, "VEC4")]
        case .scale: return [("scale", channel.values, interpolation, "VEC3")]
        case .blendShapeWeights: return [("weights", channel.values, interpolation, "SCALAR")]
        case .points: return []  // glTF has no point caches (counted and warned by the caller)
        case .matrix:
            // Split key by key; a cubic matrix channel's keys are sampled as linear ones.
            var t: [Float] = [], r: [Float] = [], s: [Float] = []
            for k in channel.times.indices {
                guard let value = channel.sample(at: channel.times[k]) else { continue }
                let parts = TransformComponents(Matrix4x4(columnMajor: value.map(Double.init)))
                t += [parts.translation.x, parts.translation.y, parts.translation.z].map(Float.init)
                r += [parts.rotation.imaginary.x, parts.rotation.imaginary.y, parts.rotation.imaginary.z, parts.rotation.real].map(Float.init)
                s += [parts.scale.x, parts.scale.y, parts.scale.z].map(Float.init)
            }
            let mode = channel.interpolation == .step ? "STEP" : "LINEAR"
            return [("translation", t, mode, "VEC3"), ("rotation", r, mode, "VEC4"), ("scale", s, mode, "VEC3")]
        }
    }
}

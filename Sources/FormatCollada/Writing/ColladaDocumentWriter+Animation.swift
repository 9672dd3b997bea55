import AssetCore

/// Skins, morphs and animation in the Collada writer: a skin controller per (mesh, skeleton) with
/// the skeleton's joints by sid, inverse bind matrices and each point's nonzero influences; a
/// RELATIVE morph per mesh with blend shapes (a position-only target geometry per shape), under the
/// skin when both; every animated node's transform as one `<matrix sid="transform">` keyed by its
/// channels (rotations sampled more finely, since Collada blends matrices element by element);
/// blend-shape weights through `<morph>-weights(i)`; one `<animation_clip>` per clip.
extension ColladaDocumentWriter {
    /// The controller an instance is written through; nil for plain geometry.
    mutating func controllerID(for instance: MeshInstance) -> String? {
        let mesh = scene.meshes[instance.mesh]
        let skeleton = instance.skin.flatMap { mesh.skinWeights != nil && scene.skeletons.indices.contains($0.skeleton) ? $0.skeleton : nil }
        guard skeleton != nil || !mesh.blendShapes.isEmpty else { return nil }
        let id = skeleton.map { "skin\(instance.mesh)-\($0)" } ?? "morph\(instance.mesh)"
        if !controllerUses.contains(where: { $0.id == id }) {
            controllerUses.append((id, instance.mesh, skeleton, instance.skin?.geomBindTransform ?? .identity))
        }
        return id
    }

    /// Joint nodes whose parent is not a joint: the instance's `<skeleton>` roots.
    func skeletonRoots(_ skeleton: Int) -> [String] {
        let joints = Set(scene.skeletons[skeleton].jointPaths)
        return scene.skeletons[skeleton].jointPaths.filter { path in
            let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            return !joints.contains(parent)
        }.compactMap { nodeIDs[$0] }
    }

    static func rowMajor(_ m: Matrix4x4) -> [Float] { (0..<4).flatMap { r in (0..<4).map { c in Float(m[r, c]) } } }

    static func floatSource(_ id: String, _ values: [Float], params: [String], type: String = "float") -> String {
        let stride = type == "float4x4" ? 16 : params.count
        let count = stride == 0 ? 0 : values.count / stride
        let paramXML = params.map { $0.isEmpty ? "<param type=\"\(type)\"/>" : "<param name=\"\($0)\" type=\"\(type)\"/>" }.joined()
        return "      <source id=\"\(id)\"><float_array id=\"\(id)-array\" count=\"\(values.count)\">" + values.map(NumberText.float).joined(separator: " ")
            + "</float_array><technique_common><accessor source=\"#\(id)-array\" count=\"\(count)\" stride=\"\(stride)\">\(paramXML)</accessor></technique_common></source>\n"
    }

    static func nameSource(_ id: String, _ names: [String], param: String, array: String = "Name_array") -> String {
        "      <source id=\"\(id)\"><\(array) id=\"\(id)-array\" count=\"\(names.count)\">" + names.map(MarkupText.escape).joined(separator: " ")
            + "</\(array)><technique_common><accessor source=\"#\(id)-array\" count=\"\(names.count)\" stride=\"1\"><param name=\"\(param)\" type=\"name\"/></accessor></technique_common></source>\n"
    }

    /// A position-only geometry per blend shape: the offsets, on the mesh's own faces.
    func morphTargetGeometries() -> String {
        var x = ""
        for use in controllerUses where !scene.meshes[use.mesh].blendShapes.isEmpty && !x.contains("id=\"geometry\(use.mesh)-shape0\"") {
            let mesh = scene.meshes[use.mesh]
            for (k, shape) in mesh.blendShapes.enumerated() {
                let id = "geometry\(use.mesh)-shape\(k)"
                var offsets = [SIMD3<Float>](repeating: .zero, count: mesh.points.count)
                if let indices = shape.pointIndices {
                    for (n, i) in indices.enumerated() where n < shape.offsets.count && i >= 0 && Int(i) < offsets.count { offsets[Int(i)] = shape.offsets[n] }
                } else {
                    for i in 0..<min(offsets.count, shape.offsets.count) { offsets[i] = shape.offsets[i] }
                }
                x += "    <geometry id=\"\(id)\" name=\"\(MarkupText.escape(shape.name))\"><mesh>\n"
                x += Self.floatSource("\(id)-positions", offsets.flatMap { [$0.x, $0.y, $0.z] }, params: ["X", "Y", "Z"])
                x += "      <vertices id=\"\(id)-vertices\"><input semantic=\"POSITION\" source=\"#\(id)-positions\"/></vertices>\n"
                x += "      <polylist count=\"\(mesh.faceVertexCounts.count)\"><input semantic=\"VERTEX\" source=\"#\(id)-vertices\" offset=\"0\"/>"
                x += "<vcount>" + mesh.faceVertexCounts.map(String.init).joined(separator: " ") + "</vcount>"
                x += "<p>" + mesh.faceVertexIndices.map(String.init).joined(separator: " ") + "</p></polylist>\n    </mesh></geometry>\n"
            }
        }
        guard !x.isEmpty else { return "" }
        return "  <library_geometries>\n" + x + "  </library_geometries>\n"
    }

    mutating func controllersLibrary() -> String {
        guard !controllerUses.isEmpty else { return "" }
        var x = "  <library_controllers>\n"
        var morphsWritten = Set<Int>()
        for use in controllerUses {
            let mesh = scene.meshes[use.mesh]
            var skinSource = "geometry\(use.mesh)"
            if !mesh.blendShapes.isEmpty {
                skinSource = "morph\(use.mesh)"
                if morphsWritten.insert(use.mesh).inserted { x += morph(use.mesh) }
                if mesh.blendShapes.contains(where: { !$0.inbetweens.isEmpty }) {
                    diagnostics.append(.warning("Collada morphs have no in-between shapes: those of \(mesh.name) are left out"))
                }
            }
            guard let s = use.skeleton, let weights = mesh.skinWeights else { continue }
            let skeleton = scene.skeletons[s]
            let id = use.id
            x += "    <controller id=\"\(id)\"><skin source=\"#\(skinSource)\">\n"
            x += "      <bind_shape_matrix>" + Self.rowMajor(use.geomBind).map(NumberText.float).joined(separator: " ") + "</bind_shape_matrix>\n"
            x += Self.nameSource("\(id)-joints", skeleton.jointPaths.map { nodeIDs[$0] ?? "missing" }, param: "JOINT")
            x += Self.floatSource("\(id)-binds", skeleton.jointPaths.indices.flatMap { j in
                Self.rowMajor(skeleton.inverseBindMatrices.indices.contains(j) ? skeleton.inverseBindMatrices[j] : .identity)
            }, params: [""], type: "float4x4")
            var weightValues: [Float] = [], vcount: [Int] = [], v: [Int] = []
            let k = weights.influencesPerPoint
            for point in 0..<min(mesh.points.count, weights.pointCount) {
                var n = 0
                for e in (point * k)..<(point * k + k) where weights.weights[e] != 0 && weights.joints[e] >= 0 && Int(weights.joints[e]) < skeleton.jointCount {
                    v += [Int(weights.joints[e]), weightValues.count]
                    weightValues.append(weights.weights[e])
                    n += 1
                }
                vcount.append(n)
            }
            x += Self.floatSource("\(id)-weights", weightValues, params: ["WEIGHT"])
            x += "      <joints><input semantic=\"JOINT\" source=\"#\(id)-joints\"/><input semantic=\"INV_BIND_MATRIX\" source=\"#\(id)-binds\"/></joints>\n"
            x += "      <vertex_weights count=\"\(vcount.count)\"><input semantic=\"JOINT\" source=\"#\(id)-joints\" offset=\"0\"/>"
            x += "<input semantic=\"WEIGHT\" source=\"#\(id)-weights\" offset=\"1\"/>"
            x += "<vcount>" + vcount.map(String.init).joined(separator: " ") + "</vcount><v>" + v.map(String.init).joined(separator: " ") + "</v></vertex_weights>\n"
            x += "    </skin></controller>\n"
        }
        return x + "  </library_controllers>\n"
    }

    private func morph(_ meshIndex: Int) -> String {
        let mesh = scene.meshes[meshIndex]
        let id = "morph\(meshIndex)"
        let defaults = defaultWeights(meshIndex)
        var x = "    <controller id=\"\(id)\"><morph source=\"#geometry\(meshIndex)\" method=\"RELATIVE\">\n"
        x += Self.nameSource("\(id)-targets", mesh.blendShapes.indices.map { "geometry\(meshIndex)-shape\($0)" }, param: "MORPH_TARGET", array: "IDREF_array")
        x += Self.floatSource("\(id)-weights", defaults, params: ["MORPH_WEIGHT"])
        x += "      <targets><input semantic=\"MORPH_TARGET\" source=\"#\(id)-targets\"/><input semantic=\"MORPH_WEIGHT\" source=\"#\(id)-weights\"/></targets>\n"
        return x + "    </morph></controller>\n"
    }

    /// The first placed instance's default weights for a mesh's blend shapes.
    private func defaultWeights(_ meshIndex: Int) -> [Float] {
        let count = scene.meshes[meshIndex].blendShapes.count
        let given = scene.placedMeshes(includingUncounted: true).first { $0.instance.mesh == meshIndex }?.instance.blendShapeWeights ?? []
        return (0..<count).map { $0 < given.count ? given[$0] : 0 }
    }

    mutating func animationLibraries() -> String {
        var animations = "", clips = ""
        var counter = 0, clipCount = 0
        let pointCaches = scene.animations.flatMap(\.channels).filter { if case .points = $0.property { return true }; return false }.count
        if pointCaches > 0 {
            diagnostics.append(.warning("Collada has no point caches: \(pointCaches == 1 ? "1 animated point set" : "\(pointCaches) animated point sets") left out (the meshes keep the points they were read with)"))
        }
        let placed = scene.placedMeshes(includingUncounted: true)
        for clip in scene.animations {
            var ids: [String] = []
            var byNode: [String: [AnimationChannel]] = [:]
            for channel in clip.channels { byNode[channel.nodePath, default: []].append(channel) }
            for (path, channels) in byNode.sorted(by: { $0.key < $1.key }) {
                guard let nodeID = nodeIDs[path], let node = scene.node(at: path) else { continue }
                let transforms = channels.filter(\.property.isTransform)
                if !transforms.isEmpty {
                    counter += 1
                    let id = "animation\(counter)"
                    ids.append(id)
                    animations += matrixAnimation(id, target: "\(nodeID)/transform", rest: node.transform, channels: transforms)
                }
                for channel in channels {
                    guard case .blendShapeWeights(let count) = channel.property,
                          let mesh = placed.first(where: { $0.nodePath == path && !scene.meshes[$0.instance.mesh].blendShapes.isEmpty })?.instance.mesh else { continue }
                    for shape in 0..<count {
                        counter += 1
                        let id = "animation\(counter)"
                        ids.append(id)
                        let values = channel.times.indices.compactMap { k in channel.sample(at: channel.times[k])?[shape] }
                        animations += animation(id, target: "morph\(mesh)-weights(\(shape))", times: channel.times, values: values,
                                                params: [""], type: "float", interpolation: channel.interpolation == .step ? "STEP" : "LINEAR")
                    }
                }
            }
            guard !ids.isEmpty else { continue }
            let range = clip.timeRange ?? 0...0
            clipCount += 1
            clips += "    <animation_clip id=\"clip\(clipCount)\" name=\"\(MarkupText.escape(clip.name))\" "
                + "start=\"\(NumberText.double(range.lowerBound))\" end=\"\(NumberText.double(range.upperBound))\">"
                + ids.map { "<instance_animation url=\"#\($0)\"/>" }.joined() + "</animation_clip>\n"
        }
        guard !animations.isEmpty else { return "" }
        return "  <library_animations>\n" + animations + "  </library_animations>\n  <library_animation_clips>\n" + clips + "  </library_animation_clips>\n"
    }

    /// A node's channels as keys of its whole local matrix, at every time any of them samples and,
    /// where it turns, three more inside a span whose element-wise blend (Collada's LINEAR on a
    /// matrix, which shrinks a turn) misses the pose at the span's quarters by more than a
    /// ten-thousandth of the node's size: the tolerance within which the readers' thinning
    /// (`withoutSamplesTheBlendReproduces`) drops samples again, so a round trip adds none.
    private func matrixAnimation(_ id: String, target: String, rest: Matrix4x4, channels: [AnimationChannel]) -> String {
        var times = Set<Double>()
        for channel in channels { times.formUnion(channel.linearSampleTimes()) }
        let keys = times.sorted()
        func pose(_ time: Double) -> [Float] { Self.rowMajor(channels.localTransform(rest: rest, at: time) ?? rest) }
        let turns = channels.contains(where: { $0.property == .rotation || $0.property == .matrix })
        var sorted: [Double] = []
        var values: [Float] = []
        for (k, t) in keys.enumerated() {
            let here = pose(t)
            sorted.append(t)
            values += here
            guard turns, k + 1 < keys.count else { continue }
            let next = keys[k + 1], there = pose(next)
            let size = max(1, here.map { abs(Double($0)) }.max() ?? 1)
            let quarters: [Double] = (1..<4).map { t + (next - t) * Double($0) / 4 }
            let inside: [[Float]] = quarters.map(pose)
            var misses = false
            for s in 0..<3 where !misses {
                let f = Double(s + 1) / 4
                for e in 0..<16 where abs(Double(inside[s][e]) - (Double(here[e]) + (Double(there[e]) - Double(here[e])) * f)) > 1e-4 * size {
                    misses = true
                }
            }
            if misses {
                sorted += quarters
                values += inside.flatMap { $0 }
            }
        }
        return animation(id, target: target, times: sorted, values: values, params: ["TRANSFORM"], type: "float4x4", interpolation: "LINEAR")
    }

    private func animation(_ id: String, target: String, times: [Double], values: [Float], params: [String], type: String, interpolation: String) -> String {
        var x = "    <animation id=\"\(id)\">\n"
        x += Self.floatSource("\(id)-input", times.map(Float.init), params: ["TIME"])
        x += Self.floatSource("\(id)-output", values, params: params, type: type)
        x += Self.nameSource("\(id)-interpolation", [String](repeating: interpolation, count: times.count), param: "INTERPOLATION")
        x += "      <sampler id=\"\(id)-sampler\"><input semantic=\"INPUT\" source=\"#\(id)-input\"/><input semantic=\"OUTPUT\" source=\"#\(id)-output\"/>"
        x += "<input semantic=\"INTERPOLATION\" source=\"#\(id)-interpolation\"/></sampler>\n"
        x += "      <channel source=\"#\(id)-sampler\" target=\"\(target)\"/>\n    </animation>\n"
        return x
    }
}

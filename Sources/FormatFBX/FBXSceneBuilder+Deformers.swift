import AssetCore

/// Skins and blend shapes. A `Deformer::Skin` on a geometry holds `SubDeformer::Cluster`s, each
/// with the bone model connected under it, the points it moves (Indexes, Weights), Transform (the
/// geometry's bind transform in the bone's bind space, as exporters store it) and TransformLink
/// (the bone's bind transform in the world; the BindPose's matrix where a cluster lacks it).
/// assetc's skeleton takes each bone's inverse bind as Transform · G⁻¹ with G = TransformLink ·
/// Transform of the first cluster, the geometry's bind transform, so Σ w · world(bone) ·
/// inverseBind · G · p is FBX's skinning exactly. A `Deformer::BlendShape` holds
/// `SubDeformer::BlendShapeChannel`s, each with its `Geometry::Shape`s (sparse point offsets, the
/// last at full weight, the others in-betweens at FullWeights percent).
extension FBXSceneBuilder {
    /// Skeletons being made, by skin id, with the bone model ids in joint order.
    struct PendingSkeleton {
        var skeleton: Int
        var bones: [String]
    }

    func clusters(of skin: FBXObject) -> [(cluster: FBXObject, bone: FBXObject?)] {
        objects.children(of: skin.id, kind: "Deformer").filter { $0.subclass == "Cluster" }.map { ($0, objects.children(of: $0.id, kind: "Model").first) }
    }

    func skin(of geometry: FBXObject) -> FBXObject? {
        objects.children(of: geometry.id, kind: "Deformer").first { $0.subclass == "Skin" }
    }

    /// Per-point influences from every cluster, padded to the widest point with joint -1. Two passes
    /// over the clusters' flat arrays (count each point's influences, then place them), so a million
    /// points cost no per-point allocation.
    mutating func skinWeights(of geometry: FBXObject, pointCount: Int) throws(AssetError) -> SkinWeights? {
        guard let skin = skin(of: geometry) else { return nil }
        let bones = bonesOf(skin)
        var used: [(joint: Int32, indexes: [Int32], weights: [Double])] = []
        for (cluster, bone) in clusters(of: skin) {
            guard let bone, let joint = bones.firstIndex(of: bone.id) else { continue }
            let indexes = cluster.node.value("Indexes")?.int32s ?? []
            let weights = cluster.node.value("Weights")?.doubles ?? []
            guard indexes.count == weights.count else {
                diagnostics.append(.warning("cluster \(cluster.id) (\(cluster.name)) has \(indexes.count) Indexes but \(weights.count) Weights; left out",
                                            at: cluster.node.location))
                continue
            }
            try budget.spend(work: indexes.count, for: "skin cluster \(cluster.id)", at: cluster.node.location)
            let outside = indexes.reduce(0) { $0 + ($1 < 0 || Int($1) >= pointCount ? 1 : 0) }
            if outside > 0 {
                diagnostics.append(.warning("cluster \(cluster.id) (\(cluster.name)) indexes points past the geometry's \(pointCount); \(outside) of its influences left out",
                                            at: cluster.node.location))
            }
            used.append((Int32(joint), indexes, weights))
        }
        var counts = [Int32](repeating: 0, count: pointCount)
        for cluster in used {
            for point in cluster.indexes where point >= 0 && Int(point) < pointCount { counts[Int(point)] += 1 }
        }
        let k = max(Int(counts.max() ?? 0), 1)
        // Every point gets the widest point's count of slots: charged before they are made, so one
        // point named a million times cannot ask for a million slots for every point.
        try budget.spend(bytes: pointCount * k * 8, for: "skin \(skin.id)'s \(k) influences for each of \(pointCount) points", at: skin.node.location)
        var joints = [Int32](repeating: -1, count: pointCount * k), weights = [Float](repeating: 0, count: pointCount * k)
        var filled = [Int32](repeating: 0, count: pointCount)
        for cluster in used {
            for (point, weight) in zip(cluster.indexes, cluster.weights) where point >= 0 && Int(point) < pointCount {
                let slot = Int(point) * k + Int(filled[Int(point)])
                joints[slot] = cluster.joint
                weights[slot] = Float(weight)
                filled[Int(point)] += 1
            }
        }
        for point in 0..<pointCount where counts[point] > 0 {
            var sum: Float = 0
            for e in 0..<Int(counts[point]) { sum += weights[point * k + e] }
            if abs(sum - 1) > 1e-3 {
                diagnostics.append(.warning("skin \(skin.id): the weights of point \(point) sum to \(sum), not 1; used as given", at: skin.node.location))
                break
            }
        }
        return SkinWeights(influencesPerPoint: k, joints: joints, weights: weights)
    }

    /// The skin's bones in joint order: each cluster's bone once.
    func bonesOf(_ skin: FBXObject) -> [String] {
        var bones: [String] = []
        for (_, bone) in clusters(of: skin) { if let bone, !bones.contains(bone.id) { bones.append(bone.id) } }
        return bones
    }

    /// The binding of a skinned geometry's instance; the skeleton is made once per skin, its joint
    /// paths filled in by `buildSkins` when every model has its node.
    mutating func skinBinding(of geometry: FBXObject) -> SkinBinding? {
        guard let skin = skin(of: geometry) else { return nil }
        if let known = pending[skin.id] { return SkinBinding(skeleton: known.skeleton, geomBindTransform: bindOf[skin.id] ?? .identity) }
        let bones = bonesOf(skin)
        let pairs = clusters(of: skin).filter { $0.bone != nil }
        let poses = bindPoses()
        func matrix(_ node: FBXNode, _ name: String) -> Matrix4x4? {
            guard let v = node.value(name)?.doubles, v.count == 16 else { return nil }
            return Matrix4x4(columnMajor: v)
        }
        var linkOf: [String: Matrix4x4] = [:], transformOf: [String: Matrix4x4] = [:]
        for (cluster, bone) in pairs {
            guard let bone else { continue }
            linkOf[bone.id] = matrix(cluster.node, "TransformLink") ?? poses[bone.id] ?? .identity
            transformOf[bone.id] = matrix(cluster.node, "Transform") ?? (linkOf[bone.id]?.inverse ?? .identity)
        }
        let first = bones.first.map { (linkOf[$0] ?? .identity) * (transformOf[$0] ?? .identity) } ?? .identity
        let inverseFirst = first.inverse ?? .identity
        let inverseBinds = bones.map { (transformOf[$0] ?? .identity) * inverseFirst }
        // Skins over the same bones with the same bind (one per mesh of a character) share one skeleton.
        if let shared = pending.values.first(where: { known in
            known.bones == bones && zip(scene.skeletons[known.skeleton].inverseBindMatrices, inverseBinds).allSatisfy { $0.isApproximatelyEqual(to: $1, tolerance: 1e-6) }
        }) {
            pending[skin.id] = shared
            bindOf[skin.id] = first
            return SkinBinding(skeleton: shared.skeleton, geomBindTransform: first)
        }
        scene.skeletons.append(Skeleton(name: skin.name.isEmpty ? "Skin" : skin.name, jointPaths: [], jointNames: [], inverseBindMatrices: inverseBinds))
        pending[skin.id] = PendingSkeleton(skeleton: scene.skeletons.count - 1, bones: bones)
        bindOf[skin.id] = first
        return SkinBinding(skeleton: scene.skeletons.count - 1, geomBindTransform: first)
    }

    /// BindPose PoseNode matrices by model id.
    func bindPoses() -> [String: Matrix4x4] {
        var out: [String: Matrix4x4] = [:]
        for id in objects.order {
            guard let pose = objects.objects[id], pose.kind == "Pose", pose.subclass == "BindPose" || pose.node.value("Type")?.string == "BindPose" else { continue }
            for entry in pose.node.children("PoseNode") {
                guard let node = entry.value("Node"), let m = entry.value("Matrix")?.doubles, m.count == 16 else { continue }
                out[FBXObjects.id(node)] = Matrix4x4(columnMajor: m)
            }
        }
        return out
    }

    /// Joint paths and names, once every model has its node.
    mutating func buildSkins() throws(AssetError) {
        for (skin, waiting) in pending.sorted(by: { $0.value.skeleton < $1.value.skeleton }) {
            var paths: [String] = [], names: [String] = []
            for bone in waiting.bones {
                guard let path = pathOf[bone] else {
                    throw AssetError(.malformed("skin \(skin): bone \(bone) is not a model in the scene"), at: document.root.location)
                }
                paths.append(path)
                names.append(objects.objects[bone]?.name ?? bone)
            }
            scene.skeletons[waiting.skeleton].jointPaths = paths
            scene.skeletons[waiting.skeleton].jointNames = names
        }
    }

    /// The geometry's blend shapes and the channel each came from.
    mutating func blendShapes(of geometry: FBXObject, pointCount: Int) throws(AssetError) -> ([BlendShape], [String]) {
        var shapes: [BlendShape] = [], channels: [String] = []
        for deformer in objects.children(of: geometry.id, kind: "Deformer") where deformer.subclass == "BlendShape" {
            for channel in objects.children(of: deformer.id, kind: "Deformer") where channel.subclass == "BlendShapeChannel" {
                let targets = objects.children(of: channel.id, kind: "Geometry")
                guard !targets.isEmpty else { continue }
                let fullWeights = channel.node.value("FullWeights")?.doubles ?? []
                var built: [(weight: Float, offsets: [SIMD3<Float>], normals: [SIMD3<Float>]?)] = []
                for (k, target) in targets.enumerated() {
                    guard let offsets = try shapeOffsets(target, pointCount: pointCount) else { continue }
                    built.append((Float((k < fullWeights.count ? fullWeights[k] : 100) / 100), offsets.0, offsets.1))
                }
                guard let full = built.last else { continue }
                var shape = BlendShape(name: channel.name.isEmpty ? targets.last!.name : channel.name, offsets: full.offsets, normalOffsets: full.normals)
                shape.inbetweens = built.dropLast().map { BlendShape.Inbetween(name: "\(shape.name)_\(Self.percent($0.weight))", weight: $0.weight,
                                                                             offsets: $0.offsets, normalOffsets: $0.normals) }
                shapes.append(shape)
                channels.append(channel.id)
            }
        }
        return (shapes, channels)
    }

    /// A Shape's sparse offsets spread over every point (in-betweens share no index list with
    /// their channel's full shape, so dense offsets keep them comparable).
    private mutating func shapeOffsets(_ shape: FBXObject, pointCount: Int) throws(AssetError) -> ([SIMD3<Float>], [SIMD3<Float>]?)? {
        let indexes = shape.node.value("Indexes")?.int32s ?? []
        guard let vertices = shape.node.value("Vertices")?.doubles, vertices.count == indexes.count * 3 else {
            diagnostics.append(.warning("shape \(shape.id) (\(shape.name)): its Indexes and Vertices do not match; left out", at: shape.node.location))
            return nil
        }
        try budget.spend(work: indexes.count, for: "shape \(shape.id)", at: shape.node.location)
        let normals = shape.node.value("Normals")?.doubles
        // Offsets are spread over every point: charged per shape before they are made.
        try budget.spend(bytes: pointCount * 16 * (normals == nil ? 1 : 2), for: "shape \(shape.id)'s offsets for \(pointCount) points",
                         at: shape.node.location)
        var offsets = [SIMD3<Float>](repeating: .zero, count: pointCount)
        var normalOffsets: [SIMD3<Float>]? = normals?.count == vertices.count ? [SIMD3<Float>](repeating: .zero, count: pointCount) : nil
        var outside = 0
        for (k, point) in indexes.enumerated() {
            guard point >= 0, Int(point) < pointCount else { outside += 1; continue }
            offsets[Int(point)] = SIMD3(Float(vertices[3 * k]), Float(vertices[3 * k + 1]), Float(vertices[3 * k + 2]))
            if let normals, normalOffsets != nil {
                normalOffsets![Int(point)] = SIMD3(Float(normals[3 * k]), Float(normals[3 * k + 1]), Float(normals[3 * k + 2]))
            }
        }
        if outside > 0 {
            diagnostics.append(.warning("shape \(shape.id) (\(shape.name)) indexes \(outside) points past the geometry's \(pointCount); left out", at: shape.node.location))
        }
        return (offsets, normalOffsets)
    }

    /// A weight as a whole percentage for a name; 0 for a weight that is not a finite number.
    static func percent(_ weight: Float) -> Int {
        weight.isFinite ? Int((min(max(weight, -1e6), 1e6) * 100).rounded()) : 0
    }

    /// A shape's offsets (and normal offsets, as directions) under a transform: the reader's
    /// geometric transform and the writer's bake of a skinned mesh's bind share it.
    static func transformed(_ shape: BlendShape, by matrix: Matrix4x4) -> BlendShape {
        guard !matrix.isIdentity else { return shape }
        func move(_ v: [SIMD3<Float>]) -> [SIMD3<Float>] {
            v.map { let d = matrix.transformDirection(SIMD3(Double($0.x), Double($0.y), Double($0.z))); return SIMD3(Float(d.x), Float(d.y), Float(d.z)) }
        }
        var out = shape
        out.offsets = move(shape.offsets)
        out.normalOffsets = shape.normalOffsets.map(move)
        out.inbetweens = shape.inbetweens.map { var i = $0; i.offsets = move($0.offsets); i.normalOffsets = $0.normalOffsets.map(move); return i }
        return out
    }
}

import AssetCore

/// Skins and blend shapes. A skinned geometry gets a `Deformer::Skin` with one `Cluster` per joint
/// of its skeleton (weights normalised per point; a joint that moves nothing still gets its empty
/// cluster, so every bone is in the skin), each cluster holding `TransformLink`, the bone's world
/// transform at bind (the inverse of its inverse bind matrix), and `Transform`, the inverse bind:
/// the geometry holds its points at their bind in the world already (its geometry bind applied),
/// so TransformLink · Transform, the mesh's bind transform, is the identity in every cluster. One `BindPose` holds every joint (those no skin names at their rest)
/// and every skinned mesh.
/// A mesh's blend shapes become one `Deformer::BlendShape` with a named `BlendShapeChannel` and a
/// sparse `Shape` per target. In-between shapes are left out with a warning: FBX can hold them,
/// but Blender's importer refuses a whole file that has one.
extension FBXSceneEncoder {
    mutating func writeSkins() {
        var poseNodes: [(Int64, Matrix4x4)] = []
        var posed: Set<Int64> = []
        var skinOfGeometry: [Int64: Int] = [:]
        for entry in meshModels {
            guard let skin = entry.instance.skin, skin.skeleton < scene.skeletons.count else { continue }
            let geometry = entry.geometry
            let skeleton = scene.skeletons[skin.skeleton]
            // The geometry holds its points at their bind already: the mesh's bind transform is the identity.
            if posed.insert(entry.model).inserted { poseNodes.append((entry.model, .identity)) }
            for (j, path) in skeleton.jointPaths.enumerated() {
                guard let bone = modelOf[path], j < skeleton.inverseBindMatrices.count else { continue }
                if posed.insert(bone).inserted { poseNodes.append((bone, skeleton.inverseBindMatrices[j].inverse ?? .identity)) }
            }
            if let other = skinOfGeometry[geometry] {
                if other != skin.skeleton {
                    diagnostics.append(.warning("mesh \(scene.meshes[entry.instance.mesh].name) is skinned to two skeletons; FBX keeps one skin per geometry, the first"))
                }
                continue
            }
            skinOfGeometry[geometry] = skin.skeleton
            writeSkin(skeleton, mesh: scene.meshes[entry.instance.mesh], geometry: geometry)
        }
        // Every bone is in the bind pose, a joint no skin names at its rest world (Unreal refuses bones missing from it).
        for (model, world) in jointModels where posed.insert(model).inserted { poseNodes.append((model, world)) }
        guard !poseNodes.isEmpty else { return }
        let id = newID()
        add(FBXRecord("Pose", .int64(id), FBXRecord.objectName("BindPose", "Pose"), .string("BindPose"), children: [
            FBXRecord("Type", .string("BindPose")), FBXRecord("Version", .int32(100)), FBXRecord("NbPoseNodes", .int32(Int32(poseNodes.count))),
        ] + poseNodes.map { node, matrix in
            FBXRecord("PoseNode", children: [FBXRecord("Node", .int64(node)), FBXRecord("Matrix", .doubles(matrix.columnMajorElements))])
        }), type: "Pose")
    }

    private mutating func writeSkin(_ skeleton: Skeleton, mesh: Mesh, geometry: Int64) {
        let skin = newID()
        add(FBXRecord("Deformer", .int64(skin), FBXRecord.objectName(skeleton.name, "Deformer"), .string("Skin"), children: [
            FBXRecord("Version", .int32(101)), FBXRecord("Link_DeformAcuracy", .double(50)),
        ]), type: "Deformer")
        connect(skin, to: geometry)
        let (indexes, weights) = Self.influencesByJoint(mesh.skinWeights, jointCount: skeleton.jointCount)
        var missing: [String] = []
        for (j, path) in skeleton.jointPaths.enumerated() {
            guard let bone = modelOf[path] else { missing.append(path); continue }
            let inverseBind = j < skeleton.inverseBindMatrices.count ? skeleton.inverseBindMatrices[j] : .identity
            let cluster = newID()
            let name = j < skeleton.jointNames.count ? skeleton.jointNames[j] : path
            add(FBXRecord("Deformer", .int64(cluster), FBXRecord.objectName(name, "SubDeformer"), .string("Cluster"), children: [
                FBXRecord("Version", .int32(100)), FBXRecord("UserData", .string(""), .string("")),
                FBXRecord("Indexes", .int32s(indexes[j])), FBXRecord("Weights", .doubles(weights[j])),
                FBXRecord("Transform", .doubles(inverseBind.columnMajorElements)),
                FBXRecord("TransformLink", .doubles((inverseBind.inverse ?? .identity).columnMajorElements)),
            ]), type: "Deformer")
            connect(cluster, to: skin)
            connect(bone, to: cluster)
        }
        if !missing.isEmpty {
            diagnostics.append(.warning("skeleton \(skeleton.name): \(missing.count) joint(s) are not nodes of the scene and get no cluster (\(missing.prefix(3).joined(separator: ", ")))"))
        }
    }

    /// Per joint, the points it moves and by how much, each point's weights scaled to sum to 1.
    static func influencesByJoint(_ skin: SkinWeights?, jointCount: Int) -> ([[Int32]], [[Double]]) {
        var indexes = [[Int32]](repeating: [], count: jointCount), weights = [[Double]](repeating: [], count: jointCount)
        guard let skin, skin.influencesPerPoint > 0 else { return (indexes, weights) }
        let k = skin.influencesPerPoint
        for point in 0..<skin.pointCount {
            var sum: Float = 0
            for e in 0..<k where skin.joints[point * k + e] >= 0 && Int(skin.joints[point * k + e]) < jointCount { sum += max(skin.weights[point * k + e], 0) }
            guard sum > 0 else { continue }
            for e in 0..<k {
                let joint = Int(skin.joints[point * k + e]), weight = skin.weights[point * k + e]
                guard joint >= 0, joint < jointCount, weight > 0 else { continue }
                indexes[joint].append(Int32(point))
                weights[joint].append(Double(weight / sum))
            }
        }
        return (indexes, weights)
    }

    mutating func writeBlendShapes(of mesh: Mesh, index: Int, geometry: Int64, weights: [Float]) {
        guard !mesh.blendShapes.isEmpty else { return }
        let deformer = newID()
        add(FBXRecord("Deformer", .int64(deformer), FBXRecord.objectName(mesh.name, "Deformer"), .string("BlendShape"), children: [
            FBXRecord("Version", .int32(100)),
        ]), type: "Deformer")
        connect(deformer, to: geometry)
        var channels: [Int64] = []
        for (s, shape) in mesh.blendShapes.enumerated() {
            let channel = newID()
            if !shape.inbetweens.isEmpty { droppedInbetweens.append("\(shape.name) (\(shape.inbetweens.count))") }
            let percent = Double(s < weights.count ? weights[s] : 0) * 100
            // The weight both as the record the SDK writes and as the animatable property curves drive.
            var p = FBXProperties70()
            p.number("DeformPercent", percent)
            add(FBXRecord("Deformer", .int64(channel), FBXRecord.objectName(shape.name, "SubDeformer"), .string("BlendShapeChannel"), children: [
                FBXRecord("Version", .int32(100)), p.record, FBXRecord("DeformPercent", .double(percent)),
                FBXRecord("FullWeights", .doubles([100])),
            ]), type: "Deformer")
            connect(channel, to: deformer)
            writeShape(shape.name, offsets: shape.offsets, normals: shape.normalOffsets, pointIndices: shape.pointIndices, to: channel)
            channels.append(channel)
        }
        blendChannelsOf[index] = channels
    }

    /// A `Shape`: the points it moves (sparse, as the SDK writes), their offsets and normal offsets.
    private mutating func writeShape(_ name: String, offsets: [SIMD3<Float>], normals: [SIMD3<Float>]?, pointIndices: [Int32]?, to channel: Int64) {
        var indexes: [Int32] = [], vertices: [Double] = [], normalValues: [Double] = []
        for (k, offset) in offsets.enumerated() {
            let normal = normals.flatMap { k < $0.count ? $0[k] : nil } ?? .zero
            guard pointIndices != nil || offset != .zero || normal != .zero else { continue }
            indexes.append(pointIndices.map { k < $0.count ? $0[k] : 0 } ?? Int32(k))
            vertices.append(Double(offset.x)); vertices.append(Double(offset.y)); vertices.append(Double(offset.z))
            normalValues.append(Double(normal.x)); normalValues.append(Double(normal.y)); normalValues.append(Double(normal.z))
        }
        let id = newID()
        var children = [FBXRecord("Version", .int32(100)), FBXRecord("Indexes", .int32s(indexes)), FBXRecord("Vertices", .doubles(vertices))]
        if normals != nil { children.append(FBXRecord("Normals", .doubles(normalValues))) }
        add(FBXRecord("Geometry", .int64(id), FBXRecord.objectName(name, "Geometry"), .string("Shape"), children: children), type: "Geometry")
        connect(id, to: channel)
    }
}

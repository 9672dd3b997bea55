import AssetCore

/// Where a scene node came from, by its number in depth-first order.
struct ColladaNodeOrigin {
    var node: ColladaNode
    /// The parent's number, -1 at the top.
    var parent: Int
}

/// A node placing a morphed mesh: the morphs of its chain (innermost first) with where each
/// one's shapes start among the mesh's blend shapes, and the default weights of them all.
struct ColladaMorphPlacement {
    var node: Int
    /// Per morph: for each of its targets, the blend shape it became (nil: left out).
    var controllers: [(id: String, slots: [Int?])]
    var weights: [Float]
}

/// A skinned mesh instance whose joints are found once every node exists.
struct ColladaPendingSkin {
    var node: Int
    var instance: Int
    var controller: String
    var skeletonRoots: [String]
    var location: SourceLocation
}

extension ColladaSceneBuilder {
    /// Morph targets as blend shapes: RELATIVE targets are the offsets, NORMALIZED targets are whole
    /// shapes whose difference from the base is the offset.
    /// One shape per target, in the targets' order; nil (with a warning) where a target cannot be
    /// one, so the weights of the rest still find their shapes.
    mutating func morphShapes(_ morph: ColladaController, base: [SIMD3<Float>], at here: SourceLocation) -> [BlendShape?] {
        var shapes: [BlendShape?] = []
        for target in morph.morphTargets {
            guard let geometry = document.geometries[target] else {
                diagnostics.append(.warning("morph #\(morph.id): target #\(target) is not a geometry; left out", at: here))
                shapes.append(nil)
                continue
            }
            guard let built = ColladaMeshBuilder(document: document).build(geometry, diagnostics: &diagnostics),
                  built.mesh.points.count == base.count else {
                diagnostics.append(.warning("morph #\(morph.id): target #\(target) does not have the base's \(base.count) points; left out", at: here))
                shapes.append(nil)
                continue
            }
            let offsets = morph.morphMethod == "RELATIVE" ? built.mesh.points : zip(built.mesh.points, base).map { $0 - $1 }
            shapes.append(BlendShape(name: geometry.name.isEmpty ? target : geometry.name, offsets: offsets))
        }
        return shapes
    }

    /// A skin's vertex weights as fixed-width influences (the widest vertex's count, the rest
    /// padded with no joint); nil, with a warning, when they do not cover the points.
    mutating func skinWeights(_ controllerID: String, pointCount: Int, at here: SourceLocation) -> SkinWeights? {
        guard let controller = document.controllers[controllerID] else { return nil }
        let influences = controller.vertexInfluences
        guard influences.count == pointCount else {
            diagnostics.append(.warning("skin #\(controllerID) weighs \(influences.count) vertices, but its geometry has \(pointCount) points; not skinned",
                                        at: here))
            return nil
        }
        let k = max(influences.map(\.count).max() ?? 0, 1)
        var joints = [Int32](repeating: -1, count: pointCount * k)
        var weights = [Float](repeating: 0, count: pointCount * k)
        var bindShapeWeighted = false, unsummed: (Int, Float)?
        for (point, list) in influences.enumerated() {
            var sum: Float = 0
            for (e, influence) in list.enumerated() {
                sum += influence.weight
                // Joint -1 weighs the bind shape itself: that share of the point stays where it is,
                // which no joint expresses; it is dropped, with a warning.
                guard influence.joint >= 0 else { bindShapeWeighted = bindShapeWeighted || influence.weight != 0; continue }
                joints[point * k + e] = influence.joint
                weights[point * k + e] = influence.weight
            }
            if unsummed == nil, !list.isEmpty, abs(sum - 1) > 1e-3 { unsummed = (point, sum) }
        }
        if bindShapeWeighted {
            diagnostics.append(.warning("skin #\(controllerID) weighs some vertices to the bind shape (joint -1); those shares are left out", at: here))
        }
        if let (point, sum) = unsummed {
            diagnostics.append(.warning("skin #\(controllerID): the weights of vertex \(point) sum to \(sum), not 1; used as given", at: here))
        }
        return SkinWeights(influencesPerPoint: k, joints: joints, weights: weights)
    }
}

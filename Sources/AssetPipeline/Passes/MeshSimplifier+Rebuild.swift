import AssetCore

/// The simplified triangles turned back into a `Mesh`: points no triangle uses are dropped, and
/// everything indexed by point (per-vertex primvars, skin weights, blend-shape offsets), by corner
/// (face-varying primvars, through each simplifier vertex's representative corner) or by face
/// (uniform primvars and material subsets, through each group's representative face) follows.
extension MeshSimplifier {
    static func rebuilt(_ mesh: Mesh, kept: [(group: Int32, indices: [UInt32])], representative: [Int], groupFace: [Int32: Int]) -> Mesh {
        let pointOfVertex = representative.map { Int(mesh.faceVertexIndices[$0]) }
        var used = [Bool](repeating: false, count: mesh.points.count)
        for (_, indices) in kept { for v in indices { used[pointOfVertex[Int(v)]] = true } }
        var newPoint = [Int32](repeating: -1, count: mesh.points.count)
        var usedPoints: [Int] = []
        for p in used.indices where used[p] {
            newPoint[p] = Int32(usedPoints.count)
            usedPoints.append(p)
        }
        var corners: [Int] = []  // the representative original corner of every new corner
        var faces: [Int] = []    // the representative original face of every new face
        for (group, indices) in kept {
            for v in indices { corners.append(representative[Int(v)]) }
            let face = groupFace[group] ?? 0
            faces += Array(repeating: face, count: indices.count / 3)
        }

        var out = mesh
        out.points = usedPoints.map { mesh.points[$0] }
        out.faceVertexCounts = [Int32](repeating: 3, count: faces.count)
        out.faceVertexIndices = corners.map { newPoint[Int(mesh.faceVertexIndices[$0])] }
        out.primvars = mesh.primvars.map { primvar in
            var copy = primvar
            let positions: [Int]
            switch primvar.interpolation {
            case .constant: return primvar
            case .vertex, .varying: positions = usedPoints
            case .faceVarying: positions = corners
            case .uniform: positions = faces
            }
            if let indices = primvar.indices {
                copy.indices = positions.map { $0 < indices.count ? indices[$0] : 0 }
            } else {
                copy.values = primvar.values.selecting(positions.map { min($0, max(primvar.values.count - 1, 0)) })
            }
            return copy
        }
        // Subsets keep their places (instances bind materials by subset index); each gets the new
        // faces of the groups its faces made.
        var subsetOfFace = [Int32](repeating: -1, count: mesh.faceVertexCounts.count)
        for (s, subset) in mesh.subsets.enumerated() {
            for face in subset.faceIndices where face >= 0 && Int(face) < subsetOfFace.count { subsetOfFace[Int(face)] = Int32(s) }
        }
        out.subsets = mesh.subsets.enumerated().map { s, subset in
            GeomSubset(name: subset.name, faceIndices: faces.indices.filter { subsetOfFace[faces[$0]] == Int32(s) }.map { Int32($0) })
        }
        if let skin = mesh.skinWeights, skin.influencesPerPoint > 0, skin.pointCount == mesh.points.count {
            let n = skin.influencesPerPoint
            out.skinWeights = SkinWeights(influencesPerPoint: n, joints: usedPoints.flatMap { skin.joints[($0 * n)..<($0 * n + n)] },
                                          weights: usedPoints.flatMap { skin.weights[($0 * n)..<($0 * n + n)] })
        }
        out.blendShapes = mesh.blendShapes.map { shape in
            // A sparse shape keeps its entries for points that stay, renumbered; a dense one, the
            // offsets of the points that stay. In-betweens follow their shape.
            let entries: [Int]
            if let pointIndices = shape.pointIndices {
                entries = pointIndices.indices.filter { pointIndices[$0] >= 0 && Int(pointIndices[$0]) < newPoint.count && newPoint[Int(pointIndices[$0])] >= 0 }
            } else if shape.offsets.count == mesh.points.count {
                entries = usedPoints
            } else {
                return shape
            }
            var copy = shape
            copy.pointIndices = shape.pointIndices.map { pointIndices in entries.map { newPoint[Int(pointIndices[$0])] } }
            copy.offsets = entries.map { shape.offsets[$0] }
            copy.normalOffsets = shape.normalOffsets.map { normals in entries.map { normals[$0] } }
            copy.inbetweens = shape.inbetweens.map { inbetween in
                var b = inbetween
                b.offsets = entries.map { inbetween.offsets[$0] }
                b.normalOffsets = inbetween.normalOffsets.map { normals in entries.map { normals[$0] } }
                return b
            }
            return copy
        }
        return out
    }
}

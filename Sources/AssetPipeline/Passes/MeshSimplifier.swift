import AssetCore
import CMeshOptimizer

/// One mesh's triangles reduced toward a target by libmeshoptimizer (`meshopt_simplify`, the edge
/// collapser gltfpack uses; its algorithms are not ones to write again). meshoptimizer collapses
/// onto existing vertices, so what a vertex carries (skin weights, blend-shape offsets, per-vertex
/// primvars) comes through the remap unchanged. Before it runs:
///
/// - corners are welded into simplifier vertices by point *and* face-varying value (normal, UV):
///   a UV or normal seam splits vertices, which the simplifier sees as a border and keeps;
/// - triangles are grouped by material subset and per-face (uniform) values, each group
///   simplified on its own, so material borders stay where they were.
///
/// A group whose locked borders keep it from its target falls back to `meshopt_simplifySloppy`
/// (which may move borders) only when it stays above 1.5x its target.
struct MeshSimplifier {
    struct Result {
        var mesh: Mesh
        var trianglesBefore: Int
        var trianglesAfter: Int
        /// The largest deviation meshoptimizer reports, in the mesh's units.
        var error: Float
        var usedSloppy: Bool
    }

    /// Face-varying primvars beyond this many are not welded on; a mesh with more is left as it is.
    static let maxWeldedPrimvars = 3

    static func simplify(_ mesh: Mesh, targetTriangles: Int) -> Result? {
        let triangulation = mesh.triangulated()
        let before = triangulation.triangleCount
        guard targetTriangles < before, before > 0 else { return nil }
        // Normals are left out of the welding (a faceted mesh has a normal per face at every
        // point) and made again afterwards where welding joined corners they told apart.
        let faceVarying = mesh.primvars.indices.filter { mesh.primvars[$0].interpolation == .faceVarying && mesh.primvars[$0].role != .normal }
        guard faceVarying.count <= maxWeldedPrimvars else { return nil }

        // Simplifier vertices: one per distinct (point class, face-varying values) among the
        // corners, where points of one class share position and everything carried per point.
        let pointClass = Self.pointClasses(mesh)
        var valueIDs = faceVarying.map { _ in [Int32]() }  // per primvar, per corner
        for (k, p) in faceVarying.enumerated() { valueIDs[k] = Self.valueIDs(mesh.primvars[p], corners: mesh.faceVertexIndices.count) }
        var keyToVertex: [SIMD4<Int32>: UInt32] = [:]
        var representative: [Int] = []  // a corner per simplifier vertex
        var cornerVertex = [UInt32](repeating: 0, count: mesh.faceVertexIndices.count)
        keyToVertex.reserveCapacity(mesh.points.count)
        for corner in mesh.faceVertexIndices.indices {
            let point = Int(mesh.faceVertexIndices[corner])
            var key = SIMD4<Int32>(point >= 0 && point < pointClass.count ? pointClass[point] : -1, -1, -1, -1)
            for k in valueIDs.indices { key[k + 1] = valueIDs[k][corner] }
            if let found = keyToVertex[key] {
                cornerVertex[corner] = found
            } else {
                let id = UInt32(representative.count)
                keyToVertex[key] = id
                representative.append(corner)
                cornerVertex[corner] = id
            }
        }
        let positions = representative.map { mesh.points[Int(mesh.faceVertexIndices[$0])] }

        // Groups: faces of one subset and one set of per-face values.
        let groupOfFace = Self.faceGroups(mesh)
        var groups: [Int32: [UInt32]] = [:]  // group -> triangle corner-vertex indices
        var groupFace: [Int32: Int] = [:]
        for t in 0..<before {
            let face = Int(triangulation.faces[t])
            let group = groupOfFace[face]
            if groupFace[group] == nil { groupFace[group] = face }
            for c in 0..<3 { groups[group, default: []].append(cornerVertex[Int(triangulation.corners[3 * t + c])]) }
        }
        let ratio = Double(targetTriangles) / Double(before)
        var error: Float = 0
        var usedSloppy = false
        var kept: [(group: Int32, indices: [UInt32])] = []
        let scale = positions.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: Float.self) { meshopt_simplifyScale($0.baseAddress, positions.count, MemoryLayout<SIMD3<Float>>.stride) }
        }
        for group in groups.keys.sorted() {
            let indices = groups[group]!
            let target = max(3, Int((Double(indices.count / 3) * ratio).rounded()) * 3)
            var out = [UInt32](repeating: 0, count: indices.count)
            var groupError: Float = 0
            var count = positions.withUnsafeBufferPointer { p in
                p.withMemoryRebound(to: Float.self) { floats in
                    meshopt_simplify(&out, indices, indices.count, floats.baseAddress, positions.count, MemoryLayout<SIMD3<Float>>.stride,
                                     target, .greatestFiniteMagnitude, 0, &groupError)
                }
            }
            if Double(count) > 1.5 * Double(target) {
                count = positions.withUnsafeBufferPointer { p in
                    p.withMemoryRebound(to: Float.self) { floats in
                        meshopt_simplifySloppy(&out, indices, indices.count, floats.baseAddress, positions.count, MemoryLayout<SIMD3<Float>>.stride,
                                               target, .greatestFiniteMagnitude, &groupError)
                    }
                }
                usedSloppy = true
            }
            error = max(error, groupError * scale)
            kept.append((group, Array(out.prefix(count))))
        }
        var rebuilt = Self.rebuilt(mesh, kept: kept, representative: representative, groupFace: groupFace)
        if let normals = mesh.primvars.firstIndex(where: { $0.role == .normal }),
           let faceted = Self.weldingJoinedNormals(mesh, normals: mesh.primvars[normals], cornerVertex: cornerVertex, representative: representative) {
            rebuilt.primvars[normals] = faceted ? rebuilt.flatNormals(named: mesh.primvars[normals].name) : rebuilt.smoothNormals(named: mesh.primvars[normals].name)
        }
        return Result(mesh: rebuilt, trianglesBefore: before, trianglesAfter: kept.reduce(0) { $0 + $1.indices.count / 3 }, error: error, usedSloppy: usedSloppy)
    }

    /// A class per point: points with the same position, per-point primvars (normals aside), skin
    /// influences and blend-shape offsets are one class, so a mesh stored with its points split
    /// per face (a faceted glTF) welds back into a surface the simplifier can work on.
    static func pointClasses(_ mesh: Mesh) -> [Int32] {
        let perPoint = mesh.primvars.filter { ($0.interpolation == .vertex || $0.interpolation == .varying) && $0.role != .normal }
        var offsets: [[SIMD3<Float>?]] = []
        for shape in mesh.blendShapes {
            var dense = [SIMD3<Float>?](repeating: nil, count: mesh.points.count)
            if let indices = shape.pointIndices {
                for (k, p) in indices.enumerated() where p >= 0 && Int(p) < dense.count && k < shape.offsets.count { dense[Int(p)] = shape.offsets[k] }
            } else {
                for p in 0..<min(dense.count, shape.offsets.count) { dense[p] = shape.offsets[p] }
            }
            offsets.append(dense)
        }
        let skin = mesh.skinWeights.flatMap { $0.pointCount == mesh.points.count && $0.influencesPerPoint > 0 ? $0 : nil }
        var classes: [[UInt32]: Int32] = [:]
        var key: [UInt32] = []
        return mesh.points.indices.map { p -> Int32 in
            key.removeAll(keepingCapacity: true)
            let position = mesh.points[p]
            key += [position.x.bitPattern, position.y.bitPattern, position.z.bitPattern]
            for primvar in perPoint {
                let element = primvar.indices.map { p < $0.count ? Int($0[p]) : -1 } ?? p
                let bits = element >= 0 && element < primvar.values.count ? primvar.values.bits(at: element) : SIMD4(repeating: .max)
                key += [bits.x, bits.y, bits.z, bits.w]
            }
            if let skin {
                let n = skin.influencesPerPoint
                for k in (p * n)..<(p * n + n) { key += [UInt32(bitPattern: skin.joints[k]), skin.weights[k].bitPattern] }
            }
            for shape in offsets {
                let o = shape[p] ?? .zero
                key += [o.x.bitPattern, o.y.bitPattern, o.z.bitPattern]
            }
            if let found = classes[key] { return found }
            let id = Int32(classes.count)
            classes[key] = id
            return id
        }
    }

    /// Whether welding joined corners whose normals differ: nil when it did not (the carried
    /// normals stand), true when most joins did (a faceted mesh: flat normals again), false when
    /// some did (smooth normals made again from the new surface).
    static func weldingJoinedNormals(_ mesh: Mesh, normals: Primvar, cornerVertex: [UInt32], representative: [Int]) -> Bool? {
        guard case .float3(let values) = normals.values else { return nil }
        func normal(at corner: Int) -> SIMD3<Float>? {
            let element: Int
            switch normals.interpolation {
            case .faceVarying: element = normals.indices.map { corner < $0.count ? Int($0[corner]) : -1 } ?? corner
            case .vertex, .varying:
                let p = Int(mesh.faceVertexIndices[corner])
                element = normals.indices.map { p < $0.count ? Int($0[p]) : -1 } ?? p
            default: return nil
            }
            return element >= 0 && element < values.count ? values[element] : nil
        }
        var joins = 0, differing = 0
        for corner in cornerVertex.indices {
            let rep = representative[Int(cornerVertex[corner])]
            guard rep != corner, let a = normal(at: corner), let b = normal(at: rep) else { continue }
            joins += 1
            if (a * b).sum() < 0.999 { differing += 1 }
        }
        guard differing > 0 else { return nil }
        return differing * 2 > joins
    }

    /// An id per corner for a face-varying primvar: equal values (bit for bit) share an id, so
    /// corners that agree weld even where the primvar is stored unindexed.
    static func valueIDs(_ primvar: Primvar, corners: Int) -> [Int32] {
        var ids = [Int32](repeating: -1, count: corners)
        var seen: [SIMD4<UInt32>: Int32] = [:]
        for corner in 0..<corners {
            let element = primvar.indices.map { corner < $0.count ? Int($0[corner]) : -1 } ?? corner
            guard element >= 0, element < primvar.values.count else { continue }
            let bits = primvar.values.bits(at: element)
            if let id = seen[bits] { ids[corner] = id } else {
                let id = Int32(seen.count)
                seen[bits] = id
                ids[corner] = id
            }
        }
        return ids
    }

    /// Each face's group: its material subset (or none) and its uniform primvars' values.
    static func faceGroups(_ mesh: Mesh) -> [Int32] {
        let faces = mesh.faceVertexCounts.count
        var subsetOf = [Int32](repeating: -1, count: faces)
        for (s, subset) in mesh.subsets.enumerated() {
            for face in subset.faceIndices where face >= 0 && Int(face) < faces { subsetOf[Int(face)] = Int32(s) }
        }
        let uniform = mesh.primvars.filter { $0.interpolation == .uniform }
        guard !uniform.isEmpty else { return subsetOf }
        var keys: [[UInt32]: Int32] = [:]
        return (0..<faces).map { face in
            var key: [UInt32] = [UInt32(bitPattern: subsetOf[face])]
            for primvar in uniform {
                let element = primvar.indices.map { face < $0.count ? Int($0[face]) : -1 } ?? face
                let bits = element >= 0 && element < primvar.values.count ? primvar.values.bits(at: element) : SIMD4(repeating: .max)
                key += [bits.x, bits.y, bits.z, bits.w]
            }
            if let id = keys[key] { return id }
            let id = Int32(keys.count)
            keys[key] = id
            return id
        }
    }
}

extension PrimvarValues {
    /// The element's components as bits, padded: equal values give equal keys.
    func bits(at i: Int) -> SIMD4<UInt32> {
        switch self {
        case .float(let v): return SIMD4(v[i].bitPattern, 0, 0, 0)
        case .float2(let v): return SIMD4(v[i].x.bitPattern, v[i].y.bitPattern, 0, 0)
        case .float3(let v): return SIMD4(v[i].x.bitPattern, v[i].y.bitPattern, v[i].z.bitPattern, 0)
        case .float4(let v): return SIMD4(v[i].x.bitPattern, v[i].y.bitPattern, v[i].z.bitPattern, v[i].w.bitPattern)
        }
    }

    /// The elements at these positions, in order.
    func selecting(_ positions: [Int]) -> PrimvarValues {
        switch self {
        case .float(let v): return .float(positions.map { v[$0] })
        case .float2(let v): return .float2(positions.map { v[$0] })
        case .float3(let v): return .float3(positions.map { v[$0] })
        case .float4(let v): return .float4(positions.map { v[$0] })
        }
    }
}

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
        let (cornerVertex, representative) = valueIDs.isEmpty
            ? Self.cornerClasses(pointClass: pointClass, corners: mesh.faceVertexIndices)
            : Self.cornerClasses(pointClass: pointClass, corners: mesh.faceVertexIndices, valueIDs: valueIDs)
        let positions = representative.map { mesh.points[Int(mesh.faceVertexIndices[$0])] }

        // Groups: faces of one subset and one set of per-face values.
        let groupOfFace = Self.faceGroups(mesh)
        // Group numbers run from -1 (no subset, no per-face values) up: stored one place on.
        let groupSlots = Int(groupOfFace.max() ?? -1) + 2
        var slots = [[UInt32]](repeating: [], count: groupSlots)  // triangle corner-vertex indices per group
        var slotFace = [Int](repeating: -1, count: groupSlots)
        for t in 0..<before {
            let face = Int(triangulation.faces[t])
            let slot = Int(groupOfFace[face]) + 1
            if slotFace[slot] < 0 { slotFace[slot] = face }
            for c in 0..<3 { slots[slot].append(cornerVertex[Int(triangulation.corners[3 * t + c])]) }
        }
        var groups: [Int32: [UInt32]] = [:]
        var groupFace: [Int32: Int] = [:]
        for slot in slots.indices where !slots[slot].isEmpty {
            groups[Int32(slot - 1)] = slots[slot]
            groupFace[Int32(slot - 1)] = slotFace[slot]
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

    /// Corners of one point class are one simplifier vertex when nothing is carried per corner: the
    /// classes renumbered in order of first use, through a table indexed by class (no hashing).
    static func cornerClasses(pointClass: [Int32], corners: [Int32]) -> (vertexOf: [UInt32], representative: [Int]) {
        var number = [Int32](repeating: -1, count: (pointClass.max().map { Int($0) } ?? -1) + 2)
        var representative: [Int] = []
        var vertexOf = [UInt32](repeating: 0, count: corners.count)
        for (corner, point) in corners.enumerated() {
            let cls = Int(point >= 0 && Int(point) < pointClass.count ? pointClass[Int(point)] : -1) + 1
            if number[cls] < 0 {
                number[cls] = Int32(representative.count)
                representative.append(corner)
            }
            vertexOf[corner] = UInt32(bitPattern: number[cls])
        }
        return (vertexOf, representative)
    }

    /// Corners welded by point class and every face-varying value.
    static func cornerClasses(pointClass: [Int32], corners: [Int32], valueIDs: [[Int32]]) -> (vertexOf: [UInt32], representative: [Int]) {
        let width = 1 + valueIDs.count
        var cornerKeys = [UInt32](repeating: 0, count: corners.count * width)
        for (corner, point) in corners.enumerated() {
            cornerKeys[corner * width] = UInt32(bitPattern: point >= 0 && Int(point) < pointClass.count ? pointClass[Int(point)] : -1)
            for k in valueIDs.indices { cornerKeys[corner * width + 1 + k] = UInt32(bitPattern: valueIDs[k][corner]) }
        }
        let welded = FlatKeyClasses(keys: cornerKeys, width: width)
        return (welded.classOf.map { UInt32(bitPattern: $0) }, welded.firstOf.map { Int($0) })
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
        let width = 3 + 4 * perPoint.count + 2 * (skin?.influencesPerPoint ?? 0) + 3 * offsets.count
        var keys = [UInt32](repeating: 0, count: mesh.points.count * width)
        for p in mesh.points.indices {
            var at = p * width
            func put(_ word: UInt32) { keys[at] = word; at += 1 }
            let position = mesh.points[p]
            put(position.x.bitPattern); put(position.y.bitPattern); put(position.z.bitPattern)
            for primvar in perPoint {
                let element = primvar.indices.map { p < $0.count ? Int($0[p]) : -1 } ?? p
                let bits = element >= 0 && element < primvar.values.count ? primvar.values.bits(at: element) : SIMD4(repeating: .max)
                put(bits.x); put(bits.y); put(bits.z); put(bits.w)
            }
            if let skin {
                let n = skin.influencesPerPoint
                for k in (p * n)..<(p * n + n) { put(UInt32(bitPattern: skin.joints[k])); put(skin.weights[k].bitPattern) }
            }
            for shape in offsets {
                let o = shape[p] ?? .zero
                put(o.x.bitPattern); put(o.y.bitPattern); put(o.z.bitPattern)
            }
        }
        return FlatKeyClasses(keys: keys, width: width).classOf
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
        var keys = [UInt32](repeating: .max, count: corners * 4)
        for corner in 0..<corners {
            let element = primvar.indices.map { corner < $0.count ? Int($0[corner]) : -1 } ?? corner
            guard element >= 0, element < primvar.values.count else { continue }
            let bits = primvar.values.bits(at: element)
            keys[corner * 4] = bits.x; keys[corner * 4 + 1] = bits.y; keys[corner * 4 + 2] = bits.z; keys[corner * 4 + 3] = bits.w
        }
        return FlatKeyClasses(keys: keys, width: 4).classOf
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
        let width = 1 + 4 * uniform.count
        var keys = [UInt32](repeating: 0, count: faces * width)
        for face in 0..<faces {
            keys[face * width] = UInt32(bitPattern: subsetOf[face])
            for (u, primvar) in uniform.enumerated() {
                let element = primvar.indices.map { face < $0.count ? Int($0[face]) : -1 } ?? face
                let bits = element >= 0 && element < primvar.values.count ? primvar.values.bits(at: element) : SIMD4(repeating: .max)
                let at = face * width + 1 + 4 * u
                keys[at] = bits.x; keys[at + 1] = bits.y; keys[at + 2] = bits.z; keys[at + 3] = bits.w
            }
        }
        return FlatKeyClasses(keys: keys, width: width).classOf
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

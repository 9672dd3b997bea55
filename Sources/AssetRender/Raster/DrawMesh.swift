import AssetCore

/// Values of one attribute and, for every triangle corner, which value it takes. Reading
/// attributes per corner lets separately indexed meshes (real exports) draw without an unwelded
/// copy; an attribute that follows the points shares the point index array.
struct CornerAttribute<Value> {
    var values: [Value]
    /// Three per triangle, into `values`.
    var indices: [UInt32]

    /// The values at the triangle's three corners.
    @inline(__always) func corners(of triangle: Int) -> (Value, Value, Value) {
        (values[Int(indices[3 * triangle])], values[Int(indices[3 * triangle + 1])], values[Int(indices[3 * triangle + 2])])
    }
}

/// One mesh made ready to draw: its points, a triangle list, each attribute read
/// per corner, and the material each triangle uses. Contiguous arrays, no per-triangle objects.
/// Built once per mesh in the mesh's own space (`init(mesh:)`), then placed per instance
/// (`placed`), so a mesh drawn a thousand times is triangulated once and only one placed copy
/// exists at a time.
struct DrawMesh {
    /// The mesh's points, as the scene's bounds count them.
    var positions: [SIMD3<Float>]
    /// Three per triangle, into `positions`.
    var indices: [UInt32]
    var normals: CornerAttribute<SIMD3<Float>>
    /// Per texcoord set; a material samples the set it names (set 0 if none).
    var texcoords: [CornerAttribute<SIMD2<Float>>]
    var colors: CornerAttribute<SIMD4<Float>>?
    /// Tangents with the bitangent's sign in w, for normal maps: the file's `tangents`, else
    /// generated (`TangentGenerator`); nil until a normal map asks for them (`prepareTangents`).
    var tangents: CornerAttribute<SIMD4<Float>>?
    /// Whether a triangle wound counter-clockwise on screen shows its back: a left-handed mesh,
    /// or a mirroring transform (set by `placed`).
    var windingFlipped = false
    /// The source face of each triangle.
    var triangleFaces: [UInt32]
    /// Material index per triangle, -1 for none; set by `placed`.
    var triangleMaterials: [Int32] = []
    /// Whether `normals` were made from the triangles (unit length), not read from the file.
    private var normalsAreSmooth = false

    init(mesh: Mesh) {
        let triangulation = mesh.triangulated()
        let corners = triangulation.corners
        let pointIndices = mesh.faceVertexIndices.withUnsafeBufferPointer { fvi in
            nonisolated(unsafe) let fvi = fvi
            return SplitReduction.map(corners) { UInt32(bitPattern: fvi[Int($0)]) }
        }
        positions = mesh.points
        indices = pointIndices
        let normalsPrimvar = mesh.normals
        if let normalsPrimvar, case .float3(let values) = normalsPrimvar.values {
            normals = Self.attribute(values, normalsPrimvar, mesh, corners, pointIndices)
        } else if normalsPrimvar != nil {
            normals = CornerAttribute(values: [SIMD3(0, 1, 0)], indices: [UInt32](repeating: 0, count: corners.count))
        } else {
            normals = CornerAttribute(values: mesh.smoothNormals(triangulation: triangulation), indices: pointIndices)
            normalsAreSmooth = true
        }
        texcoords = mesh.texcoordSets.map { set in
            guard case .float2(let values) = set.values else {
                return CornerAttribute(values: [.zero], indices: [UInt32](repeating: 0, count: corners.count))
            }
            return Self.attribute(values, set, mesh, corners, pointIndices)
        }
        colors = mesh.primvar(named: Primvar.displayColorName).map { primvar in
            let values = (0..<primvar.values.count).map { Mesh.color(primvar.values, $0) }
            return Self.attribute(values, primvar, mesh, corners, pointIndices)
        }
        triangleFaces = triangulation.faces
        if let primvar = mesh.primvar(named: "tangents"), case .float4(let values) = primvar.values,
           primvar.elementCount == primvar.interpolation.elementCount(for: mesh), primvar.interpolation != .constant, primvar.interpolation != .uniform {
            fileTangents = Self.attribute(values, primvar, mesh, corners, pointIndices)
        }
    }

    /// `tangents` in world space (the bitangent's sign kept), for an instance placed by `world`.
    func placedTangents(world: Matrix4x4) -> CornerAttribute<SIMD4<Float>>? {
        guard var placed = tangents else { return nil }
        placed.values = placed.values.map { t in
            let d = world.transformDirection(SIMD3(Double(t.x), Double(t.y), Double(t.z)))
            return SIMD4(Float(d.x), Float(d.y), Float(d.z), t.w)
        }
        return placed
    }

    /// The file's own tangents, kept until a normal map asks for them.
    private var fileTangents: CornerAttribute<SIMD4<Float>>?

    /// Makes `tangents` ready for a normal map sampled through texcoord set `set`: the file's, else
    /// generated the MikkTSpace way.
    mutating func prepareTangents(set: Int) {
        guard tangents == nil else { return }
        tangents = fileTangents ?? TangentGenerator.tangents(positions: positions, indices: indices, normals: normals,
                                                             texcoords: set < texcoords.count ? texcoords[set] : nil)
    }

    private static func attribute<V>(_ values: [V], _ primvar: Primvar, _ mesh: Mesh, _ corners: [UInt32],
                                     _ pointIndices: [UInt32]) -> CornerAttribute<V> {
        CornerAttribute(values: values, indices: primvar.followsPoints ? pointIndices : mesh.valueIndices(of: primvar, corners: corners))
    }

    /// This mesh in world space with the instance's materials, numbered as the scene's materials
    /// `used` lists them (in the order its triangles first use them; `materialCount` is the
    /// scene's, and a number past it is none).
    func placed(_ mesh: Mesh, instance: MeshInstance, world: Matrix4x4, materialCount: Int) -> (mesh: DrawMesh, used: [Int]) {
        var copy = self
        copy.positions = world.transformedPoints(positions)
        // Smooth normals under no transform are kept as made: they are unit length already, and
        // normalising them again would only copy a million of them. A file's may not be.
        if !(world.isIdentity && normalsAreSmooth) { copy.normals.values = world.transformedNormals(normals.values) ?? normals.values }
        copy.windingFlipped = (mesh.orientation == .leftHanded) != (world.determinant < 0)
        copy.tangents = placedTangents(world: world)
        // Subsets bind their own materials; other faces take the instance's. Faces hold a slot in
        // the few materials the instance can use (the whole mesh's first), not the material.
        var slots: [Int32] = [Int32(instance.material ?? -1)]
        var faceSlot = [Int32](repeating: 0, count: mesh.faceVertexCounts.count)
        var covered = 0  // faces moved off the whole mesh's slot
        for (s, subset) in mesh.subsets.enumerated() where s < instance.subsetMaterials.count {
            guard let m = instance.subsetMaterials[s], !subset.faceIndices.isEmpty else { continue }
            let slot = Int32(slots.firstIndex(of: Int32(m)) ?? slots.count)
            if Int(slot) == slots.count { slots.append(Int32(m)) }
            for f in subset.faceIndices {
                let before = faceSlot[Int(f)]
                if before == 0 && slot != 0 { covered += 1 } else if before != 0 && slot == 0 { covered -= 1 }
                faceSlot[Int(f)] = slot
            }
        }
        // The shader's table holds only the materials the triangles use, numbered in the order
        // they first do. The walk stops once every slot in use is seen (at the first triangle for
        // a mesh of one material) rather than renumbering every triangle on one core; the numbers
        // then reach the triangles through their faces on both cores.
        var used: [Int] = []
        var slotNumber = [Int32](repeating: -1, count: slots.count)
        var seen = [Bool](repeating: false, count: slots.count), unseen = slots.count
        if covered == faceSlot.count { (seen[0], unseen) = (true, unseen - 1) }  // no face is left to the whole mesh's material
        for face in triangleFaces {
            if unseen == 0 { break }
            let slot = Int(faceSlot[Int(face)])
            guard !seen[slot] else { continue }
            seen[slot] = true
            unseen -= 1
            let m = slots[slot]
            guard m >= 0, Int(m) < materialCount else { continue }
            slotNumber[slot] = Int32(used.count)
            used.append(Int(m))
        }
        let faces = faceSlot, numbers = slotNumber
        copy.triangleMaterials = SplitReduction.map(triangleFaces) { face in numbers[Int(faces[Int(face)])] }
        return (copy, used)
    }

    var triangleCount: Int { indices.count / 3 }

    /// About the bytes this copy holds (its arrays, not the values they share with others).
    var byteEstimate: Int {
        positions.count * 16 + indices.count * 4 + normals.values.count * 16 + normals.indices.count * 4
            + texcoords.reduce(0) { $0 + $1.values.count * 8 + $1.indices.count * 4 } + triangleFaces.count * 4 + triangleMaterials.count * 4
            + (tangents.map { $0.values.count * 16 + $0.indices.count * 4 } ?? 0)
    }
}

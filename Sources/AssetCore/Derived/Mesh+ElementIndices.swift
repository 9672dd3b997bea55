extension Mesh {
    /// For each corner of `faceVertexIndices`, the index into `primvar.values` it takes.
    public func cornerElementIndices(of primvar: Primvar) -> [Int32] {
        valueIndices(of: primvar, corners: nil).map { Int32(bitPattern: $0) }
    }

    /// For each of `corners` (positions in `faceVertexIndices`; nil: every corner in order), the
    /// index into `primvar.values` it takes. The interpolation is decided once, outside the loop,
    /// so this is one pass over contiguous buffers. A per-point primvar without indices gives back
    /// the point indices themselves.
    public func valueIndices(of primvar: Primvar, corners: [UInt32]?) -> [UInt32] {
        let count = corners?.count ?? faceVertexIndices.count
        let faces = primvar.interpolation == .uniform ? cornerFaces() : []
        return [UInt32](unsafeUninitializedCapacity: count) { out, initialized in
            if let base = out.baseAddress {
                writeValueIndices(of: primvar, corners: corners, faces: faces, range: 0..<count, into: base, stride: 1)
            }
            initialized = count
        }
    }

    /// `valueIndices` for the corners in `range` of `corners`, written to `out[(i - range.lowerBound) * stride]`
    /// for each `i`: one column of an interleaved table. `primvar` nil stands for the point itself.
    /// `faces` is `cornerFaces()` when the primvar is uniform (it is computed once for all ranges).
    func writeValueIndices(of primvar: Primvar?, corners: [UInt32]?, faces: [Int32], range: Range<Int>,
                           into out: UnsafeMutablePointer<UInt32>, stride: Int) {
        let indices = primvar?.indices ?? []
        let indexed = primvar?.indices != nil
        indices.withUnsafeBufferPointer { indices in
            faceVertexIndices.withUnsafeBufferPointer { points in
                faces.withUnsafeBufferPointer { faces in
                    // Each case below is its own loop: nothing is decided per corner but the value.
                    @inline(__always) func fill(_ value: (Int) -> UInt32) {
                        var slot = out
                        if let corners {
                            corners.withUnsafeBufferPointer { corners in
                                for i in range { slot.pointee = value(Int(corners[i])); slot += stride }
                            }
                        } else {
                            for i in range { slot.pointee = value(i); slot += stride }
                        }
                    }
                    @inline(__always) func column(elements element: (Int) -> UInt32) {
                        if indexed { fill { UInt32(bitPattern: indices[Int(element($0))]) } } else { fill(element) }
                    }
                    switch primvar?.interpolation ?? .vertex {
                    case .constant: column(elements: { _ in 0 })
                    case .uniform: column(elements: { UInt32(bitPattern: faces[$0]) })
                    case .vertex, .varying: column(elements: { UInt32(bitPattern: points[$0]) })
                    case .faceVarying: column(elements: { UInt32(truncatingIfNeeded: $0) })
                    }
                }
            }
        }
    }
}

extension Scene {
    /// Warnings for what a format cannot hold, one per kind of content present.
    public func droppedContentWarnings(format: String, keepsMaterials: Bool, keepsTexcoordSets: Int,
                                       keepsNormals: Bool, keepsColors: Bool, keepsPointClouds: Bool = true,
                                       keepsCamerasAndLights: Bool = false) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        if !keepsPointClouds, let warning = pointCloudsDropped(format: format) { warnings.append(warning) }
        if !keepsMaterials && !materials.isEmpty { warnings.append(.warning("\(format) holds no materials: \(materials.count) dropped")) }
        let sets = meshes.map { $0.texcoordSets.count }.max() ?? 0
        if sets > keepsTexcoordSets {
            warnings.append(.warning(keepsTexcoordSets == 0 ? "\(format) holds no texture coordinates: dropped"
                                     : "\(format) holds \(keepsTexcoordSets) texture coordinate set(s): \(sets - keepsTexcoordSets) more dropped"))
        }
        if !keepsNormals && meshes.contains(where: { $0.normals != nil }) { warnings.append(.warning("\(format) holds no vertex normals: dropped")) }
        if !keepsColors && meshes.contains(where: { $0.primvar(named: Primvar.displayColorName) != nil }) {
            warnings.append(.warning("\(format) holds no vertex colours: dropped"))
        }
        if !keepsCamerasAndLights && (!cameras.isEmpty || !lights.isEmpty) {
            warnings.append(.warning("\(format) output holds no cameras or lights: \(cameras.count + lights.count) dropped"))
        }
        return warnings
    }

    /// One warning counting the point clouds (meshes of points alone) a format cannot hold; nil
    /// when the scene has none.
    public func pointCloudsDropped(format: String) -> Diagnostic? {
        let clouds = meshes.filter(\.isPointCloud)
        guard !clouds.isEmpty else { return nil }
        let points = clouds.reduce(0) { $0 + $1.points.count }
        return .warning("\(format) holds no point clouds: \(clouds.count == 1 ? "1 point cloud" : "\(clouds.count) point clouds") of \(points) points dropped")
    }
}

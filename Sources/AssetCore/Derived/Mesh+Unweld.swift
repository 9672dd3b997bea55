/// A mesh as GPU formats want it: one index per corner into vertex buffers that hold every
/// attribute per vertex. Corners that agree on every attribute share a vertex.
public struct UnweldedMesh: Sendable {
    public var positions: [SIMD3<Float>]
    public var normals: [SIMD3<Float>]?
    /// Per texcoord set, in `Mesh.texcoordSets` order.
    public var texcoords: [[SIMD2<Float>]]
    public var colors: [SIMD4<Float>]?
    /// One per corner of `faceVertexIndices` (or of the triangulation, when built from one).
    public var indices: [UInt32]
    /// The mesh point each vertex was made from; nil when the vertices are the points themselves.
    /// Per-point data (skin weights, blend-shape offsets) follows the vertices through it.
    public var sourcePoints: [UInt32]? = nil
}

extension Mesh {
    /// Vertex buffers for `corners` (positions in `faceVertexIndices`, e.g. a triangulation's).
    /// When every attribute is per point (vertex interpolation or none), points are kept as they are
    /// and the indices are the face-vertex indices; otherwise each distinct combination of
    /// attribute indices becomes one vertex.
    public func unwelded(corners: [UInt32], texcoordSets: [Primvar]? = nil) -> UnweldedMesh {
        let sets = texcoordSets ?? self.texcoordSets
        let normalsPrimvar = normals
        let colorPrimvar = primvar(named: Primvar.displayColorName)
        let attributes = [normalsPrimvar, colorPrimvar].compactMap { $0 } + sets
        // Nothing to weld when every attribute already shares the point index.
        if attributes.allSatisfy(\.followsPoints) {
            let indices = faceVertexIndices.withUnsafeBufferPointer { fvi in corners.map { UInt32(fvi[Int($0)]) } }
            return UnweldedMesh(
                positions: points,
                normals: normalsPrimvar.flatMap { Self.float3Values($0, count: points.count) },
                texcoords: sets.map { Self.float2Values($0, count: points.count) ?? Array(repeating: .zero, count: points.count) },
                colors: colorPrimvar.flatMap { Self.colorValues($0, count: points.count) },
                indices: indices)
        }
        // One key per corner: the point and each attribute's value index.
        let pointIndices = faceVertexIndices.withUnsafeBufferPointer { fvi in corners.map { UInt32(bitPattern: fvi[Int($0)]) } }
        let streams = [pointIndices] + attributes.map { valueIndices(of: $0, corners: corners) }
        let welded = VertexWelder.weld(streams, expectedVertices: points.count)
        let first = welded.firstCorners
        func gathered<T>(_ values: [T], stream: Int) -> [T] {
            streams[stream].withUnsafeBufferPointer { s in values.withUnsafeBufferPointer { v in first.map { v[Int(s[Int($0)])] } } }
        }
        var result = UnweldedMesh(positions: gathered(points, stream: 0), normals: nil, texcoords: [], colors: nil,
                                  indices: welded.vertexOfCorner)
        result.sourcePoints = streams[0].withUnsafeBufferPointer { s in first.map { s[Int($0)] } }
        var slot = 1
        if let normalsPrimvar {
            if case .float3(let v) = normalsPrimvar.values { result.normals = gathered(v, stream: slot) }
            slot += 1
        }
        if let colorPrimvar {
            let values = colorPrimvar.values
            result.colors = streams[slot].withUnsafeBufferPointer { s in first.map { Self.color(values, Int(s[Int($0)])) } }
            slot += 1
        }
        for set in sets {
            if case .float2(let v) = set.values { result.texcoords.append(gathered(v, stream: slot)) }
            else { result.texcoords.append(Array(repeating: .zero, count: first.count)) }
            slot += 1
        }
        return result
    }

    /// The face each corner of `faceVertexIndices` belongs to.
    public func cornerFaces() -> [Int32] {
        var faces: [Int32] = []
        faces.reserveCapacity(faceVertexIndices.count)
        for (face, count) in faceVertexCounts.enumerated() {
            faces.append(contentsOf: repeatElement(Int32(face), count: Int(max(count, 0))))
        }
        return faces
    }

    private static func float3Values(_ p: Primvar, count: Int) -> [SIMD3<Float>]? {
        guard case .float3(let v) = p.values, v.count == count else { return nil }
        return v
    }

    private static func float2Values(_ p: Primvar, count: Int) -> [SIMD2<Float>]? {
        guard case .float2(let v) = p.values, v.count == count else { return nil }
        return v
    }

    private static func colorValues(_ p: Primvar, count: Int) -> [SIMD4<Float>]? {
        guard p.values.count == count else { return nil }
        return (0..<count).map { color(p.values, $0) }
    }

    /// Value `i` of a colour primvar as RGBA: RGB gets alpha 1, one channel is grey.
    public static func color(_ values: PrimvarValues, _ i: Int) -> SIMD4<Float> {
        switch values {
        case .float3(let v): return SIMD4(v[i].x, v[i].y, v[i].z, 1)
        case .float4(let v): return v[i]
        case .float(let v): return SIMD4(v[i], v[i], v[i], 1)
        case .float2(let v): return SIMD4(v[i].x, v[i].y, 0, 1)
        }
    }
}

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
    /// Vertex buffers for `corners` (positions in `faceVertexIndices`, e.g. a triangulation's; nil:
    /// every corner in order). When every attribute is per point (vertex interpolation or none),
    /// points are kept as they are and the indices are the face-vertex indices; otherwise each
    /// distinct combination of attribute indices becomes one vertex.
    public func unwelded(corners: [UInt32]?, texcoordSets: [Primvar]? = nil) -> UnweldedMesh {
        let sets = texcoordSets ?? self.texcoordSets
        let normalsPrimvar = normals
        let colorPrimvar = primvar(named: Primvar.displayColorName)
        let attributes = [normalsPrimvar, colorPrimvar].compactMap { $0 } + sets
        // Nothing to weld when every attribute already shares the point index.
        if attributes.allSatisfy(\.followsPoints) {
            let indices = faceVertexIndices.withUnsafeBufferPointer { fvi in
                corners.map { $0.map { UInt32(fvi[Int($0)]) } } ?? fvi.map { UInt32($0) }
            }
            return UnweldedMesh(
                positions: points,
                normals: normalsPrimvar.flatMap { Self.float3Values($0, count: points.count) },
                texcoords: sets.map { Self.float2Values($0, count: points.count) ?? Array(repeating: .zero, count: points.count) },
                colors: colorPrimvar.flatMap { Self.colorValues($0, count: points.count) },
                indices: indices)
        }
        // One key per corner: the point and each attribute's value index.
        let width = 1 + attributes.count
        let keys = cornerKeys(attributes, corners: corners)
        let welded = keys.withUnsafeBufferPointer { VertexWelder.weld(keys: $0, width: width, pointCount: points.count) }
        let first = welded.firstCorners
        /// Column `column` of each vertex's first corner's key, mapped through `value`; the vertices'
        /// halves on two cores when there are many (four or five such gathers follow every weld).
        func gathered<T>(column: Int, _ value: @escaping @Sendable (Int) -> T) -> [T] {
            [T](unsafeUninitializedCapacity: first.count) { out, initialized in
                keys.withUnsafeBufferPointer { k in
                    first.withUnsafeBufferPointer { first in
                        nonisolated(unsafe) let (out, k, first) = (out, k, first)  // halves write apart
                        SplitReduction.forEachHalf(count: first.count) { half in
                            for v in half { (out.baseAddress! + v).initialize(to: value(Int(k[Int(first[v]) * width + column]))) }
                        }
                    }
                }
                initialized = first.count
            }
        }
        func gathered<T>(_ values: [T], column: Int) -> [T] {
            values.withUnsafeBufferPointer { v in
                nonisolated(unsafe) let v = v
                return gathered(column: column) { v[$0] }
            }
        }
        var result = UnweldedMesh(positions: gathered(points, column: 0), normals: nil, texcoords: [], colors: nil,
                                  indices: welded.vertexOfCorner)
        result.sourcePoints = gathered(column: 0) { UInt32(truncatingIfNeeded: $0) }
        var column = 1
        if let normalsPrimvar {
            if case .float3(let v) = normalsPrimvar.values { result.normals = gathered(v, column: column) }
            column += 1
        }
        if let colorPrimvar {
            let values = colorPrimvar.values
            result.colors = gathered(column: column) { Self.color(values, $0) }
            column += 1
        }
        for set in sets {
            if case .float2(let v) = set.values { result.texcoords.append(gathered(v, column: column)) }
            else { result.texcoords.append(Array(repeating: .zero, count: first.count)) }
            column += 1
        }
        return result
    }

    /// Every corner's point index and then each attribute's value index, interleaved so that a
    /// corner's key is contiguous for the welder. Written without per-attribute arrays (each was
    /// one more pass over fresh memory), in blocks that stay in cache while every column is
    /// filled, and on two cores for large meshes: the kernel zeroes fresh pages for whichever
    /// thread touches them first, and on a 1M-triangle export that zeroing was as slow as the weld.
    private func cornerKeys(_ attributes: [Primvar], corners: [UInt32]?) -> [UInt32] {
        let count = corners?.count ?? faceVertexIndices.count
        let width = 1 + attributes.count
        let faces = attributes.contains { $0.interpolation == .uniform } ? cornerFaces() : []
        return [UInt32](unsafeUninitializedCapacity: count * width) { buffer, initialized in
            guard let base = buffer.baseAddress else { initialized = 0; return }
            HugePages.advise(UnsafeMutableRawPointer(base), byteCount: count * width * 4)
            nonisolated(unsafe) let keys = base  // each half writes only its own corners' keys
            SplitReduction.forEachHalf(count: count) { half in
                for start in stride(from: half.lowerBound, to: half.upperBound, by: 4096) {
                    let block = start..<min(start + 4096, half.upperBound)
                    let out = keys + start * width
                    writeValueIndices(of: nil, corners: corners, faces: faces, range: block, into: out, stride: width)
                    for (k, attribute) in attributes.enumerated() {
                        writeValueIndices(of: attribute, corners: corners, faces: faces, range: block, into: out + k + 1, stride: width)
                    }
                }
            }
            initialized = count * width
        }
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

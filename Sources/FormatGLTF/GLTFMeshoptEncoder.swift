import AssetCore
import CMeshOptimizer

/// EXT_meshopt_compression for the writer: every buffer view an accessor reads is re-coded with
/// libmeshoptimizer's vertex codec (ATTRIBUTES) or index codec (TRIANGLES, or INDICES for lines),
/// the reference encoder of the extension. Vertex floats first go through the EXPONENTIAL filter,
/// which keeps `bits` of mantissa so the codec finds more repeated bytes; the accessors' min and
/// max are then taken again from the values a decoder gets back. Views no accessor reads (images)
/// are copied as they are. The uncompressed layout stays described by a fallback buffer with no
/// bytes, and the extension is required, as gltfpack writes it.
enum GLTFMeshoptEncoder {
    static func compress(_ document: inout GLTFDocument, buffer: [UInt8], positionBits: Int, attributeBits: Int) -> ByteWriter {
        // The versions EXT_meshopt_compression specifies (they are the library's defaults, set
        // here so a library built otherwise cannot change the output).
        meshopt_encodeVertexVersion(0)
        meshopt_encodeIndexVersion(1)
        var readers = [[Int]](repeating: [], count: document.bufferViews.count)
        for (a, accessor) in document.accessors.enumerated() {
            if let view = accessor.bufferView { readers[view].append(a) }
        }
        var triangleIndices = Set<Int>(), positions = Set<Int>()
        for primitive in document.meshes.flatMap(\.primitives) {
            if primitive.mode == 4, let indices = primitive.indices { triangleIndices.insert(indices) }
            if let p = primitive.attributes["POSITION"] { positions.insert(p) }
            for target in primitive.targets ?? [] { if let p = target["POSITION"] { positions.insert(p) } }
        }
        var out = ByteWriter(capacity: buffer.count / 2 + GLTFBuilder.headroom)
        var fallbackLength = 0
        for v in document.bufferViews.indices {
            let view = document.bufferViews[v]
            let data = Array(buffer[view.byteOffset..<(view.byteOffset + view.byteLength)])
            out.pad(to: 4)
            guard readers[v].count == 1, let a = readers[v].first, let stride = Self.elementSize(document.accessors[a]),
                  stride % 4 == 0, stride <= 256, document.accessors[a].count * stride == data.count, data.count > 0 else {
                document.bufferViews[v].byteOffset = out.count
                out.append(data)
                continue
            }
            let accessor = document.accessors[a]
            let count = accessor.count
            var encoded: [UInt8]
            var mode = "ATTRIBUTES", filter: String?
            if view.target == 34963 {
                mode = triangleIndices.contains(a) && count % 3 == 0 ? "TRIANGLES" : "INDICES"
                encoded = encodeIndices(data, count: count, triangles: mode == "TRIANGLES")
            } else {
                var values = data
                let bits = positions.contains(a) ? positionBits : attributeBits
                if view.target == 34962 && accessor.componentType == 5126 && bits < 23 {
                    values = filtered(data, count: count, stride: stride, bits: bits)
                    filter = "EXPONENTIAL"
                    if accessor.min != nil { (document.accessors[a].min, document.accessors[a].max) = decodedBounds(values, count: count, stride: stride) }
                }
                encoded = encodeVertices(values, count: count, stride: stride)
            }
            document.bufferViews[v] = GLTFDocument.BufferView(
                buffer: 1, byteOffset: fallbackLength, byteLength: view.byteLength, byteStride: view.target == 34962 ? stride : nil, target: view.target,
                extensions: .init(EXT_meshopt_compression: .init(buffer: 0, byteOffset: out.count, byteLength: encoded.count, byteStride: stride,
                                                                 count: count, mode: mode, filter: filter)))
            out.append(encoded)
            fallbackLength += (view.byteLength + 3) & ~3
        }
        document.buffers = [GLTFDocument.Buffer(byteLength: out.count),
                            GLTFDocument.Buffer(byteLength: fallbackLength, extensions: .init(EXT_meshopt_compression: .init()))]
        document.extensionsUsed = (document.extensionsUsed ?? []) + ["EXT_meshopt_compression"]
        document.extensionsRequired = (document.extensionsRequired ?? []) + ["EXT_meshopt_compression"]
        return out
    }

    static func elementSize(_ accessor: GLTFDocument.Accessor) -> Int? {
        let components = ["SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16][accessor.type]
        let bytes = [5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4][accessor.componentType]
        guard let components, let bytes else { return nil }
        return components * bytes
    }

    private static func encodeVertices(_ data: [UInt8], count: Int, stride: Int) -> [UInt8] {
        var encoded = [UInt8](repeating: 0, count: meshopt_encodeVertexBufferBound(count, stride))
        let size = encoded.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBytes { meshopt_encodeVertexBuffer(out.baseAddress, out.count, $0.baseAddress, count, stride) }
        }
        precondition(size > 0, "the bound meshoptimizer gives always holds the encoding")
        return Array(encoded.prefix(size))
    }

    private static func encodeIndices(_ data: [UInt8], count: Int, triangles: Bool) -> [UInt8] {
        let indices = data.withUnsafeBytes { raw in (0..<count).map { raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self) } }
        let vertexCount = Int(indices.max() ?? 0) + 1
        let bound = triangles ? meshopt_encodeIndexBufferBound(count, vertexCount) : meshopt_encodeIndexSequenceBound(count, vertexCount)
        var encoded = [UInt8](repeating: 0, count: bound)
        let size = encoded.withUnsafeMutableBufferPointer { out in
            indices.withUnsafeBufferPointer {
                triangles ? meshopt_encodeIndexBuffer(out.baseAddress, out.count, $0.baseAddress, count)
                          : meshopt_encodeIndexSequence(out.baseAddress, out.count, $0.baseAddress, count)
            }
        }
        precondition(size > 0, "the bound meshoptimizer gives always holds the encoding")
        return Array(encoded.prefix(size))
    }

    /// The floats through the EXPONENTIAL filter, `bits` of mantissa kept.
    private static func filtered(_ data: [UInt8], count: Int, stride: Int, bits: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: data.count)
        out.withUnsafeMutableBytes { destination in
            data.withUnsafeBytes { meshopt_encodeFilterExp(destination.baseAddress, count, stride, Int32(bits), $0.bindMemory(to: Float.self).baseAddress) }
        }
        return out
    }

    /// Each component's least and greatest value as a decoder reads the filtered data back.
    private static func decodedBounds(_ filtered: [UInt8], count: Int, stride: Int) -> ([Float], [Float]) {
        var decoded = filtered
        decoded.withUnsafeMutableBytes { meshopt_decodeFilterExp($0.baseAddress, count, stride) }
        return GLTFDracoEncoder.bounds(decoded.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }, width: stride / 4)
    }
}

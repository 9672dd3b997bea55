import AssetCore
import CDracoBridge

/// KHR_draco_mesh_compression for the writer: each triangle primitive's vertices (those its
/// triangles use) and triangles become one Draco stream, coded by Debian's libdraco (the
/// extension's reference coder), with positions, normals, texture coordinates and the rest
/// quantized to the bits asked; skin weights stay exact so they still sum to one. A primitive with
/// morph targets is coded sequentially, which keeps its points' order, for the targets are stored
/// beside it, uncompressed, in that order. The accessors' counts and the positions' bounds are
/// taken from decoding the stream again, as a viewer will. What no longer has a reader (the
/// uncompressed vertex and index data) is left out of the buffer.
struct GLTFDracoEncoder {
    var positionBits: Int
    var normalBits: Int
    var texcoordBits: Int
    var genericBits: Int

    /// Every buffer view's bytes while primitives are re-coded; views are appended, never moved.
    private var blobs: [[UInt8]] = []

    init(positionBits: Int, normalBits: Int, texcoordBits: Int, genericBits: Int) {
        (self.positionBits, self.normalBits, self.texcoordBits, self.genericBits) = (positionBits, normalBits, texcoordBits, genericBits)
    }

    mutating func compress(_ document: inout GLTFDocument, buffer: [UInt8], diagnostics: inout [Diagnostic]) throws(AssetError) -> ByteWriter {
        blobs = document.bufferViews.map { Array(buffer[$0.byteOffset..<($0.byteOffset + $0.byteLength)]) }
        var coded = 0
        for m in document.meshes.indices {
            for p in document.meshes[m].primitives.indices where document.meshes[m].primitives[p].mode == 4 {
                var primitive = document.meshes[m].primitives[p]
                if try encode(&primitive, in: &document) { coded += 1 }
                document.meshes[m].primitives[p] = primitive
            }
        }
        if coded > 0 {
            document.extensionsUsed = (document.extensionsUsed ?? []) + ["KHR_draco_mesh_compression"]
            document.extensionsRequired = (document.extensionsRequired ?? []) + ["KHR_draco_mesh_compression"]
        }
        return GLTFUnusedData.pruned(&document, blobs: blobs)
    }

    /// Re-codes one primitive; false when it has nothing to code.
    private mutating func encode(_ primitive: inout GLTFDocument.Primitive, in document: inout GLTFDocument) throws(AssetError) -> Bool {
        guard primitive.mode == 4, let indexAccessor = primitive.indices else { return false }  // splat points stay as they are
        let indices = u32s(document.accessors[indexAccessor])
        guard !indices.isEmpty, indices.count % 3 == 0 else { return false }
        // The vertices the triangles use, in the order they are first used.
        var newIndex = [UInt32](repeating: .max, count: Int(indices.max() ?? 0) + 1), order: [UInt32] = []
        let compact = indices.map { old in
            if newIndex[Int(old)] == .max {
                newIndex[Int(old)] = UInt32(order.count)
                order.append(old)
            }
            return newIndex[Int(old)]
        }
        let names = primitive.attributes.keys.sorted()
        var gathered: [[UInt8]] = []
        var inputs: [assetc_draco_attribute_input] = []
        for name in names {
            let accessor = document.accessors[primitive.attributes[name]!]
            guard let size = GLTFMeshoptEncoder.elementSize(accessor), [5121, 5123, 5126].contains(accessor.componentType) else { return false }
            gathered.append(gather(accessor, order: order, elementSize: size))
            let (kind, bits) = kindAndBits(name)
            inputs.append(assetc_draco_attribute_input(kind: kind, components: Int32(size / componentBytes(accessor.componentType)),
                                                       component_type: Int32(accessor.componentType), values: nil, quantization_bits: Int32(bits)))
        }
        let sequential = primitive.targets != nil
        var uniqueIDs = [UInt32](repeating: 0, count: inputs.count)
        var error = [CChar](repeating: 0, count: 256)
        var size = 0
        let stream: [UInt8]? = withArrayPointers(gathered) { pointers in
            for k in inputs.indices { inputs[k].values = pointers[k] }
            guard let bytes = assetc_draco_encode(UInt32(order.count), compact, UInt32(compact.count / 3), inputs, Int32(inputs.count),
                                                  sequential ? 1 : 0, &size, &uniqueIDs, &error, error.count) else { return nil }
            defer { assetc_draco_free_bytes(bytes) }
            return Array(UnsafeBufferPointer(start: bytes, count: size))
        }
        guard let stream else {
            throw AssetError(.io("Draco cannot encode a primitive: \(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))"))
        }
        guard let decoded = assetc_draco_decode(stream, stream.count, &error, error.count) else {
            throw AssetError(.io("the Draco stream assetc wrote does not decode"))
        }
        defer { assetc_draco_free(decoded) }
        let points = Int(assetc_draco_point_count(decoded))
        guard !sequential || points == order.count else {
            throw AssetError(.io("Draco's sequential coder changed a morphing primitive's \(order.count) points to \(points)"))
        }
        blobs.append(stream)
        var dracoAttributes: [String: Int] = [:]
        for (k, name) in names.enumerated() {
            var accessor = document.accessors[primitive.attributes[name]!]
            accessor.bufferView = nil
            accessor.count = points
            if accessor.min != nil, name == "POSITION" {
                var floats = [Float](repeating: 0, count: points * 3)
                guard assetc_draco_attribute_floats(decoded, uniqueIDs[k], &floats, 3) == 0 else { throw AssetError(.io("Draco lost the positions it was given")) }
                (accessor.min, accessor.max) = Self.bounds(floats, width: 3)
            }
            document.accessors.append(accessor)
            primitive.attributes[name] = document.accessors.count - 1
            dracoAttributes[name] = Int(uniqueIDs[k])
        }
        document.accessors.append(GLTFDocument.Accessor(bufferView: nil, componentType: 5125, count: compact.count, type: "SCALAR"))
        primitive.indices = document.accessors.count - 1
        document.bufferViews.append(GLTFDocument.BufferView(byteOffset: 0, byteLength: stream.count, target: nil))
        primitive.extensions = primitive.extensions ?? GLTFDocument.PrimitiveExtensions()
        primitive.extensions?.KHR_draco_mesh_compression = .init(bufferView: document.bufferViews.count - 1, attributes: dracoAttributes)
        // Morph targets, uncompressed, in the kept order.
        primitive.targets = primitive.targets?.map { target in
            target.mapValues { old in
                var accessor = document.accessors[old]
                let bytes = gather(accessor, order: order, elementSize: GLTFMeshoptEncoder.elementSize(accessor) ?? 12)
                blobs.append(bytes)
                document.bufferViews.append(GLTFDocument.BufferView(byteOffset: 0, byteLength: bytes.count, target: 34962))
                accessor.bufferView = document.bufferViews.count - 1
                accessor.count = order.count
                if accessor.min != nil {
                    let floats = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
                    (accessor.min, accessor.max) = Self.bounds(floats, width: accessor.min!.count)
                }
                document.accessors.append(accessor)
                return document.accessors.count - 1
            }
        }
        return true
    }

    private func kindAndBits(_ name: String) -> (Int32, Int) {
        if name == "POSITION" { return (0, positionBits) }
        if name == "NORMAL" || name == "TANGENT" { return (1, normalBits) }
        if name.hasPrefix("COLOR_") { return (2, genericBits) }
        if name.hasPrefix("TEXCOORD_") { return (3, texcoordBits) }
        return (4, name.hasPrefix("WEIGHTS_") ? 0 : genericBits)  // weights exact: quantized ones stop summing to one
    }

    private func componentBytes(_ type: Int) -> Int { type == 5126 || type == 5125 ? 4 : type == 5123 ? 2 : 1 }

    private func u32s(_ accessor: GLTFDocument.Accessor) -> [UInt32] {
        guard let view = accessor.bufferView, accessor.componentType == 5125 else { return [] }
        return blobs[view].withUnsafeBytes { raw in (0..<accessor.count).map { raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self) } }
    }

    private func gather(_ accessor: GLTFDocument.Accessor, order: [UInt32], elementSize: Int) -> [UInt8] {
        guard let view = accessor.bufferView else { return [] }
        let source = blobs[view]
        var out = [UInt8](repeating: 0, count: order.count * elementSize)
        out.withUnsafeMutableBufferPointer { destination in
            source.withUnsafeBufferPointer { input in
                for (k, old) in order.enumerated() {
                    let from = Int(old) * elementSize
                    for b in 0..<elementSize { destination[k * elementSize + b] = input[from + b] }
                }
            }
        }
        return out
    }

    static func bounds(_ floats: [Float], width: Int) -> ([Float], [Float]) {
        guard floats.count >= width, width > 0 else { return ([Float](repeating: 0, count: width), [Float](repeating: 0, count: width)) }
        var low = Array(floats[0..<width]), high = low
        var i = width
        while i < floats.count {
            for k in 0..<width {
                low[k] = min(low[k], floats[i + k])
                high[k] = max(high[k], floats[i + k])
            }
            i += width
        }
        return (low, high)
    }
}

/// Runs `body` with a base address for each array, all valid at once.
private func withArrayPointers<R>(_ arrays: [[UInt8]], _ body: ([UnsafeRawPointer?]) -> R) -> R {
    func nest(_ k: Int, _ pointers: [UnsafeRawPointer?]) -> R {
        guard k < arrays.count else { return body(pointers) }
        return arrays[k].withUnsafeBytes { nest(k + 1, pointers + [$0.baseAddress]) }
    }
    return nest(0, [])
}

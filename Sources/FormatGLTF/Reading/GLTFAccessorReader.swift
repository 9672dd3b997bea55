import AssetCore

/// Reads accessors out of the loaded buffers into flat arrays: any component type, `normalized`
/// integers mapped to [0, 1] or [-1, 1] as the specification says, interleaved views with
/// `byteStride`, and sparse substitutions. Every offset and length comes from the file, so each is
/// checked against the buffer (in arithmetic that cannot overflow) before a byte is read, and the
/// budget is charged before the output is allocated. Tightly packed floats, most of a large file,
/// are one copy.
struct GLTFAccessorReader {
    let asset: GLTFAsset
    /// Per buffer, its bytes; nil when the buffer could not be loaded (the error names why).
    let buffers: [ArraySlice<UInt8>?]
    let budget: ReadBudget
    let file: String
    /// Views whose bytes were decompressed (EXT_meshopt_compression), by view index.
    var decodedViews: [Int: ArraySlice<UInt8>] = [:]

    static func componentCount(_ type: String) -> Int? {
        switch type {
        case "SCALAR": return 1
        case "VEC2": return 2
        case "VEC3": return 3
        case "VEC4", "MAT2": return 4
        case "MAT3": return 9
        case "MAT4": return 16
        default: return nil
        }
    }

    static func componentSize(_ componentType: Int) -> Int? {
        switch componentType {
        case 5120, 5121: return 1
        case 5122, 5123: return 2
        case 5125, 5126: return 4
        default: return nil
        }
    }

    func location(_ index: Int) -> SourceLocation { SourceLocation(file: file, elementPath: "accessors[\(index)]") }

    func malformed(_ index: Int, _ message: String) -> AssetError { AssetError(.malformed(message), at: location(index)) }

    /// The accessor's values as floats, `components` per element, with the components it has.
    func floats(_ index: Int, allowedComponents: Set<Int>, what: String) throws(AssetError) -> (values: [Float], components: Int) {
        let accessor = try self.accessor(index)
        guard let components = Self.componentCount(accessor.type), allowedComponents.contains(components) else {
            throw malformed(index, "\(what) accessor has type \(accessor.type)")
        }
        guard let size = Self.componentSize(accessor.componentType), accessor.componentType != 5125 || accessor.normalized != true else {
            throw malformed(index, "componentType \(accessor.componentType) is not one glTF defines")
        }
        let total = try elementTotal(index, accessor, components: components)
        try budget.spend(work: total, for: "\(what) (accessors[\(index)])", at: location(index))
        try budget.spend(bytes: total * 4, for: "\(what) (accessors[\(index)])", at: location(index))
        var values: [Float]
        if let viewIndex = accessor.bufferView {
            let (bytes, start, stride) = try view(viewIndex, of: index, accessor, elementSize: size * components)
            values = Self.decode(bytes, start: start, stride: stride, count: accessor.count, components: components,
                                 componentType: accessor.componentType, normalized: accessor.normalized ?? false)
        } else {
            values = [Float](repeating: 0, count: total)
        }
        if let sparse = accessor.sparse {
            let targets = try sparseIndices(index, sparse, count: accessor.count)
            let (bytes, start, _) = try view(sparse.values.bufferView, of: index, accessor, elementSize: size * components,
                                             count: sparse.count, extraOffset: sparse.values.byteOffset ?? 0, packed: true)
            let replacement = Self.decode(bytes, start: start, stride: size * components, count: sparse.count, components: components,
                                          componentType: accessor.componentType, normalized: accessor.normalized ?? false)
            for (k, target) in targets.enumerated() {
                for c in 0..<components { values[Int(target) * components + c] = replacement[k * components + c] }
            }
        }
        return (values, components)
    }

    /// A VEC3 float accessor straight into vectors, without a flat copy first (positions and
    /// normals of large meshes); other component types go through `floats`.
    func vectors3(_ index: Int, what: String) throws(AssetError) -> [SIMD3<Float>] {
        let accessor = try self.accessor(index)
        guard accessor.componentType == 5126, accessor.type == "VEC3", accessor.sparse == nil, let viewIndex = accessor.bufferView else {
            return GLTFMeshBuilder.vectors3(try floats(index, allowedComponents: [3], what: what).values)
        }
        let total = try elementTotal(index, accessor, components: 3)
        try budget.spend(work: total, for: "\(what) (accessors[\(index)])", at: location(index))
        try budget.spend(bytes: accessor.count * 16, for: "\(what) (accessors[\(index)])", at: location(index))
        let (bytes, start, stride) = try view(viewIndex, of: index, accessor, elementSize: 12)
        return bytes.withUnsafeBytes { raw in
            [SIMD3<Float>](unsafeUninitializedCapacity: accessor.count) { out, initialized in
                HugePages.advise(UnsafeMutableRawPointer(out.baseAddress), byteCount: accessor.count * 16)
                for e in 0..<accessor.count {
                    let at = start + e * stride
                    out[e] = SIMD3(Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))),
                                   Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self))),
                                   Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self))))
                }
                initialized = accessor.count
            }
        }
    }

    /// An index accessor as the signed indices meshes hold, each checked to be below `bound` (the
    /// vertex count, itself below 2^31). Packed 32-bit indices, what large files hold, are one copy
    /// and one pass for the largest index.
    func indices(_ index: Int, below bound: Int) throws(AssetError) -> [Int32] {
        let accessor = try self.accessor(index)
        let packed: [Int32]?
        if accessor.componentType == 5125, accessor.type == "SCALAR", accessor.sparse == nil, let viewIndex = accessor.bufferView {
            let total = try elementTotal(index, accessor, components: 1)
            try budget.spend(work: total, for: "indices (accessors[\(index)])", at: location(index))
            try budget.spend(bytes: total * 4, for: "indices (accessors[\(index)])", at: location(index))
            let (bytes, start, stride) = try view(viewIndex, of: index, accessor, elementSize: 4)
            packed = stride != 4 ? nil : bytes.withUnsafeBytes { raw in
                [Int32](unsafeUninitializedCapacity: total) { out, initialized in
                    HugePages.advise(UnsafeMutableRawPointer(out.baseAddress), byteCount: total * 4)
                    UnsafeMutableRawBufferPointer(out).copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[start..<(start + total * 4)]))
                    initialized = total
                }
            }
        } else {
            packed = nil
        }
        let result: [Int32]
        if let packed { result = packed } else { result = try indices(index).map { Int32(truncatingIfNeeded: $0) } }
        // As unsigned, an index of 2^31 or more wraps negative: one comparison catches both.
        let largest = result.withUnsafeBufferPointer { all in all.reduce(UInt32(0)) { max($0, UInt32(bitPattern: $1)) } }
        if !result.isEmpty, Int(largest) >= bound {
            throw AssetError(.malformed("index \(largest) is outside the \(bound) positions"), at: location(index))
        }
        return result
    }

    /// An index accessor (SCALAR, unsigned byte, short or int) as 32-bit indices.
    func indices(_ index: Int) throws(AssetError) -> [UInt32] {
        let accessor = try self.accessor(index)
        guard accessor.type == "SCALAR", [5121, 5123, 5125].contains(accessor.componentType) else {
            throw malformed(index, "indices must be SCALAR unsigned byte, short or int; this is \(accessor.type) of componentType \(accessor.componentType)")
        }
        let total = try elementTotal(index, accessor, components: 1)
        try budget.spend(work: total, for: "indices (accessors[\(index)])", at: location(index))
        try budget.spend(bytes: total * 4, for: "indices (accessors[\(index)])", at: location(index))
        guard let viewIndex = accessor.bufferView else { return [UInt32](repeating: 0, count: total) }
        let size = Self.componentSize(accessor.componentType)!
        let (bytes, start, stride) = try view(viewIndex, of: index, accessor, elementSize: size)
        return Self.unsigned(bytes, start: start, stride: stride, count: accessor.count, size: size)
    }

    /// A whole buffer view's bytes (a Draco payload), checked against its buffer.
    func viewBytes(_ viewIndex: Int, at here: SourceLocation) throws(AssetError) -> ArraySlice<UInt8> {
        guard let views = asset.bufferViews, views.indices.contains(viewIndex) else {
            throw AssetError(.malformed("bufferView \(viewIndex) does not exist"), at: here)
        }
        let view = views[viewIndex]
        guard buffers.indices.contains(view.buffer), let buffer = buffers[view.buffer] else {
            throw AssetError(.malformed("buffer \(view.buffer) is not available"), at: here)
        }
        let offset = view.byteOffset ?? 0
        guard offset >= 0, view.byteLength >= 0, offset <= buffer.count, view.byteLength <= buffer.count - offset else {
            throw AssetError(.malformed("bufferViews[\(viewIndex)] runs past its buffer"), at: here)
        }
        let start = buffer.startIndex + offset
        return buffer[start..<(start + view.byteLength)]
    }

    /// The accessor's description (type, normalization, declared range), when it exists.
    func described(_ index: Int) -> GLTFAsset.Accessor? {
        guard let accessors = asset.accessors, accessors.indices.contains(index) else { return nil }
        return accessors[index]
    }

    private func accessor(_ index: Int) throws(AssetError) -> GLTFAsset.Accessor {
        guard let accessors = asset.accessors, accessors.indices.contains(index) else {
            throw AssetError(.malformed("accessor \(index) does not exist"), at: SourceLocation(file: file, elementPath: "accessors"))
        }
        return accessors[index]
    }

    private func elementTotal(_ index: Int, _ accessor: GLTFAsset.Accessor, components: Int) throws(AssetError) -> Int {
        guard accessor.count >= 0, accessor.count <= budget.limits.maxArrayElements / components else {
            throw AssetError(.limitExceeded("accessor count \(accessor.count) (at most \(budget.limits.maxArrayElements) values)"), at: location(index))
        }
        return accessor.count * components
    }

    /// The bytes of a buffer view with the accessor's first element's offset and the element stride,
    /// after checking that `count` elements fit inside the view and the view inside its buffer.
    private func view(_ viewIndex: Int, of index: Int, _ accessor: GLTFAsset.Accessor, elementSize: Int, count: Int? = nil,
                      extraOffset: Int? = nil, packed: Bool = false) throws(AssetError) -> (ArraySlice<UInt8>, Int, Int) {
        guard let views = asset.bufferViews, views.indices.contains(viewIndex) else { throw malformed(index, "bufferView \(viewIndex) does not exist") }
        let view = views[viewIndex]
        let buffer: ArraySlice<UInt8>
        let viewOffset: Int
        if let decoded = decodedViews[viewIndex] {
            (buffer, viewOffset) = (decoded, 0)
        } else {
            guard buffers.indices.contains(view.buffer) else { throw malformed(index, "bufferViews[\(viewIndex)] names buffer \(view.buffer), which does not exist") }
            guard let loaded = buffers[view.buffer] else { throw malformed(index, "buffer \(view.buffer) could not be loaded") }
            (buffer, viewOffset) = (loaded, view.byteOffset ?? 0)
        }
        guard viewOffset >= 0, view.byteLength >= 0, viewOffset <= buffer.count, view.byteLength <= buffer.count - viewOffset else {
            throw malformed(index, "bufferViews[\(viewIndex)] (offset \(viewOffset), length \(view.byteLength)) runs past its buffer of \(buffer.count) bytes")
        }
        let stride = packed ? elementSize : (view.byteStride ?? elementSize)
        guard stride >= elementSize else { throw malformed(index, "byteStride \(stride) is less than the \(elementSize)-byte element") }
        let n = count ?? accessor.count
        let offset = extraOffset ?? (accessor.byteOffset ?? 0)
        guard offset >= 0, offset <= view.byteLength else { throw malformed(index, "byteOffset \(offset) is past the end of bufferViews[\(viewIndex)]") }
        if n > 0 {
            // (n - 1) * stride + elementSize must fit in what is left of the view; divide, do not multiply.
            let room = view.byteLength - offset - elementSize
            guard room >= 0, (n - 1) <= room / stride else {
                throw malformed(index, "\(n) elements of \(elementSize) bytes every \(stride) do not fit in bufferViews[\(viewIndex)] (\(view.byteLength) bytes from offset \(offset))")
            }
        }
        return (buffer, viewOffset + offset, stride)  // offsets relative to the buffer's first byte
    }

    private func sparseIndices(_ index: Int, _ sparse: GLTFAsset.Sparse, count: Int) throws(AssetError) -> [UInt32] {
        guard sparse.count >= 0, sparse.count <= count else { throw malformed(index, "sparse count \(sparse.count) exceeds the accessor's \(count)") }
        guard [5121, 5123, 5125].contains(sparse.indices.componentType), let size = Self.componentSize(sparse.indices.componentType) else {
            throw malformed(index, "sparse indices have componentType \(sparse.indices.componentType)")
        }
        let dummy = GLTFAsset.Accessor(bufferView: nil, byteOffset: nil, componentType: sparse.indices.componentType, normalized: nil,
                                       count: sparse.count, type: "SCALAR", sparse: nil, name: nil)
        let (bytes, start, _) = try view(sparse.indices.bufferView, of: index, dummy, elementSize: size, count: sparse.count,
                                         extraOffset: sparse.indices.byteOffset ?? 0, packed: true)
        let targets = Self.unsigned(bytes, start: start, stride: size, count: sparse.count, size: size)
        if let bad = targets.first(where: { Int($0) >= count }) { throw malformed(index, "sparse index \(bad) is outside the accessor's \(count) elements") }
        return targets
    }

    static func unsigned(_ bytes: ArraySlice<UInt8>, start: Int, stride: Int, count: Int, size: Int) -> [UInt32] {
        bytes.withUnsafeBufferPointer { b in
            [UInt32](unsafeUninitializedCapacity: count) { out, initialized in
                HugePages.advise(UnsafeMutableRawPointer(out.baseAddress), byteCount: count * 4)
                for e in 0..<count {
                    let at = start + e * stride
                    switch size {
                    case 1: out[e] = UInt32(b[at])
                    case 2: out[e] = UInt32(b[at]) | UInt32(b[at + 1]) << 8
                    default: out[e] = UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
                    }
                }
                initialized = count
            }
        }
    }

    static func decode(_ bytes: ArraySlice<UInt8>, start: Int, stride: Int, count: Int, components: Int,
                       componentType: Int, normalized: Bool) -> [Float] {
        let total = count * components
        return bytes.withUnsafeBufferPointer { b in
            [Float](unsafeUninitializedCapacity: total) { out, initialized in
                defer { initialized = total }
                guard total > 0 else { return }
                if componentType == 5126 && stride == components * 4 {
                    // Tightly packed little-endian floats: the buffer already holds the array.
                    UnsafeMutableRawBufferPointer(out).copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: b[start..<(start + total * 4)])))
                    return
                }
                let size = componentSize(componentType) ?? 4
                for e in 0..<count {
                    for c in 0..<components {
                        let at = start + e * stride + c * size
                        out[e * components + c] = component(b, at, componentType, normalized)
                    }
                }
            }
        }
    }

    @inline(__always) static func component(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ type: Int, _ normalized: Bool) -> Float {
        switch type {
        case 5120:
            let v = Float(Int8(bitPattern: b[at]))
            return normalized ? max(v / 127, -1) : v
        case 5121:
            let v = Float(b[at])
            return normalized ? v / 255 : v
        case 5122:
            let v = Float(Int16(bitPattern: UInt16(b[at]) | UInt16(b[at + 1]) << 8))
            return normalized ? max(v / 32767, -1) : v
        case 5123:
            let v = Float(UInt16(b[at]) | UInt16(b[at + 1]) << 8)
            return normalized ? v / 65535 : v
        case 5125:
            return Float(UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24)
        default:
            return Float(bitPattern: UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24)
        }
    }
}

import AssetCore

/// Packing values: small ones inline in their representation, the rest appended to the file's
/// data with the same encodings OpenUSD writes (integer-coded int arrays, whole-number float
/// arrays as integers, 8-byte aligned plain arrays).
extension CrateFileBuilder {
    /// Role names share the storage of their plain type.
    static let roleTypes: [String: String] = [
        "point3f": "float3", "normal3f": "float3", "vector3f": "float3", "color3f": "float3", "texCoord3f": "float3",
        "point3d": "double3", "normal3d": "double3", "vector3d": "double3", "color3d": "double3", "texCoord3d": "double3",
        "point3h": "half3", "normal3h": "half3", "vector3h": "half3", "color3h": "half3", "texCoord3h": "half3",
        "color4f": "float4", "color4d": "double4", "color4h": "half4",
        "texCoord2f": "float2", "texCoord2d": "double2", "texCoord2h": "half2", "frame4d": "matrix4d",
    ]

    static let typesByName: [String: CrateType] = {
        var map: [String: CrateType] = [:]
        for raw in UInt8(1)...UInt8(60) {
            if let type = CrateType(rawValue: raw), let name = type.usdaName { map[name] = type }
        }
        return map
    }()

    /// The crate type of a usda type name such as `point3f[]`, and whether it is an array.
    static func crateType(forTypeName typeName: String) -> (type: CrateType, isArray: Bool)? {
        let isArray = typeName.hasSuffix("[]")
        let base = isArray ? String(typeName.dropLast(2)) : typeName
        guard let type = typesByName[roleTypes[base] ?? base] else { return nil }
        return (type, isArray)
    }

    mutating func pack(_ value: USDValue, typeName: String) throws(AssetError) -> ValueRep {
        if case .none = value { return ValueRep(type: .valueBlock, inlined: true, payload: 0) }
        guard let (type, isArray) = Self.crateType(forTypeName: typeName) else {
            throw AssetError(.unsupportedFeature("usdc writer: values of type '\(typeName)'"))
        }
        if type == .timeCode, version < Version(0, 9, 0) { version = Version(0, 9, 0) }
        if type == .pathExpression, version < Version(0, 10, 0) { version = Version(0, 10, 0) }
        return isArray ? try packArray(value, type: type, typeName: typeName) : try packScalar(value, type: type, typeName: typeName)
    }

    func mismatch(_ value: USDValue, _ typeName: String) -> AssetError {
        AssetError(.malformed("usdc writer: a \(typeName) value cannot be \(value)"))
    }

    mutating func packScalar(_ value: USDValue, type: CrateType, typeName: String) throws(AssetError) -> ValueRep {
        switch type {
        case .string:
            guard let s = value.stringValue else { throw mismatch(value, typeName) }
            return ValueRep(type: type, inlined: true, payload: UInt64(string(s)))
        case .pathExpression:
            // Not an always-inlined type in OpenUSD: its string index is stored at an offset.
            guard let s = value.stringValue else { throw mismatch(value, typeName) }
            let index = string(s)
            align(8)
            let offset = position
            u32(index)
            return ValueRep(type: type, payload: offset)
        case .token, .assetPath:
            guard let s = value.stringValue else { throw mismatch(value, typeName) }
            return ValueRep(type: type, inlined: true, payload: UInt64(token(s)))
        case .dictionary:
            return try packDictionary(value)
        default:
            break
        }
        guard let (scalar, components) = type.numericLayout else { throw mismatch(value, typeName) }
        if scalar == .bool {
            guard let b = value.boolValue else { throw mismatch(value, typeName) }
            return ValueRep(type: .bool, inlined: true, payload: b ? 1 : 0)
        }
        guard var numbers = value.flatNumbers, numbers.count == components else { throw mismatch(value, typeName) }
        if components == 1, type != .timeCode {
            let x = numbers[0]
            switch scalar {
            case .uint8: return ValueRep(type: type, inlined: true, payload: UInt64(UInt8(clamping: Int(x))))
            case .int32: return ValueRep(type: type, inlined: true, payload: UInt64(UInt32(bitPattern: Int32(clamping: Int64(x)))))
            case .uint32: return ValueRep(type: type, inlined: true, payload: UInt64(UInt32(clamping: Int64(x))))
            case .half: return ValueRep(type: type, inlined: true, payload: UInt64(Float16(x).bitPattern))
            case .float: return ValueRep(type: type, inlined: true, payload: UInt64(Float(x).bitPattern))
            case .double where Double(Float(x)) == x || x.isNaN:
                return ValueRep(type: type, inlined: true, payload: UInt64(Float(x).bitPattern))
            case .int64 where Int32(exactly: x) != nil:
                return ValueRep(type: type, inlined: true, payload: UInt64(UInt32(bitPattern: Int32(x))))
            case .uint64 where UInt32(exactly: x) != nil:
                return ValueRep(type: type, inlined: true, payload: UInt64(UInt32(x)))
            default: break
            }
        }
        if type.isQuaternion { numbers = [numbers[1], numbers[2], numbers[3], numbers[0]] }
        if type.isMatrix {
            // Diagonal with small whole entries: inlined as the diagonal.
            let n = components == 16 ? 4 : components == 9 ? 3 : 2
            var diagonal: UInt64 = 0
            var inline = true
            for r in 0..<n {
                for c in 0..<n {
                    let v = numbers[r * n + c]
                    if r == c {
                        guard let small = Self.smallWhole(v) else { inline = false; break }
                        diagonal |= UInt64(UInt8(bitPattern: small)) << (8 * UInt64(r))
                    } else if v != 0 { inline = false; break }
                }
                if !inline { break }
            }
            if inline { return ValueRep(type: type, inlined: true, payload: diagonal) }
        } else if !type.isQuaternion, components > 1 {
            // Vectors whose components are all small whole numbers inline one byte each.
            var packed: UInt64 = 0
            var inline = true
            for (i, v) in numbers.enumerated() {
                guard let small = Self.smallWhole(v) else { inline = false; break }
                packed |= UInt64(UInt8(bitPattern: small)) << (8 * UInt64(i))
            }
            if inline { return ValueRep(type: type, inlined: true, payload: packed) }
        }
        align(8)
        let offset = position
        writeNumbers(numbers, scalar: scalar)
        return ValueRep(type: type, payload: offset)
    }

    mutating func writeNumbers(_ numbers: [Double], scalar: CrateScalar) {
        switch scalar {
        case .bool, .uint8: for v in numbers { u8(UInt8(clamping: Int(v))) }
        case .half: for v in numbers { withUnsafeBytes(of: Float16(v).bitPattern.littleEndian) { bytes(Array($0)) } }
        case .int32: for v in numbers { i32(Int32(clamping: Int64(v))) }
        case .uint32: for v in numbers { u32(UInt32(clamping: Int64(v))) }
        case .float: for v in numbers { u32(Float(v).bitPattern) }
        case .int64: for v in numbers { i64(Int64(v)) }
        case .uint64: for v in numbers { u64(UInt64(max(v, 0))) }
        case .double: for v in numbers { f64(v) }
        }
    }

    mutating func packArray(_ value: USDValue, type: CrateType, typeName: String) throws(AssetError) -> ValueRep {
        switch type {
        case .string, .token, .assetPath, .pathExpression:
            guard let items = value.strings else { throw mismatch(value, typeName) }
            if items.isEmpty { return ValueRep(type: type, array: true, payload: 0) }
            let indexes = items.map { type == .token ? token($0) : string($0) }
            align(8)
            let offset = position
            u64(UInt64(indexes.count))
            for i in indexes { u32(i) }
            return ValueRep(type: type, array: true, payload: offset)
        default:
            break
        }
        guard let (scalar, components) = type.numericLayout else { throw mismatch(value, typeName) }
        if type == .int, let conversion = value.int32Array {
            switch conversion {
            case .success(let ints): return packInts(ints, type: type)
            case .failure(let failure): throw AssetError(.malformed("usdc writer: \(typeName) holds \(failure)"))
            }
        }
        if case .floats(.scalars(let flat)) = value, components > 1, !type.isQuaternion, scalar == .float || scalar == .half,
           flat.count % components == 0 {
            // Vectors handed over flat (splat attributes, millions of them): written straight from
            // the floats, without the Double copy `flatNumbers` would make.
            guard !flat.isEmpty else { return ValueRep(type: type, array: true, payload: 0) }
            align(8)
            let offset = position
            u64(UInt64(flat.count / components))
            if scalar == .float {
                bytes(flat.withUnsafeBytes { Array($0) })  // little-endian hosts: the bytes are the file's
            } else {
                let halves = flat.map { Float16($0).bitPattern.littleEndian }
                bytes(halves.withUnsafeBytes { Array($0) })
            }
            return ValueRep(type: type, array: true, payload: offset)
        }
        var numbers: [Double]
        if case .list(let items) = value, scalar == .bool {
            numbers = []
            for item in items {
                guard let b = item.boolValue else { throw mismatch(value, typeName) }
                numbers.append(b ? 1 : 0)
            }
        } else {
            guard let flat = value.flatNumbers, flat.count % components == 0 else { throw mismatch(value, typeName) }
            numbers = flat
        }
        let count = numbers.count / components
        if count == 0 { return ValueRep(type: type, array: true, payload: 0) }
        if type.isQuaternion {
            for q in 0..<count {
                let b = q * 4
                (numbers[b], numbers[b + 1], numbers[b + 2], numbers[b + 3]) = (numbers[b + 1], numbers[b + 2], numbers[b + 3], numbers[b])
            }
        }
        if components == 1, [.int32, .uint32, .int64, .uint64].contains(scalar), count >= CrateFormat.minCompressedArraySize {
            let offset = position
            u64(UInt64(count))
            let coded = scalar == .int64 || scalar == .uint64
                ? CrateIntegerCoding.encode64(numbers.map { scalar == .int64 ? Int64($0) : Int64(bitPattern: UInt64(max($0, 0))) })
                : CrateIntegerCoding.encode32(numbers.map { scalar == .int32 ? Int32(clamping: Int64($0)) : Int32(bitPattern: UInt32(clamping: Int64($0))) })
            u64(UInt64(coded.count)); bytes(coded)
            return ValueRep(type: type, array: true, compressed: true, payload: offset)
        }
        if components == 1, [.half, .float, .double].contains(scalar), count >= CrateFormat.minCompressedArraySize,
           numbers.allSatisfy({ Int32(exactly: $0) != nil && !($0 == 0 && $0.sign == .minus) }) {
            // Whole numbers (indices stored as floats, flat colour channels) compress as integers.
            let offset = position
            u64(UInt64(count))
            u8(UInt8(ascii: "i"))
            let coded = CrateIntegerCoding.encode32(numbers.map { Int32($0) })
            u64(UInt64(coded.count)); bytes(coded)
            return ValueRep(type: type, array: true, compressed: true, payload: offset)
        }
        align(8)
        let offset = position
        u64(UInt64(count))
        writeNumbers(numbers, scalar: scalar)
        return ValueRep(type: type, array: true, payload: offset)
    }

    mutating func packInts(_ ints: [Int32], type: CrateType) -> ValueRep {
        if ints.isEmpty { return ValueRep(type: type, array: true, payload: 0) }
        if ints.count < CrateFormat.minCompressedArraySize {
            align(8)
            let offset = position
            u64(UInt64(ints.count))
            for v in ints { i32(v) }
            return ValueRep(type: type, array: true, payload: offset)
        }
        let offset = position
        u64(UInt64(ints.count))
        codedInts(ints)
        return ValueRep(type: type, array: true, compressed: true, payload: offset)
    }

    /// `[u64 count]` then per entry `[u32 key][i64 jump][nested data][rep]`.
    mutating func packDictionary(_ value: USDValue) throws(AssetError) -> ValueRep {
        guard case .dictionary(let entries) = value else { throw mismatch(value, "dictionary") }
        if entries.isEmpty { return ValueRep(type: .dictionary, inlined: true, payload: 0) }
        // Nested values are packed first so the dictionary's own body is contiguous.
        var packed: [(UInt32, ValueRep)] = []
        for entry in entries {
            let typeName = entry.typeName.isEmpty ? Self.inferredTypeName(entry.value) : entry.typeName
            packed.append((string(entry.key), try pack(entry.value, typeName: typeName)))
        }
        align(8)
        let offset = position
        u64(UInt64(packed.count))
        for (key, rep) in packed {
            u32(key)
            i64(8)  // the rep follows the jump directly
            u64(rep.bits)
        }
        return ValueRep(type: .dictionary, payload: offset)
    }

    static func inferredTypeName(_ value: USDValue) -> String {
        switch value {
        case .bool: "bool"
        case .number: "double"
        case .asset: "asset"
        case .dictionary: "dictionary"
        case .list: "string[]"
        default: "string"
        }
    }
}

extension CrateFileBuilder {
    /// A whole number from -128 to 127 the crate can inline as a byte; nil for others and for -0,
    /// whose sign a byte would lose (Blender writes rotations of -0, and readers print them).
    static func smallWhole(_ v: Double) -> Int8? {
        v == 0 && v.sign == .minus ? nil : Int8(exactly: v)
    }
}

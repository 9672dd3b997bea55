import AssetCore

extension CrateValueReader {
    /// An array value: plain, integer-coded, or (floating point) coded as integers or as a lookup
    /// table and indexes.
    /// The array and the work one use of it stands for: its element count.
    mutating func array(_ rep: ValueRep, type: CrateType) throws(AssetError) -> (USDValue, Int) {
        let value = try decodeArray(rep, type: type)
        switch value {
        case .numbers(let numbers, _): return (value, numbers.count)
        case .integers(let integers): return (value, integers.count)
        case .floats(let floats): return (value, floats.count * floats.components)
        case .list(let items): return (value, items.count)
        default: return (value, 1)
        }
    }

    private mutating func decodeArray(_ rep: ValueRep, type: CrateType) throws(AssetError) -> USDValue {
        if rep.payload == 0 { return Self.emptyArray(type) }
        var r = try reader(at: rep)
        if version < Version(0, 5, 0) {
            // A rank, always 1, before 0.5.0: anything else is a newer file's 64-bit count read
            // by the older layout, which would give an empty array without a word.
            let rankAt = r.position
            let rank = try r.u32()
            guard rank == 1 else {
                throw malformed("an array of rank \(rank) where crate \(version) writes 1: the header's version does not match the data", at: UInt64(rankAt))
            }
        }
        let countStart = r.position
        let count = version < Version(0, 7, 0) ? UInt64(try r.u32()) : try r.u64()
        guard count <= UInt64(limits.maxArrayElements) else {
            throw AssetError(.limitExceeded("usdc array of \(count) elements (the limit is \(limits.maxArrayElements))"),
                             at: SourceLocation(file: file.file, elementPath: "byte offset \(countStart)"))
        }
        let n = Int(count)
        switch type {
        case .string, .token, .assetPath, .pathExpression:
            try r.require(count, of: 4, "string array")
            try spend(n, at: rep.payload)
            try budget.spend(bytes: n * MemoryLayout<USDValue>.stride, for: "a usdc array of \(n) strings",
                             at: SourceLocation(file: file.file, elementPath: "byte offset \(rep.payload)"))
            var items: [USDValue] = []
            items.reserveCapacity(n)
            for _ in 0..<n {
                let index = try r.u32()
                switch type {
                // Arrays hold tokens by token index but asset paths, like strings, by string
                // index (a lone asset path is inlined as a token index).
                case .token: items.append(.string(try token(index)))
                case .assetPath: items.append(.asset(try string(index)))
                default: items.append(.string(try string(index)))
                }
            }
            return .list(items)
        default:
            break
        }
        guard let (scalar, components) = type.numericLayout else {
            throw malformed("arrays of \(type) are not a crate value", at: rep.payload)
        }
        let total = count.multipliedReportingOverflow(by: UInt64(components))
        guard !total.overflow, total.partialValue <= UInt64(limits.maxArrayElements) else {
            throw AssetError(.limitExceeded("usdc array of \(count) × \(components) numbers"), at: SourceLocation(file: file.file))
        }
        try spend(Int(total.partialValue), at: rep.payload)
        try budget.spend(bytes: Int(total.partialValue) * MemoryLayout<Double>.stride, for: "a usdc array of \(count) values",
                         at: SourceLocation(file: file.file, elementPath: "byte offset \(rep.payload)"))
        let compressed = rep.isCompressed && components == 1 && n >= CrateFormat.minCompressedArraySize
        let isInteger = [.int32, .uint32, .int64, .uint64].contains(scalar), isFloat = [.half, .float, .double].contains(scalar)
        if compressed, isInteger || isFloat, version < (isInteger ? CrateFormat.compressedIntegers : CrateFormat.compressedFloats) {
            throw malformed("the header says crate version \(version), but a compressed \(isInteger ? "integer" : "floating-point") array needs \(isInteger ? CrateFormat.compressedIntegers : CrateFormat.compressedFloats)", at: rep.payload)
        }
        if compressed, isInteger {
            let start = r.position
            let size = try r.u64()
            let data = try r.slice(size, "compressed integer array")
            guard count <= CrateIntegerCoding.maxCount(compressedBytes: data.count) else {
                throw malformed("integer array claims \(count) values in \(size) compressed bytes", at: UInt64(start))
            }
            if scalar == .int32 || scalar == .uint32 {
                guard let ints = CrateIntegerCoding.decode32(data, count: n) else { throw malformed("integer array data is corrupt", at: UInt64(start)) }
                if type == .int { return .integers(ints) }
                return .numbers(ints.map { Double(UInt32(bitPattern: $0)) }, components: 1)
            }
            guard let ints = CrateIntegerCoding.decode64(data, count: n) else { throw malformed("integer array data is corrupt", at: UInt64(start)) }
            return .numbers(scalar == .int64 ? ints.map { Double($0) } : ints.map { Double(UInt64(bitPattern: $0)) }, components: 1)
        }
        if compressed, isFloat {
            return .numbers(try codedFloats(&r, count: n, scalar: scalar), components: 1)
        }
        try r.require(count, of: scalar.size * components, "\(type.usdaName ?? "numeric") array")
        if type == .int {
            let ints = [Int32](unsafeUninitializedCapacity: n) { out, initialized in
                for i in 0..<n { out[i] = Int32(littleEndian: r.bytes.loadUnaligned(fromByteOffset: r.position + 4 * i, as: Int32.self)) }
                initialized = n
            }
            return .integers(ints)
        }
        if scalar == .float, let name = type.usdaName, let shape = USDFloatArray(emptyOf: name + "[]") {
            // Single precision stays Float, in the layout the mesh keeps: no Double copy, and the
            // scene takes it without converting.
            return .floats(Self.loadFloats(r.bytes, at: r.position, count: n, like: shape))
        }
        var numbers = Self.loadNumbers(r.bytes, at: r.position, scalar: scalar, count: n * components)
        if type == .bool { return .list(numbers.map { .bool($0 != 0) }) }
        if type.isQuaternion {
            // Crate stores quaternions imaginary part first; usda and USDValue put the real part first.
            for q in 0..<n {
                let b = q * 4
                (numbers[b], numbers[b + 1], numbers[b + 2], numbers[b + 3]) = (numbers[b + 3], numbers[b], numbers[b + 1], numbers[b + 2])
            }
        }
        return .numbers(numbers, components: components)
    }

    /// `count` little-endian Float elements of `shape`'s size at `offset`, in `shape`'s layout,
    /// filled on every core when big (`USDArrayConversion.filled`).
    static func loadFloats(_ bytes: UnsafeRawBufferPointer, at offset: Int, count: Int, like shape: USDFloatArray) -> USDFloatArray {
        nonisolated(unsafe) let bytes = bytes
        @Sendable func float(_ k: Int) -> Float {
            Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4 * k, as: UInt32.self)))
        }
        switch shape {
        case .scalars:
            return .scalars(USDArrayConversion.filled(count) { range, out in for i in range { out[i] = float(i) } })
        case .pairs:
            return .pairs(USDArrayConversion.filled(count) { range, out in for i in range { out[i] = SIMD2(float(2 * i), float(2 * i + 1)) } })
        case .triples:
            return .triples(USDArrayConversion.filled(count) { range, out in
                for i in range { out[i] = SIMD3(float(3 * i), float(3 * i + 1), float(3 * i + 2)) }
            })
        }
    }

    static func emptyArray(_ type: CrateType) -> USDValue {
        switch type {
        case .int: return .integers([])
        case .string, .token, .assetPath, .bool, .pathExpression: return .list([])
        default: return .numbers([], components: type.numericLayout?.components ?? 1)
        }
    }

    /// Floating point arrays written as `'i'` + integer-coded whole numbers, or `'t'` + a lookup
    /// table + integer-coded indexes into it.
    func codedFloats(_ r: inout CrateByteReader, count: Int, scalar: CrateScalar) throws(AssetError) -> [Double] {
        let start = r.position
        let code = try r.u8()
        switch code {
        case UInt8(ascii: "i"):
            let size = try r.u64()
            let data = try r.slice(size, "compressed float array")
            guard UInt64(count) <= CrateIntegerCoding.maxCount(compressedBytes: data.count),
                  let ints = CrateIntegerCoding.decode32(data, count: count) else {
                throw malformed("float array coded as integers is corrupt", at: UInt64(start))
            }
            return ints.map { Double($0) }
        case UInt8(ascii: "t"):
            let tableSize = try r.u32()
            try r.require(UInt64(tableSize), of: scalar.size, "float lookup table")
            let table = Self.loadNumbers(r.bytes, at: r.position, scalar: scalar, count: Int(tableSize))
            r.position += Int(tableSize) * scalar.size
            let size = try r.u64()
            let data = try r.slice(size, "float lookup indexes")
            guard UInt64(count) <= CrateIntegerCoding.maxCount(compressedBytes: data.count),
                  let indexes = CrateIntegerCoding.decode32(data, count: count) else {
                throw malformed("float lookup indexes are corrupt", at: UInt64(start))
            }
            var out = [Double](repeating: 0, count: count)
            for (i, index) in indexes.enumerated() {
                let slot = Int(UInt32(bitPattern: index))
                guard slot < table.count else { throw malformed("float lookup index \(slot) of \(table.count)", at: UInt64(start)) }
                out[i] = table[slot]
            }
            return out
        default:
            throw malformed("compressed float array has unknown code \(code)", at: UInt64(start))
        }
    }
}

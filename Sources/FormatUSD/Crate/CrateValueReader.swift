import AssetCore

/// Turns value representations into the `USDValue`s the usda parser produces for the same text,
/// so composition and scene building never know which format a layer came from. Arrays and
/// dictionaries are decoded once per representation (crate files share identical values between
/// attributes, and a crafted file can share one a million times) and held once: `USDValue`'s
/// arrays are copy-on-write. The read's budget is charged bytes once per decoded value but work
/// once per use, so sharing saves memory without hiding how much a value multiplies.
struct CrateValueReader {
    let file: CrateByteReader
    let structure: CrateStructure
    let budget: ReadBudget
    var limits: ReadLimits { budget.limits }
    /// Each shared value with the work one use of it stands for.
    var cache: [ValueRep: (value: USDValue, work: Int)] = [:]
    /// Arrays decoded ahead (`prefetchLargeArrays`) and not used yet, with what decoding them
    /// charged: their first use charges exactly that, as decoding them then would have.
    var prefetchedCharges: [ValueRep: (bytes: Int, work: Int)] = [:]

    static let maxNesting = 64

    init(file: CrateByteReader, structure: CrateStructure, budget: ReadBudget) {
        self.file = file
        self.structure = structure
        self.budget = budget
    }

    var version: Version { structure.version }

    /// Refuses a value the header's version predates (`CrateFormat.introduced`).
    func requireVersion(for type: CrateType, at offset: UInt64) throws(AssetError) {
        if let needed = CrateFormat.introduced[type], version < needed {
            throw malformed("the header says crate version \(version), but a \(type.usdaName ?? "\(type)") value needs \(needed)", at: offset)
        }
    }

    func malformed(_ why: String, at offset: UInt64? = nil) -> AssetError {
        file.malformed(why, at: offset.map { Int(clamping: $0) })
    }

    func spend(_ elements: Int, at offset: UInt64? = nil) throws(AssetError) {
        try budget.spend(work: max(elements, 1), for: "decoding usdc values",
                         at: SourceLocation(file: file.file, elementPath: offset.map { "byte offset \($0)" }))
    }

    /// A value decoded once and then shared, charged `work` for this use and each later one.
    mutating func shared(_ rep: ValueRep, decode: (inout CrateValueReader) throws(AssetError) -> (USDValue, Int)) throws(AssetError) -> USDValue {
        if let cached = cache[rep] {
            if let first = prefetchedCharges.removeValue(forKey: rep) {
                let here = SourceLocation(file: file.file, elementPath: "byte offset \(rep.payload)")
                try budget.spend(work: first.work, for: "decoding usdc values", at: here)
                try budget.spend(bytes: first.bytes, for: "a usdc array", at: here)
            } else {
                try spend(cached.work, at: rep.payload)
            }
            return cached.value
        }
        let (value, work) = try decode(&self)
        cache[rep] = (value, work)
        return value
    }

    /// A reader positioned at a value's payload offset.
    func reader(at rep: ValueRep) throws(AssetError) -> CrateByteReader {
        var r = file
        try r.seek(rep.payload)
        return r
    }

    func token(_ index: UInt32) throws(AssetError) -> String {
        guard Int(index) < structure.tokens.count else { throw malformed("token index \(index) of \(structure.tokens.count)") }
        return structure.tokens[Int(index)]
    }

    func string(_ index: UInt32) throws(AssetError) -> String {
        guard Int(index) < structure.strings.count else { throw malformed("string index \(index) of \(structure.strings.count)") }
        return structure.strings[Int(index)]
    }

    func path(_ index: UInt32) throws(AssetError) -> String {
        guard Int(index) < structure.paths.count else { throw malformed("path index \(index) of \(structure.paths.count)") }
        return structure.pathString(Int(index))
    }

    // MARK: Values

    mutating func value(_ rep: ValueRep, nesting: Int = 0) throws(AssetError) -> USDValue {
        guard nesting <= Self.maxNesting else {
            throw AssetError(.limitExceeded("usdc values nested deeper than \(Self.maxNesting) levels"), at: SourceLocation(file: file.file))
        }
        guard let type = rep.type else { throw malformed("unknown value type \(rep.typeNumber)") }
        try requireVersion(for: type, at: rep.payload)
        if rep.isArrayEdit { throw AssetError(.unsupportedFeature("usdc array edits (crate 0.14)"), at: SourceLocation(file: file.file)) }
        if rep.isArray {
            return try shared(rep) { (reader) throws(AssetError) in try reader.array(rep, type: type) }
        }
        try spend(1)
        switch type {
        case .string: return .string(try string(rep.inlineBits))
        case .token: return .string(try token(rep.inlineBits))
        case .assetPath: return .asset(try token(rep.inlineBits))
        case .specifier, .permission, .variability: return .number(Double(rep.inlineBits))
        case .valueBlock: return .none
        case .dictionary:
            if rep.isInlined { return .dictionary([]) }
            return try shared(rep) { (reader) throws(AssetError) in try reader.dictionary(rep, nesting: nesting) }
        case .tokenVector: return .list(try tokenVector(rep).map { .string($0) })
        case .stringVector:
            var r = try reader(at: rep)
            let n = try r.count(of: "string vector", elementSize: 4)
            try spend(n)
            return .list(try (0..<n).map { (_) throws(AssetError) in .string(try string(try r.u32())) })
        case .pathVector: return .list(try pathVector(rep).map { .path($0) })
        case .doubleVector:
            var r = try reader(at: rep)
            let n = try r.count(of: "double vector", elementSize: 8)
            try spend(n)
            return .numbers(try (0..<n).map { (_) throws(AssetError) in try r.f64() }, components: 1)
        case .tokenListOp: return .list(try listOp(rep) { (r: inout CrateByteReader) throws(AssetError) in .string(try token(try r.u32())) })
        case .stringListOp: return .list(try listOp(rep) { (r: inout CrateByteReader) throws(AssetError) in .string(try string(try r.u32())) })
        case .pathListOp: return .list(try listOp(rep) { (r: inout CrateByteReader) throws(AssetError) in .path(try path(try r.u32())) })
        case .intListOp: return .list(try listOp(rep) { (r: inout CrateByteReader) throws(AssetError) in .number(Double(try r.i32())) })
        case .uintListOp: return .list(try listOp(rep) { (r: inout CrateByteReader) throws(AssetError) in .number(Double(try r.u32())) })
        case .int64ListOp: return .list(try listOp(rep) { (r: inout CrateByteReader) throws(AssetError) in .number(Double(try r.i64())) })
        case .uint64ListOp: return .list(try listOp(rep) { (r: inout CrateByteReader) throws(AssetError) in .number(Double(try r.u64())) })
        case .variantSelectionMap:
            return .dictionary(try variantSelections(rep).sorted { $0.key < $1.key }.map {
                USDDictionaryEntry(typeName: "string", key: $0.key, value: .string($0.value))
            })
        case .value, .unregisteredValue:
            var r = try reader(at: rep)
            return try nestedValue(&r, nesting: nesting + 1)
        case .timeCode:
            var r = try reader(at: rep)
            return .number(try r.f64())
        case .pathExpression:
            // Stored, not inlined: a string index at the payload offset.
            var r = try reader(at: rep)
            return .string(try string(try r.u32()))
        case .referenceListOp, .payloadListOp, .payload, .timeSamples, .layerOffsetVector, .unregisteredValueListOp,
             .relocates, .spline, .animationBlock, .invalid:
            // Composition arcs and samples are read by their own functions; the rest is not
            // evaluated by assetc and reads as no value.
            return .none
        default:
            return try scalar(rep, type: type)
        }
    }

    /// A plain-old-data scalar, vector, matrix or quaternion, inlined or stored.
    mutating func scalar(_ rep: ValueRep, type: CrateType) throws(AssetError) -> USDValue {
        guard let (scalar, components) = type.numericLayout else { return .none }
        var numbers: [Double]
        if rep.isInlined {
            let bits = rep.inlineBits
            if type.isMatrix {
                // Diagonal matrices with small whole entries are inlined as their diagonal.
                let n = components == 16 ? 4 : components == 9 ? 3 : 2
                numbers = [Double](repeating: 0, count: components)
                for i in 0..<n { numbers[i * n + i] = Double(Int8(truncatingIfNeeded: bits >> (8 * UInt32(i)))) }
            } else if components > 1 {
                // Vectors with small whole components are inlined as one signed byte each.
                numbers = (0..<components).map { Double(Int8(truncatingIfNeeded: bits >> (8 * UInt32($0)))) }
            } else {
                switch scalar {
                case .bool: return .bool(bits & 0xFF != 0)
                case .uint8: numbers = [Double(bits & 0xFF)]
                case .int32, .int64: numbers = [Double(Int32(bitPattern: bits))]
                case .uint32, .uint64: numbers = [Double(bits)]
                case .half: numbers = [Double(Float16(bitPattern: UInt16(truncatingIfNeeded: bits)))]
                case .float, .double: numbers = [Double(Float(bitPattern: bits))]
                }
            }
        } else {
            let r = try reader(at: rep)
            try r.require(UInt64(components), of: scalar.size, "\(type.usdaName ?? "value")")
            numbers = Self.loadNumbers(r.bytes, at: r.position, scalar: scalar, count: components)
            if scalar == .bool { return .bool(numbers[0] != 0) }
        }
        if type.isQuaternion { numbers = [numbers[3], numbers[0], numbers[1], numbers[2]] }
        return components == 1 ? .number(numbers[0]) : .tuple(numbers)
    }

    /// Reads `count` little-endian scalars starting at `offset` into Doubles (bounds checked by the caller).
    static func loadNumbers(_ bytes: UnsafeRawBufferPointer, at offset: Int, scalar: CrateScalar, count: Int) -> [Double] {
        [Double](unsafeUninitializedCapacity: count) { out, initialized in
            HugePages.advise(UnsafeMutableRawPointer(out.baseAddress), byteCount: count * MemoryLayout<Double>.stride)
            switch scalar {
            case .bool, .uint8: for i in 0..<count { out[i] = Double(bytes[offset + i]) }
            case .half: for i in 0..<count { out[i] = Double(Float16(bitPattern: UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 2 * i, as: UInt16.self)))) }
            case .int32: for i in 0..<count { out[i] = Double(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4 * i, as: Int32.self))) }
            case .uint32: for i in 0..<count { out[i] = Double(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4 * i, as: UInt32.self))) }
            case .float: for i in 0..<count { out[i] = Double(Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4 * i, as: UInt32.self)))) }
            case .int64: for i in 0..<count { out[i] = Double(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8 * i, as: Int64.self))) }
            case .uint64: for i in 0..<count { out[i] = Double(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8 * i, as: UInt64.self))) }
            case .double: for i in 0..<count { out[i] = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8 * i, as: UInt64.self))) }
            }
            initialized = count
        }
    }

    /// `[i64 offset to the rep][nested data][rep]`, the encoding of values inside dictionaries
    /// and other values; leaves `r` after the rep.
    func nestedRep(_ r: inout CrateByteReader) throws(AssetError) -> ValueRep {
        let start = r.position
        let offset = try r.i64()
        let target = Int64(start).addingReportingOverflow(offset)
        guard !target.overflow, target.partialValue >= 0 else { throw malformed("nested value offset \(offset) leaves the file", at: UInt64(start)) }
        try r.seek(UInt64(target.partialValue))
        return ValueRep(bits: try r.u64())
    }

    mutating func nestedValue(_ r: inout CrateByteReader, nesting: Int) throws(AssetError) -> USDValue {
        try value(try nestedRep(&r), nesting: nesting)
    }

    /// A dictionary and the work one use of it stands for: its entries and all their values'.
    mutating func dictionary(_ rep: ValueRep, nesting: Int) throws(AssetError) -> (USDValue, Int) {
        var r = try reader(at: rep)
        let n = try r.count(of: "dictionary", elementSize: 12)
        try spend(n, at: rep.payload)
        let before = budget.workSpent
        var entries: [USDDictionaryEntry] = []
        entries.reserveCapacity(n)
        for _ in 0..<n {
            let key = try string(try r.u32())
            let valueRep = try nestedRep(&r)
            var typeName = valueRep.type?.usdaName ?? ""
            if valueRep.isArray, !typeName.isEmpty { typeName += "[]" }
            entries.append(USDDictionaryEntry(typeName: typeName, key: key, value: try value(valueRep, nesting: nesting + 1)))
        }
        return (.dictionary(entries), n + budget.workSpent - before)
    }
}

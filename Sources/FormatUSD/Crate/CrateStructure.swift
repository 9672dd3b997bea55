import AssetCore

/// One entry of the path table: its parent and the element appended to it.
struct CratePathNode {
    enum Kind: UInt8 { case empty, root, prim, property, variantSelection, other }
    var kind: Kind = .empty
    var parent: Int32 = -1
    var depth: Int32 = 0
    /// Prim or property name; for a variant selection `{set=variant}`, the set and `variant`.
    var name: String = ""
    var variant: String = ""
}

struct CrateSpec {
    var path: Int
    var fieldSet: Int
    var type: CrateSpecType
}

/// The structural sections of a crate file (`TOKENS`, `STRINGS`, `FIELDS`, `FIELDSETS`, `PATHS`,
/// `SPECS`) decoded and range-checked: every index they hold points inside its table.
struct CrateStructure {
    var version = Version(0, 0, 0)
    var tokens: [String] = []
    var strings: [String] = []
    var fieldNames: [Int] = []
    var fieldValues: [ValueRep] = []
    /// Field indexes, each run ending with a terminator (-1).
    var fieldSets: [Int32] = []
    var paths: [CratePathNode] = []
    var specs: [CrateSpec] = []

    static let maxPathDepthSlack = 8

    static func read(_ reader: inout CrateByteReader, budget: ReadBudget) throws(AssetError) -> CrateStructure {
        var structure = CrateStructure()
        guard reader.count >= CrateFormat.bootstrapSize, reader.bytes.starts(with: CrateFormat.magic) else {
            throw reader.malformed("not a crate file: it must start with 'PXR-USDC' and an 88-byte header", at: 0)
        }
        let version = Version(reader.bytes[8], reader.bytes[9], reader.bytes[10])
        structure.version = version
        guard version >= CrateFormat.oldestReadable, version.major == 0, version.minor <= CrateFormat.newestReadable.minor else {
            throw AssetError(.unsupportedFeature("usdc crate version \(version); assetc reads \(CrateFormat.oldestReadable) to \(CrateFormat.newestReadable)"),
                             at: SourceLocation(file: reader.file, elementPath: "byte offset 8"))
        }
        reader.position = 16
        let tocOffset = try reader.u64()
        guard tocOffset >= UInt64(CrateFormat.bootstrapSize), tocOffset < UInt64(reader.count) else {
            throw reader.malformed("table of contents offset \(tocOffset) is not inside the \(reader.count)-byte file (truncated?)", at: 16)
        }
        try reader.seek(tocOffset)
        let sectionCount = try reader.count(of: "table of contents", elementSize: CrateFormat.sectionNameSize + 16)
        var sections: [String: (start: UInt64, size: UInt64)] = [:]
        for _ in 0..<sectionCount {
            let nameBytes = try reader.slice(UInt64(CrateFormat.sectionNameSize), "section name")
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            let start = try reader.u64(), size = try reader.u64()
            let (end, overflow) = start.addingReportingOverflow(size)
            guard !overflow, end <= UInt64(reader.count) else {
                throw reader.malformed("section \(name) (\(size) bytes at \(start)) runs past the end of the \(reader.count)-byte file")
            }
            sections[name] = (start, size)
        }
        func section(_ name: String) throws(AssetError) -> CrateByteReader {
            guard let range = sections[name] else { throw reader.malformed("the table of contents has no \(name) section", at: Int(tocOffset)) }
            // Reading a section sees only that section's bytes, so no count in it can reach beyond.
            let start = Int(range.start), end = start + Int(range.size)
            var sub = CrateByteReader(bytes: UnsafeRawBufferPointer(rebasing: reader.bytes[0..<end]), file: reader.file)
            sub.position = start
            return sub
        }
        var tokensReader = try section("TOKENS")
        try structure.readTokens(&tokensReader, budget: budget)
        var stringsReader = try section("STRINGS")
        try structure.readStrings(&stringsReader, budget: budget)
        var fieldsReader = try section("FIELDS")
        try structure.readFields(&fieldsReader, budget: budget)
        var fieldSetsReader = try section("FIELDSETS")
        try structure.readFieldSets(&fieldSetsReader, budget: budget)
        var pathsReader = try section("PATHS")
        try structure.readPaths(&pathsReader, budget: budget)
        var specsReader = try section("SPECS")
        try structure.readSpecs(&specsReader, budget: budget)
        return structure
    }

    /// Charges the memory a table of `count` entries of `stride` bytes will take, before any of it is set aside.
    static func reserve(_ count: Int, of stride: Int, for table: String, _ r: CrateByteReader, budget: ReadBudget) throws(AssetError) {
        let bytes = count.multipliedReportingOverflow(by: stride)
        try budget.spend(bytes: bytes.overflow ? Int.max : bytes.partialValue, for: "the \(table) table of \(count) entries",
                         at: SourceLocation(file: r.file, elementPath: table))
    }

    mutating func readTokens(_ r: inout CrateByteReader, budget: ReadBudget) throws(AssetError) {
        let start = r.position
        let count = try r.count(of: "TOKENS", elementSize: 0)
        let size = try r.u64()
        let compressedSize = try r.u64()
        let compressed = try r.slice(compressedSize, "TOKENS compressed data")
        guard size <= CrateCompression.maxDecompressedSize(ofCompressed: compressed.count), UInt64(count) <= size else {
            throw r.malformed("TOKENS claims \(count) tokens in \(size) bytes from \(compressedSize) compressed bytes", at: start)
        }
        try Self.reserve(count, of: MemoryLayout<String>.stride, for: "TOKENS", r, budget: budget)
        try Self.reserve(Int(size), of: 2, for: "TOKENS", r, budget: budget)
        guard let chars = CrateCompression.decompress(compressed, outputSize: Int(size)) else {
            throw r.malformed("TOKENS data does not decompress to the \(size) bytes it claims", at: start)
        }
        tokens.reserveCapacity(count)
        var offset = 0
        while tokens.count < count, offset < chars.count {
            var end = offset
            while end < chars.count, chars[end] != 0 { end += 1 }
            tokens.append(String(decoding: chars[offset..<end], as: UTF8.self))
            offset = end + 1
        }
        guard tokens.count == count else { throw r.malformed("TOKENS claims \(count) tokens but holds \(tokens.count)", at: start) }
    }

    mutating func readStrings(_ r: inout CrateByteReader, budget: ReadBudget) throws(AssetError) {
        let count = try r.count(of: "STRINGS", elementSize: 4)
        try Self.reserve(count, of: MemoryLayout<String>.stride, for: "STRINGS", r, budget: budget)
        strings.reserveCapacity(count)
        for _ in 0..<count {
            let index = try r.u32()
            guard index < tokens.count else { throw r.malformed("string refers to token \(index) of \(tokens.count)") }
            strings.append(tokens[Int(index)])
        }
    }

    /// A count followed by an integer-coded list of that many 32-bit values.
    static func readCodedInts(_ r: inout CrateByteReader, count: Int, budget: ReadBudget, _ what: String) throws(AssetError) -> [Int32] {
        let start = r.position
        let size = try r.u64()
        let compressed = try r.slice(size, "\(what) compressed data")
        guard UInt64(count) <= CrateIntegerCoding.maxCount(compressedBytes: compressed.count), count <= budget.limits.maxArrayElements else {
            throw r.malformed("\(what) claims \(count) values in \(size) compressed bytes", at: start)
        }
        // The values and the coded buffer they are decoded from (at most 5 bytes a value).
        try reserve(count, of: MemoryLayout<Int32>.stride + 5, for: what, r, budget: budget)
        guard let values = CrateIntegerCoding.decode32(compressed, count: count) else {
            throw r.malformed("\(what) integer data is corrupt", at: start)
        }
        return values
    }

    mutating func readFields(_ r: inout CrateByteReader, budget: ReadBudget) throws(AssetError) {
        let count = try r.count(of: "FIELDS", elementSize: 0)
        let names = try Self.readCodedInts(&r, count: count, budget: budget, "FIELDS names")
        fieldNames = try names.map { (index) throws(AssetError) -> Int in
            guard index >= 0, Int(index) < tokens.count else { throw r.malformed("field name refers to token \(index) of \(tokens.count)") }
            return Int(index)
        }
        let start = r.position
        let size = try r.u64()
        let compressed = try r.slice(size, "FIELDS values")
        try Self.reserve(count, of: 8 + MemoryLayout<ValueRep>.stride + MemoryLayout<Int>.stride, for: "FIELDS", r, budget: budget)
        guard UInt64(count) * 8 <= CrateCompression.maxDecompressedSize(ofCompressed: compressed.count),
              let reps = CrateCompression.decompress(compressed, outputSize: count * 8) else {
            throw r.malformed("FIELDS values do not decompress to \(count) value representations", at: start)
        }
        fieldValues = reps.withUnsafeBytes { raw in
            (0..<count).map { ValueRep(bits: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self))) }
        }
    }

    mutating func readFieldSets(_ r: inout CrateByteReader, budget: ReadBudget) throws(AssetError) {
        let count = try r.count(of: "FIELDSETS", elementSize: 0)
        fieldSets = try Self.readCodedInts(&r, count: count, budget: budget, "FIELDSETS")
        for index in fieldSets where index != -1 && (index < 0 || Int(index) >= fieldNames.count) {
            throw r.malformed("a field set refers to field \(UInt32(bitPattern: index)) of \(fieldNames.count)")
        }
        guard fieldSets.last ?? -1 == -1 else { throw r.malformed("FIELDSETS does not end with a terminator") }
    }

    mutating func readPaths(_ r: inout CrateByteReader, budget: ReadBudget) throws(AssetError) {
        let start = r.position
        let total = try r.u64()
        let encoded = try r.count(of: "PATHS", elementSize: 0)
        // Every path but the empty one is encoded, so the table can be one longer than the encoding.
        guard total <= UInt64(encoded) + 1, encoded <= budget.limits.maxArrayElements else {
            throw r.malformed("PATHS claims \(total) paths", at: start)
        }
        try Self.reserve(Int(total), of: MemoryLayout<CratePathNode>.stride, for: "PATHS", r, budget: budget)
        try Self.reserve(encoded, of: MemoryLayout<Bool>.stride, for: "PATHS", r, budget: budget)
        let pathIndexes = try Self.readCodedInts(&r, count: encoded, budget: budget, "PATHS indexes")
        let elementTokens = try Self.readCodedInts(&r, count: encoded, budget: budget, "PATHS element tokens")
        let jumps = try Self.readCodedInts(&r, count: encoded, budget: budget, "PATHS jumps")
        paths = Array(repeating: CratePathNode(), count: Int(total))
        let maxDepth = Int32(budget.limits.maxNodeDepth * 2 + Self.maxPathDepthSlack)

        // Depth-first: a node's first child follows it; a node with both a child and a sibling
        // gives the sibling's position as a forward jump. Siblings wait on an explicit stack so a
        // broad or deep tree cannot exhaust the call stack; positions only move forward and each
        // may be visited once, so a crafted jump table cannot loop.
        var visited = [Bool](repeating: false, count: encoded)
        var pending: [(position: Int, parent: Int32)] = encoded > 0 ? [(0, -1)] : []
        while let (first, firstParent) = pending.popLast() {
            var position = first
            var parent = firstParent
            while true {
                guard position < encoded, !visited[position] else {
                    throw r.malformed("PATHS jump table points at position \(position) of \(encoded) twice or out of range", at: start)
                }
                visited[position] = true
                let index = Int(pathIndexes[position])
                guard index >= 0, index < paths.count, paths[index].kind == .empty else {
                    throw r.malformed("PATHS entry \(position) names path \(pathIndexes[position]) of \(paths.count), or one already named", at: start)
                }
                if parent < 0 {
                    paths[index] = CratePathNode(kind: .root, parent: -1, depth: 0, name: "")
                } else {
                    let token = elementTokens[position]
                    let tokenIndex = Int(token.magnitude)
                    guard tokenIndex < tokens.count else {
                        throw r.malformed("PATHS entry \(position) names token \(tokenIndex) of \(tokens.count)", at: start)
                    }
                    let depth = paths[Int(parent)].depth + 1
                    guard depth <= maxDepth else {
                        throw AssetError(.limitExceeded("usdc paths nested deeper than \(maxDepth) elements"), at: SourceLocation(file: r.file, elementPath: "PATHS"))
                    }
                    paths[index] = Self.node(element: tokens[tokenIndex], isProperty: token < 0, parent: parent, depth: depth)
                }
                let jump = jumps[position]
                let hasChild = jump > 0 || jump == -1
                let hasSibling = jump >= 0
                if hasChild {
                    if hasSibling { pending.append((position + Int(jump), parent)) }
                    parent = Int32(index)
                }
                guard hasChild || hasSibling else { break }
                position += 1
            }
        }
    }

    static func node(element: String, isProperty: Bool, parent: Int32, depth: Int32) -> CratePathNode {
        if isProperty { return CratePathNode(kind: .property, parent: parent, depth: depth, name: element) }
        if element.hasPrefix("{"), element.hasSuffix("}"), let equals = element.firstIndex(of: "=") {
            let set = String(element[element.index(after: element.startIndex)..<equals])
            let variant = String(element[element.index(after: equals)..<element.index(before: element.endIndex)])
            return CratePathNode(kind: .variantSelection, parent: parent, depth: depth, name: set, variant: variant)
        }
        if element.hasPrefix("[") || element.hasPrefix(".") {
            return CratePathNode(kind: .other, parent: parent, depth: depth, name: element)
        }
        return CratePathNode(kind: .prim, parent: parent, depth: depth, name: element)
    }

    mutating func readSpecs(_ r: inout CrateByteReader, budget: ReadBudget) throws(AssetError) {
        let start = r.position
        let count = try r.count(of: "SPECS", elementSize: 0)
        // Each spec has a path of its own, so there cannot be more specs than paths.
        guard count <= paths.count else { throw r.malformed("SPECS claims \(count) specs for \(paths.count) paths", at: start) }
        try Self.reserve(count, of: MemoryLayout<CrateSpec>.stride, for: "SPECS", r, budget: budget)
        let pathIndexes = try Self.readCodedInts(&r, count: count, budget: budget, "SPECS paths")
        let fieldSetIndexes = try Self.readCodedInts(&r, count: count, budget: budget, "SPECS field sets")
        let types = try Self.readCodedInts(&r, count: count, budget: budget, "SPECS types")
        specs.reserveCapacity(count)
        for i in 0..<count {
            let path = Int(pathIndexes[i]), fieldSet = Int(fieldSetIndexes[i])
            guard path >= 0, path < paths.count, paths[path].kind != .empty else {
                throw r.malformed("spec \(i) names path \(pathIndexes[i]) of \(paths.count)")
            }
            guard fieldSet >= 0, fieldSet < fieldSets.count, fieldSet == 0 || fieldSets[fieldSet - 1] == -1 else {
                throw r.malformed("spec \(i) names field set \(fieldSetIndexes[i]), which does not start a run")
            }
            guard let type = CrateSpecType(rawValue: UInt32(bitPattern: types[i])) else {
                throw r.malformed("spec \(i) has unknown spec type \(types[i])")
            }
            specs.append(CrateSpec(path: path, fieldSet: fieldSet, type: type))
        }
    }

    /// The field indexes of a spec's field set.
    func fields(of spec: CrateSpec) -> ArraySlice<Int32> {
        var end = spec.fieldSet
        while end < fieldSets.count, fieldSets[end] != -1 { end += 1 }
        return fieldSets[spec.fieldSet..<end]
    }

    /// `/World/Mesh.points`, `/A{set=variant}B`; empty for the empty path.
    func pathString(_ index: Int) -> String {
        var parts: [CratePathNode] = []
        var i = index
        while i >= 0, i < paths.count {
            let node = paths[i]
            if node.kind == .root || node.kind == .empty { break }
            parts.append(node)
            i = Int(node.parent)
        }
        if parts.isEmpty { return paths.indices.contains(index) && paths[index].kind == .root ? "/" : "" }
        var text = ""
        var afterVariant = false
        for node in parts.reversed() {
            switch node.kind {
            case .prim:
                text += (afterVariant ? "" : "/") + node.name
                afterVariant = false
            case .property: text += "." + node.name
            case .variantSelection:
                text += "{\(node.name)=\(node.variant)}"
                afterVariant = true
            default: text += node.name
            }
        }
        return text
    }
}

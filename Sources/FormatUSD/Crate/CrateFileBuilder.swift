import AssetCore

/// Accumulates a crate file: the value data as it is packed, and the tables the structural
/// sections are written from (tokens, strings, paths, fields, field sets, specs), each
/// deduplicated as OpenUSD does so equal values and field sets are stored once.
struct CrateFileBuilder {
    /// The whole file so far; the bootstrap header is filled in last.
    private(set) var data = [UInt8](repeating: 0, count: CrateFormat.bootstrapSize)
    var version = CrateFormat.written

    private(set) var tokens: [String] = []
    private var tokenIndex: [String: UInt32] = [:]
    private(set) var strings: [UInt32] = []
    private var stringIndex: [String: UInt32] = [:]

    struct PathEntry { var parent: Int; var element: String; var isProperty: Bool }
    private(set) var paths: [PathEntry] = [PathEntry(parent: -1, element: "", isProperty: false)]
    private var pathIndex: [String: UInt32] = ["/": 0]
    private var emptyPath: UInt32?

    private var fields: [(name: UInt32, rep: ValueRep)] = []
    private var fieldIndex: [FieldKey: Int32] = [:]
    private var fieldSets: [Int32] = []
    private var fieldSetIndex: [[Int32]: Int32] = [:]
    private var specs: [(path: UInt32, fieldSet: Int32, type: CrateSpecType)] = []

    private struct FieldKey: Hashable { var name: UInt32; var rep: UInt64 }

    var position: UInt64 { UInt64(data.count) }

    // MARK: Raw data

    mutating func align(_ alignment: Int) { while data.count % alignment != 0 { data.append(0) } }
    mutating func u8(_ v: UInt8) { data.append(v) }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
    mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
    mutating func i64(_ v: Int64) { u64(UInt64(bitPattern: v)) }
    mutating func f64(_ v: Double) { u64(v.bitPattern) }
    mutating func bytes(_ b: [UInt8]) { data.append(contentsOf: b) }

    mutating func patchI64(at offset: Int, _ v: Int64) {
        withUnsafeBytes(of: v.littleEndian) { for (i, b) in $0.enumerated() { data[offset + i] = b } }
    }

    // MARK: Tables

    mutating func token(_ s: String) -> UInt32 {
        if let i = tokenIndex[s] { return i }
        let i = UInt32(tokens.count)
        tokens.append(s)
        tokenIndex[s] = i
        return i
    }

    mutating func string(_ s: String) -> UInt32 {
        if let i = stringIndex[s] { return i }
        let i = UInt32(strings.count)
        strings.append(token(s))
        stringIndex[s] = i
        return i
    }

    /// The index of an absolute path, adding it and its ancestors. `""` is the empty path, which
    /// has an index but is never encoded in the PATHS section.
    mutating func path(_ text: String) throws(AssetError) -> UInt32 {
        if text.isEmpty {
            if let emptyPath { return emptyPath }
            emptyPath = UInt32(paths.count)
            paths.append(PathEntry(parent: -1, element: "", isProperty: false))
            return emptyPath!
        }
        if let i = pathIndex[text] { return i }
        guard let (parent, element, isProperty) = USDPathSplit.lastElement(of: text) else {
            throw AssetError(.malformed("cannot write path <\(text)> to usdc: not an absolute prim or property path"))
        }
        let parentIndex = try path(parent)
        _ = token(element)
        let i = UInt32(paths.count)
        paths.append(PathEntry(parent: Int(parentIndex), element: element, isProperty: isProperty))
        pathIndex[text] = i
        return i
    }

    mutating func addSpec(path: UInt32, type: CrateSpecType, fields specFields: [(String, ValueRep)]) {
        var set: [Int32] = []
        for (name, rep) in specFields {
            let key = FieldKey(name: token(name), rep: rep.bits)
            if let i = fieldIndex[key] { set.append(i); continue }
            let i = Int32(fields.count)
            fields.append((key.name, rep))
            fieldIndex[key] = i
            set.append(i)
        }
        let start: Int32
        if let known = fieldSetIndex[set] {
            start = known
        } else {
            start = Int32(fieldSets.count)
            fieldSets += set + [-1]
            fieldSetIndex[set] = start
        }
        specs.append((path, start, type))
    }

    // MARK: Sections

    /// Appends the structural sections and table of contents, then fills in the header.
    mutating func finish() -> [UInt8] {
        var sections: [(String, UInt64, UInt64)] = []
        func section(_ name: String, _ body: (inout CrateFileBuilder) -> Void) {
            align(8)
            let start = position
            body(&self)
            sections.append((name, start, position - start))
        }
        section("TOKENS") { b in
            var chars: [UInt8] = []
            for t in b.tokens { chars.append(contentsOf: Array(t.utf8)); chars.append(0) }
            let compressed = chars.withUnsafeBytes { CrateCompression.compress($0) }
            b.u64(UInt64(b.tokens.count)); b.u64(UInt64(chars.count)); b.u64(UInt64(compressed.count)); b.bytes(compressed)
        }
        section("STRINGS") { b in
            b.u64(UInt64(b.strings.count))
            for s in b.strings { b.u32(s) }
        }
        section("FIELDS") { b in
            b.u64(UInt64(b.fields.count))
            b.codedInts(b.fields.map { Int32(bitPattern: $0.name) })
            var reps = ByteWriter(capacity: b.fields.count * 8)
            for f in b.fields { reps.u32(UInt32(truncatingIfNeeded: f.rep.bits)); reps.u32(UInt32(truncatingIfNeeded: f.rep.bits >> 32)) }
            let compressed = reps.bytes.withUnsafeBytes { CrateCompression.compress($0) }
            b.u64(UInt64(compressed.count)); b.bytes(compressed)
        }
        section("FIELDSETS") { b in
            b.u64(UInt64(b.fieldSets.count))
            b.codedInts(b.fieldSets)
        }
        section("PATHS") { b in b.writePaths() }
        section("SPECS") { b in
            b.u64(UInt64(b.specs.count))
            b.codedInts(b.specs.map { Int32(bitPattern: $0.path) })
            b.codedInts(b.specs.map { $0.fieldSet })
            b.codedInts(b.specs.map { Int32(bitPattern: $0.type.rawValue) })
        }
        align(8)
        let toc = position
        u64(UInt64(sections.count))
        for (name, start, size) in sections {
            var nameBytes = Array(name.utf8)
            nameBytes += [UInt8](repeating: 0, count: CrateFormat.sectionNameSize - nameBytes.count)
            bytes(nameBytes); u64(start); u64(size)
        }
        var header = CrateFormat.magic + [version.major, version.minor, version.patch, 0, 0, 0, 0, 0]
        withUnsafeBytes(of: toc.littleEndian) { header.append(contentsOf: $0) }
        for (i, b) in header.enumerated() { data[i] = b }
        return data
    }

    mutating func codedInts(_ values: [Int32]) {
        let coded = CrateIntegerCoding.encode32(values)
        u64(UInt64(coded.count))
        bytes(coded)
    }

    /// Pre-order: each path is followed by its first child; a path with both a child and a next
    /// sibling records how far ahead the sibling is (see `CrateStructure.readPaths`).
    mutating func writePaths() {
        var children = [[Int]](repeating: [], count: paths.count)
        for (i, p) in paths.enumerated() where p.parent >= 0 { children[p.parent].append(i) }
        var order: [Int] = [], elements: [Int32] = [], jumps: [Int32] = []
        // Explicit stack of (path, has a next sibling); a sibling's jump is patched once the
        // subtree before it is laid out.
        var pendingJump: [Int: Int] = [:]
        var stack: [(path: Int, siblings: ArraySlice<Int>)] = [(0, [])]
        while let (p, siblings) = stack.popLast() {
            let position = order.count
            if let waiting = pendingJump.removeValue(forKey: p) { jumps[waiting] = Int32(position - waiting) }
            order.append(p)
            let element = paths[p].element
            let t = p == 0 ? 0 : Int32(tokenIndex[element] ?? 0)
            elements.append(paths[p].isProperty ? -t : t)
            let hasChild = !children[p].isEmpty
            let hasSibling = !siblings.isEmpty
            // With both a child and a sibling, the 0 is replaced by the sibling's distance below.
            jumps.append(hasSibling ? 0 : hasChild ? -1 : -2)
            if let next = siblings.first {
                if hasChild { pendingJump[next] = position }
                stack.append((next, siblings.dropFirst()))
            }
            if let first = children[p].first { stack.append((first, children[p].dropFirst())) }
        }
        u64(UInt64(paths.count))
        u64(UInt64(order.count))
        codedInts(order.map { Int32($0) })
        codedInts(elements)
        codedInts(jumps)
    }
}

/// Splits an absolute path into its parent and last element.
enum USDPathSplit {
    static func lastElement(of path: String) -> (parent: String, element: String, isProperty: Bool)? {
        guard path.hasPrefix("/"), path.count > 1 else { return nil }
        // A property follows the last prim element: `/A/B.points`, `/A{v=x}B.points`.
        let lastPrimBoundary = path.lastIndex { $0 == "/" || $0 == "}" } ?? path.startIndex
        if let dot = path[lastPrimBoundary...].firstIndex(of: ".") {
            let parent = String(path[..<dot])
            return (parent.isEmpty ? "/" : parent, String(path[path.index(after: dot)...]), true)
        }
        if path.hasSuffix("}"), let open = path.lastIndex(of: "{") {
            return (String(path[..<open]), String(path[open...]), false)
        }
        // `/A{v=x}B`: the parent of B is the variant selection path `/A{v=x}`.
        if path[lastPrimBoundary] == "}" {
            let element = String(path[path.index(after: lastPrimBoundary)...])
            return element.isEmpty ? nil : (String(path[...lastPrimBoundary]), element, false)
        }
        let parent = String(path[..<lastPrimBoundary])
        let element = String(path[path.index(after: lastPrimBoundary)...])
        guard !element.isEmpty else { return nil }
        return (parent.isEmpty ? "/" : parent, element, false)
    }
}

import AssetCore

/// Parses usda text into a `USDLayer`: a recursive-descent parser over the Sdf text grammar.
/// Content it does not use (reorder statements, spline values, unknown metadata) is parsed and
/// dropped, never guessed at. Prim nesting and value nesting are capped so hostile files fail
/// with a located error instead of exhausting the stack.
package struct USDAParser {
    package static let maxValueNesting = 64

    var tokens: USDATokenizer
    let budget: ReadBudget
    var limits: ReadLimits { budget.limits }
    var layer: USDLayer
    /// The mapped file being parsed, if it is one: the pages of each big array are dropped once
    /// the array is read, so a 100 MB layer is never resident whole beside its arrays.
    var mapping: MappedFile?

    /// Parses a whole layer. `name` is how locations name the file (its location when nil).
    package static func parse(_ data: [UInt8], location: AssetLocation, name: String? = nil,
                              budget: ReadBudget = ReadBudget(ReadLimits())) throws(AssetError) -> USDLayer {
        try data.withUnsafeBufferPointer { (bytes) throws(AssetError) -> USDLayer in
            let layer = USDLayer(location: location, name: name)
            var parser = USDAParser(tokens: USDATokenizer(bytes: bytes, file: layer.name), budget: budget, layer: layer)
            try parser.parseLayer()
            return parser.layer
        }
    }

    /// Parses a layer in place in its mapped file. A file that shrank while it was read is an
    /// error of its own, whatever the zeros read past its new end made of the text.
    package static func parse(_ file: MappedFile, location: AssetLocation, name: String? = nil, budget: ReadBudget) throws(AssetError) -> USDLayer {
        let layer = USDLayer(location: location, name: name)
        var parser = USDAParser(tokens: USDATokenizer(bytes: file.bytes, file: layer.name), budget: budget, layer: layer, mapping: file)
        do {
            try parser.parseLayer()
        } catch {
            if file.changedWhileRead { throw MappedFile.changedError(at: layer.name) }
            throw error
        }
        if file.changedWhileRead { throw MappedFile.changedError(at: layer.name) }
        return parser.layer
    }

    static let header = Array("#usda ".utf8)

    mutating func parseLayer() throws(AssetError) {
        let bytes = tokens.bytes
        guard bytes.starts(with: Self.header) else {
            throw AssetError(.malformed("not a usda layer: the first line must be '#usda 1.0'"), at: tokens.location(line: 1, column: 1))
        }
        // The header is a comment as far as the grammar goes; check its version, then skip it.
        var end = Self.header.count
        while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        var start = Self.header.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        // The usual `#usda 1.0` is judged on its bytes; Foundation's Unicode-aware trim (a
        // percent of validating a folder of small packages) only for anything else.
        let isVersionOne = end - start >= 2 && bytes[start] == UInt8(ascii: "1") && bytes[start + 1] == UInt8(ascii: ".")
        let version = isVersionOne ? "1." : String(decoding: UnsafeBufferPointer(rebasing: bytes[Self.header.count..<end]), as: UTF8.self)
            .trimmingCharacters(in: .whitespaces)
        guard version.hasPrefix("1.") else {
            throw AssetError(.malformed("unsupported usda version '\(version)'; assetc reads 1.x"), at: tokens.location(line: 1, column: 7))
        }
        tokens.position = end

        if try tokens.peek().isPunctuation("(") {
            try parseLayerMetadata()
        }
        while true {
            let token = try tokens.peek()
            if token.kind == .end { break }
            layer.rootPrims.append(try parsePrimSpec(depth: 1))
        }
    }

    // MARK: Prims

    mutating func parsePrimSpec(depth: Int) throws(AssetError) -> USDPrimSpec {
        let first = try tokens.next()
        let specifier: USDSpecifier
        if first.isIdentifier("def", in: tokens.bytes) { specifier = .def }
        else if first.isIdentifier("over", in: tokens.bytes) { specifier = .over }
        else if first.isIdentifier("class", in: tokens.bytes) { specifier = .class }
        else { throw tokens.malformed("expected 'def', 'over' or 'class', found \(first.describe(in: tokens.bytes))", at: first) }
        guard depth <= limits.maxNodeDepth else {
            throw AssetError(.limitExceeded("prims nested deeper than \(limits.maxNodeDepth) levels"),
                             at: tokens.location(line: first.line, column: first.column))
        }
        var typeName = ""
        var nameToken = try tokens.next()
        if nameToken.kind == .identifier {
            typeName = tokens.text(of: nameToken)
            nameToken = try tokens.next()
        }
        guard nameToken.kind == .string else {
            throw tokens.malformed("expected the prim's name in quotes, found \(nameToken.describe(in: tokens.bytes))", at: nameToken)
        }
        let name = tokens.text(of: nameToken)
        guard Self.isValidPrimName(name) else {
            throw tokens.malformed("'\(name)' is not a valid prim name", at: nameToken)
        }
        var prim = USDPrimSpec(specifier: specifier, typeName: typeName, name: name, line: first.line)
        if try tokens.peek().isPunctuation("(") {
            try parsePrimMetadata(into: &prim)
        }
        try expect("{", after: "the prim's name")
        try parsePrimBody(into: &prim, depth: depth)
        return prim
    }

    /// Everything between a prim's braces (also a variant's body), up to and including `}`.
    mutating func parsePrimBody(into prim: inout USDPrimSpec, depth: Int) throws(AssetError) {
        while true {
            let token = try tokens.peek()
            if token.isPunctuation("}") { _ = try tokens.next(); return }
            if token.kind == .end {
                throw AssetError(.malformed("prim '\(prim.name)' is never closed with '}'"), at: tokens.location(line: prim.line, column: 1))
            }
            if token.isPunctuation(";") { _ = try tokens.next(); continue }
            if token.isIdentifier("def", in: tokens.bytes) || token.isIdentifier("over", in: tokens.bytes)
                || token.isIdentifier("class", in: tokens.bytes) {
                prim.children.append(try parsePrimSpec(depth: depth + 1))
            } else if token.isIdentifier("variantSet", in: tokens.bytes) {
                try parseVariantSet(into: &prim, depth: depth)
            } else if token.isIdentifier("reorder", in: tokens.bytes), try isReorderStatement() {
                try skipReorderStatement()
            } else {
                try parseProperty(into: &prim)
            }
        }
    }

    /// `reorder nameChildren = [...]` / `reorder properties = [...]` (not `reorder rel ...`, a list op).
    mutating func isReorderStatement() throws(AssetError) -> Bool {
        let saved = (tokens.position, tokens.line, tokens.lineStart)
        defer { (tokens.position, tokens.line, tokens.lineStart) = saved }
        _ = try tokens.next()
        let what = try tokens.next()
        return what.isIdentifier("nameChildren", in: tokens.bytes) || what.isIdentifier("properties", in: tokens.bytes)
    }

    mutating func skipReorderStatement() throws(AssetError) {
        _ = try tokens.next()
        _ = try tokens.next()
        try expect("=", after: "reorder")
        _ = try parseValue(nesting: 0)
    }

    mutating func parseVariantSet(into prim: inout USDPrimSpec, depth: Int) throws(AssetError) {
        _ = try tokens.next()
        let nameToken = try tokens.next()
        guard nameToken.kind == .string else { throw tokens.malformed("expected the variant set's name in quotes", at: nameToken) }
        let setName = tokens.text(of: nameToken)
        try expect("=", after: "variantSet \"\(setName)\"")
        try expect("{", after: "variantSet \"\(setName)\" =")
        var variants = prim.variantSets[setName] ?? [:]
        while true {
            let token = try tokens.next()
            if token.isPunctuation("}") { break }
            guard token.kind == .string else {
                throw tokens.malformed("expected a variant name in quotes in variantSet \"\(setName)\", found \(token.describe(in: tokens.bytes))", at: token)
            }
            var body = USDPrimSpec(specifier: .over, typeName: "", name: prim.name, line: token.line)
            if try tokens.peek().isPunctuation("(") { try parsePrimMetadata(into: &body) }
            try expect("{", after: "variant \"\(tokens.text(of: token))\"")
            try parsePrimBody(into: &body, depth: depth)
            variants[tokens.text(of: token)] = body
        }
        prim.variantSets[setName] = variants
    }

    // MARK: Properties

    static let listOpWords: Set<String> = ["add", "append", "prepend", "delete", "reorder"]
    static let variabilityWords: Set<String> = ["uniform", "varying", "config"]

    mutating func parseProperty(into prim: inout USDPrimSpec) throws(AssetError) {
        var token = try tokens.next()
        guard token.kind == .identifier else {
            throw tokens.malformed("expected a property, a child prim or '}', found \(token.describe(in: tokens.bytes))", at: token)
        }
        let startLine = token.line
        var word = tokens.text(of: token)
        var listOp: String?
        if Self.listOpWords.contains(word) { listOp = word; token = try tokens.next(); word = tokens.text(of: token) }
        if word == "custom" { token = try tokens.next(); word = tokens.text(of: token) }
        var isUniform = false
        if Self.variabilityWords.contains(word) { isUniform = word == "uniform"; token = try tokens.next(); word = tokens.text(of: token) }
        guard token.kind == .identifier else { throw tokens.malformed("expected a type name, found \(token.describe(in: tokens.bytes))", at: token) }

        if word == "rel" {
            try parseRelationship(into: &prim, line: startLine, listOp: listOp)
            return
        }
        var typeName = word
        if try tokens.peek().isPunctuation("[") {
            _ = try tokens.next()
            try expect("]", after: "'\(typeName)['")
            typeName += "[]"
        }
        let nameToken = try tokens.next()
        guard nameToken.kind == .identifier else {
            throw tokens.malformed("expected the attribute's name after '\(typeName)', found \(nameToken.describe(in: tokens.bytes))", at: nameToken)
        }
        let name = tokens.text(of: nameToken)
        var property = existingProperty(named: name, in: prim)
            ?? USDPropertySpec(name: name, typeName: typeName, isRelationship: false, isUniform: isUniform, line: startLine)
        property.typeName = typeName
        property.isUniform = property.isUniform || isUniform

        if try tokens.peek().isPunctuation(".") {
            _ = try tokens.next()
            let field = try tokens.next()
            let fieldName = tokens.text(of: field)
            try expect("=", after: "\(name).\(fieldName)")
            switch fieldName {
            case "connect": property.targets = try parseTargets()
            case "timeSamples": property.timeSamples = try parseTimeSamples()
            case "default": property.defaultValue = try parseValue(nesting: 0)
            case "spline": _ = try parseValue(nesting: 0)  // animation splines are not evaluated; default/timeSamples are
            default: throw tokens.malformed("unknown attribute field '.\(fieldName)'", at: field)
            }
        } else if try tokens.peek().isPunctuation("=") {
            _ = try tokens.next()
            if typeName == "int[]", try tokens.peek().isPunctuation("["), let integers = try integerArray() {
                property.defaultValue = integers
            } else if let shape = USDFloatArray(emptyOf: typeName), try tokens.peek().isPunctuation("["), let floats = try floatArray(shape) {
                property.defaultValue = floats
            } else {
                property.defaultValue = try parseValue(nesting: 0)
            }
        }
        if try tokens.peek().isPunctuation("(") {
            property.metadata.merge(try parseMetadataDictionary(), uniquingKeysWith: { $1 })
        }
        if listOp == "delete" { return }
        store(property, in: &prim)
    }

    mutating func parseRelationship(into prim: inout USDPrimSpec, line: Int, listOp: String?) throws(AssetError) {
        let nameToken = try tokens.next()
        guard nameToken.kind == .identifier else { throw tokens.malformed("expected the relationship's name", at: nameToken) }
        let name = tokens.text(of: nameToken)
        var property = existingProperty(named: name, in: prim)
            ?? USDPropertySpec(name: name, typeName: "rel", isRelationship: true, isUniform: true, line: line)
        if try tokens.peek().isPunctuation(".") {
            _ = try tokens.next()
            _ = try tokens.next()  // `.default` is the only field a relationship has in text
        }
        if try tokens.peek().isPunctuation("=") {
            _ = try tokens.next()
            let targets = try parseTargets()
            if listOp == "delete" {
                property.targets?.removeAll { targets.contains($0) }
            } else if listOp == "prepend" {
                property.targets = targets + (property.targets ?? [])
            } else if listOp == "add" || listOp == "append" {
                property.targets = (property.targets ?? []) + targets
            } else {
                property.targets = targets
            }
        }
        if try tokens.peek().isPunctuation("(") {
            property.metadata.merge(try parseMetadataDictionary(), uniquingKeysWith: { $1 })
        }
        store(property, in: &prim)
    }

    func existingProperty(named name: String, in prim: USDPrimSpec) -> USDPropertySpec? {
        prim.properties.last { $0.name == name }
    }

    /// One spec per property name: `.connect`, `.timeSamples` and the default may come in separate statements.
    func store(_ property: USDPropertySpec, in prim: inout USDPrimSpec) {
        if let i = prim.properties.lastIndex(where: { $0.name == property.name }) {
            prim.properties[i] = property
        } else {
            prim.properties.append(property)
        }
    }

    /// `[ints]` read straight into Int32, or nil with nothing consumed.
    mutating func integerArray() throws(AssetError) -> USDValue? {
        let saved = (tokens.position, tokens.line, tokens.lineStart)
        _ = try tokens.next()
        if let value = try scanIntegerArray() { return value }
        (tokens.position, tokens.line, tokens.lineStart) = saved
        return nil
    }

    /// `[numbers]` of a single-precision type read straight into the scene's layout (`shape`
    /// says which), or nil with nothing consumed.
    mutating func floatArray(_ shape: USDFloatArray) throws(AssetError) -> USDValue? {
        let saved = (tokens.position, tokens.line, tokens.lineStart)
        _ = try tokens.next()
        if let value = try scanFloatArray(shape) { return value }
        (tokens.position, tokens.line, tokens.lineStart) = saved
        return nil
    }

    /// `</a>`, `[</a>, </b>]` or `None`.
    mutating func parseTargets() throws(AssetError) -> [String] {
        let token = try tokens.peek()
        let value = try parseValue(nesting: 0)
        switch value {
        case .none: return []
        case .path(let p): return [p]
        case .numbers(let n, _) where n.isEmpty: return []
        case .list(let items):
            var out: [String] = []
            for item in items {
                guard case .path(let p) = item else { throw tokens.malformed("expected only paths in this list", at: token) }
                out.append(p)
            }
            return out
        default: throw tokens.malformed("expected a path, a list of paths or None", at: token)
        }
    }

    /// `{ time: value, ... }`
    mutating func parseTimeSamples() throws(AssetError) -> [(time: Double, value: USDValue)] {
        try expect("{", after: ".timeSamples =")
        var samples: [(time: Double, value: USDValue)] = []
        while true {
            let token = try tokens.next()
            if token.isPunctuation("}") { break }
            if token.isPunctuation(",") { continue }
            guard token.kind == .number, let time = number(token) else {
                throw tokens.malformed("expected a time code in timeSamples, found \(token.describe(in: tokens.bytes))", at: token)
            }
            try expect(":", after: "time code")
            samples.append((time, try parseValue(nesting: 1)))
        }
        samples.sort { $0.time < $1.time }
        return samples
    }

    // MARK: Helpers

    mutating func expect(_ c: Character, after what: String) throws(AssetError) {
        let token = try tokens.next()
        guard token.isPunctuation(c) else {
            throw tokens.malformed("expected '\(c)' after \(what), found \(token.describe(in: tokens.bytes))", at: token)
        }
    }

    func number(_ token: USDAToken) -> Double? {
        guard let scan = DecimalNumberParser.scan(tokens.bytes, from: token.start) else { return nil }
        return DecimalNumberParser.double(scan, tokens.bytes, from: token.start)
    }

    /// Prim names are identifiers: a letter or underscore, then letters, digits, underscores.
    static func isValidPrimName(_ name: String) -> Bool {
        guard let first = name.utf8.first, USDATokenizer.isIdentifierStart(first) else { return false }
        return name.utf8.allSatisfy { USDATokenizer.isIdentifierStart($0) || USDATokenizer.isDigit($0) }
    }
}

import AssetCore

extension USDAParser {
    mutating func parseValue(nesting: Int) throws(AssetError) -> USDValue {
        let token = try tokens.peek()
        guard nesting <= Self.maxValueNesting else {
            throw AssetError(.limitExceeded("values nested deeper than \(Self.maxValueNesting) levels"),
                             at: tokens.location(line: token.line, column: token.column))
        }
        switch token.kind {
        case .number:
            _ = try tokens.next()
            return .number(number(token) ?? .nan)
        case .string:
            _ = try tokens.next()
            return .string(tokens.text(of: token))
        case .asset:
            _ = try tokens.next()
            return .asset(tokens.text(of: token))
        case .path:
            _ = try tokens.next()
            return .path(tokens.text(of: token))
        case .identifier:
            _ = try tokens.next()
            let word = tokens.text(of: token)
            switch word {
            case "None": return .none
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "inf": return .number(.infinity)
            case "nan": return .number(.nan)
            default:
                // Inside a list or tuple a word that starts like a special number is a number gone
                // wrong (`nanx`, `infinite`), not a word to drop the whole array over.
                let lower = word.lowercased()
                if nesting > 0, lower.hasPrefix("nan") || lower.hasPrefix("inf"), lower != "infinity" {
                    throw AssetError(.malformed("malformed number '\(word)'"), at: tokens.location(line: token.line, column: token.column))
                }
                return .word(word)
            }
        case .punctuation(UInt8(ascii: "[")):
            _ = try tokens.next()
            if let numbers = try scanNumericArray() { return numbers }
            return try parseList(closing: "]", nesting: nesting, opening: token)
        case .punctuation(UInt8(ascii: "(")):
            _ = try tokens.next()
            let items = try parseList(closing: ")", nesting: nesting, opening: token)
            if case .list(let values) = items, let flat = Self.flattenNumbers(values) { return .tuple(flat) }
            return items
        case .punctuation(UInt8(ascii: "{")):
            _ = try tokens.next()
            return try parseDictionaryBody(nesting: nesting)
        default:
            throw tokens.malformed("expected a value, found \(token.describe(in: tokens.bytes))", at: token)
        }
    }

    /// Items up to `closing`, separated by commas (a trailing comma is allowed).
    mutating func parseList(closing: Character, nesting: Int, opening: USDAToken) throws(AssetError) -> USDValue {
        var items: [USDValue] = []
        while true {
            let token = try tokens.peek()
            if token.isPunctuation(closing) { _ = try tokens.next(); break }
            if token.isPunctuation(",") { _ = try tokens.next(); continue }
            if token.kind == .end { throw tokens.malformed("'\(closing == "]" ? "[" : "(")' is never closed", at: opening) }
            items.append(try parseValue(nesting: nesting + 1))
            if items.count > limits.maxArrayElements {
                throw AssetError(.limitExceeded("more than \(limits.maxArrayElements) array elements"), at: tokens.location(line: token.line, column: token.column))
            }
        }
        try charge(items.count, at: opening)
        return .list(items)
    }

    /// Charges the read's budget for an array of `count` elements ending at the current token.
    func charge(_ count: Int, at token: USDAToken? = nil) throws(AssetError) {
        let location = token.map { tokens.location(line: $0.line, column: $0.column) } ?? tokens.location(line: tokens.line, column: tokens.column)
        try budget.spend(work: count, for: "an array of \(count) elements", at: location)
        try budget.spend(bytes: count * MemoryLayout<Double>.stride, for: "an array of \(count) elements", at: location)
    }

    static func flattenNumbers(_ values: [USDValue]) -> [Double]? {
        var flat: [Double] = []
        for value in values {
            switch value {
            case .number(let d): flat.append(d)
            case .tuple(let t): flat.append(contentsOf: t)
            default: return nil
            }
        }
        return flat
    }

    /// For the scanners: drops the mapped pages of text scanned as array, on the core that scanned it.
    private var releasePages: USDANumericArrayScanner.Release? {
        guard let file = mapping else { return nil }
        return { @Sendable range in file.release(range) }
    }

    /// After `[`: a numeric array through the fast scanner, else through `scanNumericArraySlow`, else nil
    /// (with the position restored) for the general list parser.
    mutating func scanNumericArray() throws(AssetError) -> USDValue? {
        if let chunk = USDANumericArrayScanner.scanDoubles(tokens.bytes, from: tokens.position, maxElements: limits.maxArrayElements,
                                                                release: releasePages) {
            mapping?.release(tokens.position..<chunk.end)
            advance(past: chunk)
            try charge(chunk.values.count)
            return .numbers(chunk.values, components: max(chunk.components, 1))
        }
        return try scanNumericArraySlow()
    }

    /// After `[` in an `int[]` value: 32-bit integers through the fast scanner, or nil.
    mutating func scanIntegerArray() throws(AssetError) -> USDValue? {
        guard let chunk = USDANumericArrayScanner.scanInt32s(tokens.bytes, from: tokens.position, maxElements: limits.maxArrayElements,
                                                                      release: releasePages) else {
            return nil
        }
        mapping?.release(tokens.position..<chunk.end)
        advance(past: chunk)
        try charge(chunk.values.count)
        return .integers(chunk.values)
    }

    /// After `[` in a single-precision array value: through the fast scanner into `shape`'s layout,
    /// or nil (an empty array, or one the scanner declines, is left to the general parser).
    mutating func scanFloatArray(_ shape: USDFloatArray) throws(AssetError) -> USDValue? {
        let value: USDFloatArray?
        switch shape {
        case .scalars: value = try scanned(USDANumericArrayScanner.Floats.self).map(USDFloatArray.scalars)
        case .pairs: value = try scanned(USDANumericArrayScanner.FloatPairs.self).map(USDFloatArray.pairs)
        case .triples: value = try scanned(USDANumericArrayScanner.FloatTriples.self).map(USDFloatArray.triples)
        }
        return value.map(USDValue.floats)
    }

    private mutating func scanned<Kind: USDANumericArrayScanner.NumberKind>(_ kind: Kind.Type) throws(AssetError) -> [Kind.Element]? {
        guard let chunk = USDANumericArrayScanner.scan(Kind.self, tokens.bytes, from: tokens.position, maxElements: limits.maxArrayElements,
                                                                release: releasePages),
              chunk.elements > 0 else { return nil }
        mapping?.release(tokens.position..<chunk.end)
        advance(past: chunk)
        try charge(chunk.elements * max(Kind.groupSize, 1))
        return chunk.values
    }

    private mutating func advance<Element>(past chunk: USDANumericArrayScanner.Chunk<Element>) {
        tokens.position = chunk.end
        tokens.line += chunk.newlines
        if chunk.lastNewline >= 0 { tokens.lineStart = chunk.lastNewline + 1 }
    }

    /// Numbers straight from the bytes, one at a time, with located errors: the path for arrays the
    /// fast scanner declines (comments inside, matrices, specials, mismatched element sizes).
    mutating func scanNumericArraySlow() throws(AssetError) -> USDValue? {
        let saved = (tokens.position, tokens.line, tokens.lineStart)
        let bytes = tokens.bytes
        var values: [Double] = []
        var components = 0
        var elements = 0
        while true {
            try tokens.skipTrivia()
            guard tokens.position < bytes.count else { break }
            let c = bytes[tokens.position]
            if c == UInt8(ascii: "]") {
                tokens.position += 1
                try charge(values.count)
                return .numbers(values, components: max(components, 1))
            }
            if c == UInt8(ascii: ",") { tokens.position += 1; continue }
            let line = tokens.line, column = tokens.column
            let count: Int
            if c == UInt8(ascii: "(") {
                guard let n = try scanNumericGroup(into: &values, depth: 0) else { break }
                count = n
            } else if let scan = DecimalNumberParser.scan(bytes, from: tokens.position) {
                values.append(DecimalNumberParser.double(scan, bytes, from: tokens.position))
                tokens.position = scan.end
                count = 1
            } else {
                break
            }
            if components == 0 { components = count }
            else if count != components {
                throw AssetError(.malformed("array element has \(count) numbers where the first had \(components)"),
                                 at: tokens.location(line: line, column: column))
            }
            elements += 1
            if elements > limits.maxArrayElements {
                throw AssetError(.limitExceeded("more than \(limits.maxArrayElements) array elements"),
                                 at: tokens.location(line: line, column: column))
            }
        }
        (tokens.position, tokens.line, tokens.lineStart) = saved
        return nil
    }

    /// `( n, n, ... )` with nested groups for matrices; nil when something else is inside.
    private mutating func scanNumericGroup(into values: inout [Double], depth: Int) throws(AssetError) -> Int? {
        guard depth < 4 else { return nil }
        let bytes = tokens.bytes
        tokens.position += 1
        var count = 0
        while true {
            try tokens.skipTrivia()
            guard tokens.position < bytes.count else { return nil }
            let c = bytes[tokens.position]
            if c == UInt8(ascii: ")") { tokens.position += 1; return count }
            if c == UInt8(ascii: ",") { tokens.position += 1; continue }
            if c == UInt8(ascii: "(") {
                guard let n = try scanNumericGroup(into: &values, depth: depth + 1) else { return nil }
                count += n
                continue
            }
            guard let scan = DecimalNumberParser.scan(bytes, from: tokens.position) else { return nil }
            values.append(DecimalNumberParser.double(scan, bytes, from: tokens.position))
            tokens.position = scan.end
            count += 1
        }
    }

    /// After `{`: `type key = value` entries up to `}`. Keys may be quoted.
    mutating func parseDictionaryBody(nesting: Int) throws(AssetError) -> USDValue {
        var entries: [USDDictionaryEntry] = []
        while true {
            var token = try tokens.next()
            if token.isPunctuation("}") { break }
            if token.isPunctuation(";") || token.isPunctuation(",") { continue }
            guard token.kind == .identifier else {
                throw tokens.malformed("expected a type name in dictionary, found \(token.describe(in: tokens.bytes))", at: token)
            }
            var typeName = tokens.text(of: token)
            if try tokens.peek().isPunctuation("[") {
                _ = try tokens.next()
                try expect("]", after: "'\(typeName)['")
                typeName += "[]"
            }
            token = try tokens.next()
            guard token.kind == .identifier || token.kind == .string else {
                throw tokens.malformed("expected a key after '\(typeName)' in dictionary, found \(token.describe(in: tokens.bytes))", at: token)
            }
            let key = tokens.text(of: token)
            try expect("=", after: "dictionary key '\(key)'")
            entries.append(USDDictionaryEntry(typeName: typeName, key: key, value: try parseValue(nesting: nesting + 1)))
        }
        return .dictionary(entries)
    }
}

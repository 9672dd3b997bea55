import AssetCore

/// ASCII FBX, 6.1 and 7.x: `Name: value, value {` records, `;` comments, quoted strings, bare words
/// (`T`, `Y`), numbers, 7.x arrays written `*N { a: v,v,... }` and 6.1 value lists that continue on
/// the next line after a trailing comma. Everything is located by line; an unterminated string or
/// brace is an error naming where it began.
struct FBXTextParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    let budget: ReadBudget
    var cursor = 0
    var line = 1

    static func looksLikeText(_ prefix: [UInt8]) -> Bool {
        // Exporters start with a `; FBX 7.4.0 project file` comment; hand-written files may start
        // with the header record itself.
        let text = String(decoding: prefix.prefix(512), as: UTF8.self)
        return text.hasPrefix("; FBX") || text.contains("FBXHeaderExtension:")
    }

    static func parse(_ data: [UInt8], file: String, budget: ReadBudget) throws(AssetError) -> FBXDocument {
        try data.withUnsafeBufferPointer { buffer throws(AssetError) in
            var parser = FBXTextParser(bytes: buffer, file: file, budget: budget)
            let children = try parser.list(depth: 0, opened: nil)
            let root = FBXNode(name: "", children: children, location: SourceLocation(file: file))
            let header = root.child("FBXHeaderExtension")
            let version = header?.value("FBXVersion")?.int ?? Self.versionFromComment(buffer) ?? 7400
            return FBXDocument(version: version, isBinary: false, root: root)
        }
    }

    /// `; FBX 6.1.0 project file` -> 6100.
    private static func versionFromComment(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let head = String(decoding: UnsafeBufferPointer(rebasing: bytes.prefix(64)), as: UTF8.self)
        guard head.hasPrefix("; FBX ") else { return nil }
        let parts = head.dropFirst(6).prefix { $0 != " " }.split(separator: ".").compactMap { Int($0) }
        guard parts.count >= 2 else { return nil }
        return parts[0] * 1000 + parts[1] * 100 + (parts.count > 2 ? parts[2] * 10 : 0)
    }

    private var here: SourceLocation { SourceLocation(file: file, line: line) }

    private func malformed(_ message: String, line: Int? = nil) -> AssetError {
        AssetError(.malformed(message), at: SourceLocation(file: file, line: line ?? self.line))
    }

    private var atEnd: Bool { cursor >= bytes.count }
    private var current: UInt8 { bytes[cursor] }

    /// Spaces, tabs, carriage returns, and (when `newlines`) line ends and comments.
    private mutating func skipBlank(newlines: Bool) {
        while !atEnd {
            let c = current
            if c == 0x20 || c == 0x09 || c == 0x0D { cursor += 1 }
            else if c == 0x0A && newlines { cursor += 1; line += 1 }
            else if c == UInt8(ascii: ";") {
                while !atEnd && current != 0x0A { cursor += 1 }
            } else { return }
        }
    }

    /// Records until the `}` closing `opened` (the line its `{` was on), or the end of the file at the top.
    private mutating func list(depth: Int, opened: Int?) throws(AssetError) -> [FBXNode] {
        guard depth <= budget.limits.maxNodeDepth else { throw malformed("records nest deeper than \(budget.limits.maxNodeDepth)") }
        var nodes: [FBXNode] = []
        while true {
            skipBlank(newlines: true)
            if atEnd {
                if let opened { throw malformed("the '{' on line \(opened) is never closed", line: opened) }
                return nodes
            }
            if current == UInt8(ascii: "}") {
                guard opened != nil else { throw malformed("a '}' closes nothing") }
                cursor += 1
                return nodes
            }
            nodes.append(try record(depth: depth))
        }
    }

    private mutating func record(depth: Int) throws(AssetError) -> FBXNode {
        var node = try recordValues(depth: depth)
        node.values = Self.collapsed(node.values)
        return node
    }

    private mutating func recordValues(depth: Int) throws(AssetError) -> FBXNode {
        let start = line
        let nameStart = cursor
        while !atEnd && current != UInt8(ascii: ":") && current != 0x0A && current != UInt8(ascii: "{") && current != UInt8(ascii: "}") { cursor += 1 }
        guard !atEnd, current == UInt8(ascii: ":") else { throw malformed("a record name is not followed by ':'") }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<cursor]), as: UTF8.self).trimmingCharacters(in: .whitespaces)
        cursor += 1
        try budget.spend(work: 1, for: "FBX records", at: here)
        var node = FBXNode(name: name, location: SourceLocation(file: file, line: start))
        var continues = false
        while true {
            skipBlank(newlines: continues)
            continues = false
            if !atEnd && current == 0x0A {
                // 6.1 wraps long lists with the next line starting at the comma.
                let (mark, markLine) = (cursor, line)
                skipBlank(newlines: true)
                if !atEnd && current == UInt8(ascii: ",") {
                    cursor += 1
                    continues = true
                    continue
                }
                (cursor, line) = (mark, markLine)
                return node
            }
            if atEnd || current == UInt8(ascii: "}") { return node }
            let c = current
            if c == UInt8(ascii: "{") {
                let opened = line
                cursor += 1
                node.children = try list(depth: depth + 1, opened: opened)
                return node
            }
            if c == UInt8(ascii: "\"") {
                node.values.append(.string(try quoted()))
            } else if c == UInt8(ascii: "*") {
                node.values.append(try array())
            } else if c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") || (c >= 0x30 && c <= 0x39) {
                node.values.append(try number())
            } else {
                let wordStart = cursor
                while !atEnd, ![0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: ","), UInt8(ascii: "{"), UInt8(ascii: "}")].contains(current) { cursor += 1 }
                node.values.append(.string(String(decoding: UnsafeBufferPointer(rebasing: bytes[wordStart..<cursor]), as: UTF8.self)))
            }
            skipBlank(newlines: false)
            if !atEnd && current == UInt8(ascii: ",") {
                cursor += 1
                continues = true  // a 6.1 list goes on after a line that ends with a comma
            }
        }
    }

    /// A 6.1 list (`Vertices: 1,2,3,...`) is written as plain values: two or more numbers and
    /// nothing else become one array, as 7.x's `*N { a: ... }` would have been.
    static func collapsed(_ values: [FBXValue]) -> [FBXValue] {
        guard values.count >= 2 else { return values }
        var numbers: [Double] = []
        numbers.reserveCapacity(values.count)
        for value in values {
            switch value {
            case .integer(let v): numbers.append(Double(v))
            case .number(let v): numbers.append(v)
            default: return values
            }
        }
        return [.doubles(numbers)]
    }

    private mutating func quoted() throws(AssetError) -> String {
        let start = line
        cursor += 1
        let from = cursor
        while !atEnd && current != UInt8(ascii: "\"") {
            if current == 0x0A { throw malformed("the string begun on line \(start) is not closed on its line", line: start) }
            cursor += 1
        }
        guard !atEnd else { throw malformed("the string begun on line \(start) is never closed", line: start) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<cursor]), as: UTF8.self)
        cursor += 1
        return text.contains("&quot;") ? text.replacingOccurrences(of: "&quot;", with: "\"") : text
    }

    private mutating func number() throws(AssetError) -> FBXValue {
        var end = cursor
        var integral = true
        while end < bytes.count {
            let c = bytes[end]
            if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { integral = false }
            else if !(c >= 0x30 && c <= 0x39) && c != UInt8(ascii: "-") && c != UInt8(ascii: "+") { break }
            end += 1
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[cursor..<end]), as: UTF8.self)
        if integral, let v = Int64(text.hasPrefix("+") ? String(text.dropFirst()) : text) {
            cursor = end
            return .integer(v)
        }
        var i = cursor
        guard let v = DecimalNumberParser.parseDouble(bytes, &i), i == end else { throw malformed("'\(text)' is not a number") }
        cursor = end
        return .number(v)
    }

    /// `*N { a: v,v,v }`: N is checked against the characters left before anything is reserved.
    private mutating func array() throws(AssetError) -> FBXValue {
        let start = line
        cursor += 1
        var i = cursor
        guard let n = DecimalNumberParser.parseInt32(bytes, &i), n >= 0 else { throw malformed("'*' is not followed by an element count") }
        cursor = i
        let count = Int(n)
        guard count <= (bytes.count - cursor) / 2 + 1, count <= budget.limits.maxArrayElements else {
            throw malformed("an array claims \(count) elements; \(bytes.count - cursor) characters are left")
        }
        try budget.spend(bytes: count * 8, for: "an FBX array of \(count) elements", at: here)
        skipBlank(newlines: true)
        guard !atEnd, current == UInt8(ascii: "{") else { throw malformed("an array's count is not followed by '{'") }
        cursor += 1
        skipBlank(newlines: true)
        var values: [Double] = []
        values.reserveCapacity(count)
        if !atEnd && current == UInt8(ascii: "a") {
            cursor += 1
            skipBlank(newlines: true)
            guard !atEnd, current == UInt8(ascii: ":") else { throw malformed("an array's 'a' is not followed by ':'") }
            cursor += 1
            while true {
                skipBlank(newlines: true)
                guard !atEnd else { throw malformed("the array begun on line \(start) is never closed", line: start) }
                if current == UInt8(ascii: "}") { break }
                var k = cursor
                guard let v = DecimalNumberParser.parseDouble(bytes, &k) else {
                    throw malformed("'\(Character(Unicode.Scalar(current)))' in an array of numbers")
                }
                guard values.count < count else { throw malformed("the array begun on line \(start) holds more than its \(count) elements", line: start) }
                values.append(v)
                cursor = k
                skipBlank(newlines: true)
                if !atEnd && current == UInt8(ascii: ",") { cursor += 1 }
            }
        }
        skipBlank(newlines: true)
        guard !atEnd, current == UInt8(ascii: "}") else { throw malformed("the array begun on line \(start) is never closed", line: start) }
        cursor += 1
        guard values.count == count else { throw malformed("the array begun on line \(start) holds \(values.count) elements, not \(count)", line: start) }
        return .doubles(values)
    }
}

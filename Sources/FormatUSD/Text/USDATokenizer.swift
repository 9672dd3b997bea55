import AssetCore
import Foundation

/// Splits usda text into tokens, tracking line and column for errors. Works on the file's bytes
/// in place; the parser reads big numeric arrays straight from `bytes` past this tokenizer.
struct USDATokenizer {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    var position = 0
    var line = 1
    var lineStart = 0

    init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
        self.bytes = bytes
        self.file = file
    }

    var column: Int { position - lineStart + 1 }

    func location(line: Int, column: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    var here: SourceLocation { location(line: line, column: column) }

    func malformed(_ message: String, at token: USDAToken) -> AssetError {
        AssetError(.malformed(message), at: location(line: token.line, column: token.column))
    }

    /// Skips spaces, newlines and comments (`#`, `//`, `/* */`).
    mutating func skipTrivia() throws(AssetError) {
        let n = bytes.count
        while position < n {
            let c = bytes[position]
            if c == 0x0A {
                position += 1; line += 1; lineStart = position
            } else if c == 0x20 || c == 0x09 || c == 0x0D {
                position += 1
            } else if c == UInt8(ascii: "#") {
                while position < n && bytes[position] != 0x0A { position += 1 }
            } else if c == UInt8(ascii: "/"), position + 1 < n, bytes[position + 1] == UInt8(ascii: "/") {
                while position < n && bytes[position] != 0x0A { position += 1 }
            } else if c == UInt8(ascii: "/"), position + 1 < n, bytes[position + 1] == UInt8(ascii: "*") {
                let startLine = line, startColumn = column
                position += 2
                while true {
                    guard position + 1 < n else {
                        throw AssetError(.malformed("comment is never closed"), at: location(line: startLine, column: startColumn))
                    }
                    if bytes[position] == UInt8(ascii: "*") && bytes[position + 1] == UInt8(ascii: "/") { position += 2; break }
                    if bytes[position] == 0x0A { line += 1; lineStart = position + 1 }
                    position += 1
                }
            } else {
                return
            }
        }
    }

    mutating func peek() throws(AssetError) -> USDAToken {
        let saved = (position, line, lineStart)
        let token = try next()
        (position, line, lineStart) = saved
        return token
    }

    mutating func next() throws(AssetError) -> USDAToken {
        try skipTrivia()
        let n = bytes.count
        let startLine = line, startColumn = column
        guard position < n else {
            return USDAToken(kind: .end, start: n, end: n, line: startLine, column: startColumn)
        }
        let c = bytes[position]
        func token(_ kind: USDAToken.Kind, _ start: Int, _ end: Int) -> USDAToken {
            USDAToken(kind: kind, start: start, end: end, line: startLine, column: startColumn)
        }
        if Self.isIdentifierStart(c) {
            let start = position
            while position < n, Self.isIdentifierByte(bytes[position]) { position += 1 }
            return token(.identifier, start, position)
        }
        if Self.isDigit(c) || ((c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: "."))
                                && position + 1 < n && (Self.isDigit(bytes[position + 1]) || bytes[position + 1] == UInt8(ascii: ".")
                                                        || bytes[position + 1] | 0x20 == UInt8(ascii: "i") || bytes[position + 1] | 0x20 == UInt8(ascii: "n"))) {
            let start = position
            guard let scan = DecimalNumberParser.scan(bytes, from: position), scan.end > start else {
                throw AssetError(.malformed("malformed number"), at: location(line: startLine, column: startColumn))
            }
            position = scan.end
            // A number runs into the next token only through punctuation or space: `0x1p3`, `1e`
            // and `nanx` are not numbers followed by a word, they are malformed numbers.
            if position < n, Self.isIdentifierStart(bytes[position]) || Self.isDigit(bytes[position]) || bytes[position] == UInt8(ascii: ".") {
                var end = position
                while end < n, Self.isIdentifierStart(bytes[end]) || Self.isDigit(bytes[end]) || bytes[end] == UInt8(ascii: ".")
                        || bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-") { end += 1 }
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                throw AssetError(.malformed("malformed number '\(text)'"), at: location(line: startLine, column: startColumn))
            }
            return token(.number, start, position)
        }
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return try lexString(quote: c, line: startLine, column: startColumn)
        case UInt8(ascii: "@"):
            return try lexAsset(line: startLine, column: startColumn)
        case UInt8(ascii: "<"):
            let start = position + 1
            position = start
            while position < n, bytes[position] != UInt8(ascii: ">") {
                if bytes[position] == 0x0A { throw AssetError(.malformed("path is never closed with '>'"), at: location(line: startLine, column: startColumn)) }
                position += 1
            }
            guard position < n else { throw AssetError(.malformed("path is never closed with '>'"), at: location(line: startLine, column: startColumn)) }
            position += 1
            return token(.path, start, position - 1)
        default:
            position += 1
            return token(.punctuation(c), position - 1, position)
        }
    }

    private mutating func lexString(quote: UInt8, line startLine: Int, column startColumn: Int) throws(AssetError) -> USDAToken {
        let n = bytes.count
        let triple = position + 2 < n && bytes[position + 1] == quote && bytes[position + 2] == quote
        position += triple ? 3 : 1
        let start = position
        var escapes = false
        while true {
            guard position < n else {
                throw AssetError(.malformed("string is never closed"), at: location(line: startLine, column: startColumn))
            }
            let c = bytes[position]
            if c == UInt8(ascii: "\\") {
                escapes = true
                position += 2
                continue
            }
            if c == 0x0A {
                guard triple else { throw AssetError(.malformed("string is never closed on its line"), at: location(line: startLine, column: startColumn)) }
                line += 1; lineStart = position + 1
            }
            if c == quote {
                if !triple { break }
                if position + 2 < n && bytes[position + 1] == quote && bytes[position + 2] == quote { break }
            }
            position += 1
        }
        let end = position
        position += triple ? 3 : 1
        var t = USDAToken(kind: .string, start: start, end: end, line: startLine, column: startColumn)
        t.hasEscapes = escapes
        return t
    }

    private mutating func lexAsset(line startLine: Int, column startColumn: Int) throws(AssetError) -> USDAToken {
        let n = bytes.count
        let tripled = position + 2 < n && bytes[position + 1] == UInt8(ascii: "@") && bytes[position + 2] == UInt8(ascii: "@")
        position += tripled ? 3 : 1
        let start = position
        let at = UInt8(ascii: "@")
        var end = 0
        while true {
            guard position < n, bytes[position] != 0x0A else {
                throw AssetError(.malformed("asset path is never closed with '@'"), at: location(line: startLine, column: startColumn))
            }
            if tripled {
                // `\@@@` is the only escape; any other backslash is a character of the path.
                if bytes[position] == UInt8(ascii: "\\"), position + 3 < n, bytes[position + 1] == at,
                   bytes[position + 2] == at, bytes[position + 3] == at {
                    position += 4
                    continue
                }
                if bytes[position] == at {
                    // A run of three or more `@` closes the path; the ones before its last three
                    // belong to the path (`@@@mail@@@@` is `mail@`), as USD's grammar reads them.
                    var run = 0
                    while position + run < n && bytes[position + run] == at { run += 1 }
                    if run >= 3 {
                        end = position + run - 3
                        position += run
                        break
                    }
                    position += run
                    continue
                }
            } else if bytes[position] == at {
                end = position
                position += 1
                break
            }
            position += 1
        }
        var t = USDAToken(kind: .asset, start: start, end: end, line: startLine, column: startColumn)
        t.hasEscapes = tripled
        return t
    }

    /// The decoded text of an identifier, number, path, string or asset token.
    func text(of token: USDAToken) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[token.start..<token.end])
        guard token.hasEscapes else { return String(decoding: slice, as: UTF8.self) }
        if token.kind == .asset {
            // Inside @@@...@@@ only `\@@@` is an escape.
            return String(decoding: slice, as: UTF8.self).replacingOccurrences(of: "\\@@@", with: "@@@")
        }
        return Self.unescape(slice)
    }

    static func unescape(_ slice: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(slice.count)
        var i = 0
        while i < slice.count {
            let c = slice[i]
            guard c == UInt8(ascii: "\\"), i + 1 < slice.count else { out.append(c); i += 1; continue }
            let e = slice[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "a"): out.append(0x07)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "v"): out.append(0x0B)
            case UInt8(ascii: "x"):
                var value: UInt8 = 0, k = 0
                while k < 2, i < slice.count, let h = hexValue(slice[i]) { value = value &* 16 &+ h; i += 1; k += 1 }
                out.append(value)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = Int(e - UInt8(ascii: "0")), k = 1
                while k < 3, i < slice.count, slice[i] >= UInt8(ascii: "0"), slice[i] <= UInt8(ascii: "7") {
                    value = value * 8 + Int(slice[i] - UInt8(ascii: "0")); i += 1; k += 1
                }
                out.append(UInt8(truncatingIfNeeded: value))
            default: out.append(e)  // \\ \" \' and any other character stand for themselves
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }

    @inline(__always) static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c | 0x20) &- UInt8(ascii: "a") < 26 || c == UInt8(ascii: "_") || c >= 0x80
    }

    /// Namespaced names (`primvars:st:indices`) lex as one identifier; a `[]` suffix is separate.
    @inline(__always) static func isIdentifierByte(_ c: UInt8) -> Bool {
        isIdentifierStart(c) || isDigit(c) || c == UInt8(ascii: ":")
    }
}

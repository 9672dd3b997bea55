import Foundation

/// A JSON document as glTF validation needs it: objects keep their members in order and keep
/// duplicates, and a number remembers whether it was written as an integer (`1`) or with a fraction
/// or exponent (`1.0`, `1e0`). Foundation's JSONSerialization keeps neither, and glTF's rules ask
/// both ("an index is written as an integer"), so this small recursive-descent parser
/// (RFC 8259) is written here.
indirect enum JSONValue: Sendable {
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    /// `integral`: written without a fraction or an exponent.
    case number(Double, integral: Bool)
    case bool(Bool)
    case null

    /// The glTF schema's name for the value's type, as messages give it.
    var typeName: String {
        switch self {
        case .object: return "object"
        case .array: return "array"
        case .string: return "string"
        case .number(_, let integral): return integral ? "integer" : "number"
        case .bool: return "boolean"
        case .null: return "null"
        }
    }

    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var members: [(key: String, value: JSONValue)]? { if case .object(let m) = self { m } else { nil } }
    var elements: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    var string: String? { if case .string(let s) = self { s } else { nil } }
    var number: Double? { if case .number(let n, _) = self { n } else { nil } }
    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }

    /// An integer as glTF's schema means it: a number with no fractional part that fits an Int,
    /// whether or not it was written with one.
    var integer: Int? {
        guard case .number(let n, _) = self, n.rounded() == n, abs(n) < 9.0e15 else { return nil }
        return Int(n)
    }
}

/// Why a document is not JSON, and where: the byte offset, and the line and column of it.
struct JSONSyntaxError: Error, Sendable {
    var message: String
    var offset: Int
    var line: Int
    var column: Int
}

struct JSONParser {
    /// Deeper nesting than any glTF needs; past it the document is refused rather than risking the stack.
    static let maxDepth = 256

    private let bytes: [UInt8]
    private var at: Int
    private let end: Int

    static func parse(_ bytes: ArraySlice<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: Array(bytes))
        // RFC 8259 forbids a byte-order mark in JSON sent between systems, and the validator refuses one.
        if parser.end >= 3 && parser.bytes[0] == 0xEF && parser.bytes[1] == 0xBB && parser.bytes[2] == 0xBF {
            throw parser.failure("the document starts with a byte-order mark, which JSON does not allow")
        }
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.at == parser.end else { throw parser.failure("unexpected data after the document's end") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        at = 0
        end = bytes.count
    }

    private func failure(_ message: String) -> JSONSyntaxError {
        var line = 1, column = 1
        for b in bytes[0..<min(at, end)] {
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return JSONSyntaxError(message: message, offset: at, line: line, column: column)
    }

    private mutating func skipSpace() {
        while at < end, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 { at += 1 }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < Self.maxDepth else { throw failure("nesting deeper than \(Self.maxDepth) levels") }
        guard at < end else { throw failure("unexpected end of data") }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character '\(Self.printable(bytes[at]))'")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let expected = Array(word.utf8)
        guard end - at >= expected.count else { throw failure("unexpected end of data") }
        for k in 0..<expected.count where bytes[at + k] != expected[k] { throw failure("unexpected character '\(Self.printable(bytes[at + k]))'") }
        at += expected.count
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        at += 1
        var members: [(key: String, value: JSONValue)] = []
        skipSpace()
        if at < end && bytes[at] == UInt8(ascii: "}") { at += 1; return .object(members) }
        while true {
            skipSpace()
            guard at < end, bytes[at] == UInt8(ascii: "\"") else { throw failure("expected a member name in quotes") }
            let key = try string()
            skipSpace()
            guard at < end, bytes[at] == UInt8(ascii: ":") else { throw failure("expected ':' after a member name") }
            at += 1
            skipSpace()
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard at < end else { throw failure("unexpected end of data inside an object") }
            if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
            if bytes[at] == UInt8(ascii: "}") { at += 1; return .object(members) }
            throw failure("expected ',' or '}' in an object")
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        at += 1
        var elements: [JSONValue] = []
        skipSpace()
        if at < end && bytes[at] == UInt8(ascii: "]") { at += 1; return .array(elements) }
        while true {
            skipSpace()
            elements.append(try value(depth: depth + 1))
            skipSpace()
            guard at < end else { throw failure("unexpected end of data inside an array") }
            if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
            if bytes[at] == UInt8(ascii: "]") { at += 1; return .array(elements) }
            throw failure("expected ',' or ']' in an array")
        }
    }

    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = at
        var integral = true
        if bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard at < end, Self.isDigit(bytes[at]) else { throw failure("a number needs digits") }
        if bytes[at] == UInt8(ascii: "0") {
            at += 1
            if at < end && Self.isDigit(bytes[at]) { throw failure("a number may not start with 0") }
        } else {
            while at < end && Self.isDigit(bytes[at]) { at += 1 }
        }
        if at < end && bytes[at] == UInt8(ascii: ".") {
            integral = false
            at += 1
            guard at < end, Self.isDigit(bytes[at]) else { throw failure("a fraction needs digits") }
            while at < end && Self.isDigit(bytes[at]) { at += 1 }
        }
        if at < end && (bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E")) {
            integral = false
            at += 1
            if at < end && (bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-")) { at += 1 }
            guard at < end, Self.isDigit(bytes[at]) else { throw failure("an exponent needs digits") }
            while at < end && Self.isDigit(bytes[at]) { at += 1 }
        }
        let text = String(decoding: bytes[start..<at], as: UTF8.self)
        guard let value = Double(text) else { throw failure("'\(text)' is not a number") }
        return .number(value, integral: integral)
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        at += 1
        let start = at
        // The common case, no escapes: one copy of the bytes.
        while at < end && bytes[at] != UInt8(ascii: "\"") && bytes[at] != UInt8(ascii: "\\") && bytes[at] >= 0x20 { at += 1 }
        if at < end && bytes[at] == UInt8(ascii: "\"") {
            defer { at += 1 }
            return try Self.utf8(bytes[start..<at], parser: self)
        }
        var out = Array(bytes[start..<at])
        while true {
            guard at < end else { throw failure("a string runs to the end of the data") }
            let b = bytes[at]
            if b == UInt8(ascii: "\"") { at += 1; return try Self.utf8(out[...], parser: self) }
            if b < 0x20 { throw failure("a control character inside a string") }
            if b != UInt8(ascii: "\\") { out.append(b); at += 1; continue }
            at += 1
            guard at < end else { throw failure("a string runs to the end of the data") }
            let e = bytes[at]
            at += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar), end - at >= 6, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") {
                    at += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw failure("a high surrogate without its low half") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw failure("an unpaired surrogate \\u\(String(scalar, radix: 16))") }
                out.append(contentsOf: Array(String(Character(unicode)).utf8))
            default:
                throw failure("an unknown escape '\\\(Self.printable(e))'")
            }
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard end - at >= 4 else { throw failure("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[at]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw failure("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
            at += 1
        }
        return value
    }

    private static func utf8(_ raw: ArraySlice<UInt8>, parser: JSONParser) throws(JSONSyntaxError) -> String {
        guard let text = String(validating: raw, as: UTF8.self) else { throw parser.failure("a string is not valid UTF-8") }
        return text
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private static func printable(_ b: UInt8) -> String {
        b >= 0x20 && b < 0x7F ? String(UnicodeScalar(b)) : "0x" + String(b, radix: 16)
    }
}

/// RFC 6901 pointers, as the Khronos validator locates its findings (`/accessors/0/min`).
enum JSONPointer {
    static func escape(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    static func join(_ base: String, _ key: String) -> String { base + "/" + escape(key) }
    static func join(_ base: String, _ index: Int) -> String { base + "/" + String(index) }
}

import AssetCore
import Foundation

/// A PLY header: the encoding, then each element with its count and properties, in file order.
/// Elements assetc does not use (edges, materials, anything) are kept so their bytes can be skipped.
struct PLYHeader {
    enum Encoding { case ascii, binaryLittleEndian, binaryBigEndian }

    enum ScalarType: String {
        case int8, uint8, int16, uint16, int32, uint32, float32, float64

        /// Both spellings the format allows (`uchar` and `uint8`, `float` and `float32`, ...).
        init?(name: String) {
            switch name {
            case "char", "int8": self = .int8
            case "uchar", "uint8": self = .uint8
            case "short", "int16": self = .int16
            case "ushort", "uint16": self = .uint16
            case "int", "int32": self = .int32
            case "uint", "uint32": self = .uint32
            case "float", "float32": self = .float32
            case "double", "float64": self = .float64
            default: return nil
            }
        }

        /// What a colour stored in this type is divided by to fall in 0...1: integers span their
        /// range, floats are taken as they are.
        var colourRange: Double {
            switch self {
            case .uint8, .int8: return 255
            case .uint16, .int16: return 65535
            default: return 1
            }
        }

        var size: Int {
            switch self {
            case .int8, .uint8: return 1
            case .int16, .uint16: return 2
            case .int32, .uint32, .float32: return 4
            case .float64: return 8
            }
        }
    }

    struct Property {
        var name: String
        var type: ScalarType
        /// For list properties, the type of the count that precedes the items.
        var countType: ScalarType?
    }

    struct Element {
        var name: String
        var count: Int
        var properties: [Property]
        var line: Int
    }

    var encoding: Encoding
    var elements: [Element]
    /// Offset of the first byte after `end_header` and its newline.
    var bodyStart: Int
    /// Line of the first body line, for ASCII error locations.
    var bodyLine: Int

    /// How far into the file `end_header` is looked for.
    static let searchLimit = 1 << 16

    init(bytes: [UInt8], file: String) throws(AssetError) {
        var lines: [(text: Substring, number: Int)] = []
        var i = 0, number = 1, lineStart = 0
        var end: Int?
        // The header is text up to `end_header`; 64 KiB is far more than any real one.
        let limit = min(bytes.count, Self.searchLimit)
        while i < limit {
            if bytes[i] == 0x0A {
                let text = String(decoding: bytes[lineStart..<i], as: UTF8.self)
                let trimmed = text.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
                lines.append((Substring(trimmed), number))
                number += 1
                lineStart = i + 1
                if trimmed == "end_header" { end = i + 1; break }
            }
            i += 1
        }
        guard let bodyStart = end else {
            throw AssetError(.malformed("no 'end_header' in the first \(limit) bytes"), at: SourceLocation(file: file, line: 1))
        }
        self.bodyStart = bodyStart
        bodyLine = number
        guard lines.first?.text == "ply" else { throw AssetError(.malformed("a PLY file starts with 'ply'"), at: SourceLocation(file: file, line: 1)) }
        var encoding: Encoding?
        var elements: [Element] = []
        for (text, line) in lines.dropFirst() {
            let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            let here = SourceLocation(file: file, line: line)
            switch words.first {
            case "format"?:
                guard words.count >= 3 else { throw AssetError(.malformed("format needs an encoding and a version"), at: here) }
                switch words[1] {
                case "ascii": encoding = .ascii
                case "binary_little_endian": encoding = .binaryLittleEndian
                case "binary_big_endian": encoding = .binaryBigEndian
                default: throw AssetError(.malformed("unknown PLY encoding '\(words[1])'"), at: here)
                }
            case "element"?:
                guard words.count == 3, let count = Int(words[2]), count >= 0 else {
                    throw AssetError(.malformed("'element' takes a name and a count"), at: here)
                }
                elements.append(Element(name: words[1], count: count, properties: [], line: line))
            case "property"?:
                guard !elements.isEmpty else { throw AssetError(.malformed("a property before any element"), at: here) }
                if words.count == 5, words[1] == "list" {
                    guard let countType = ScalarType(name: words[2]), let type = ScalarType(name: words[3]) else {
                        throw AssetError(.malformed("unknown list types '\(words[2]) \(words[3])'"), at: here)
                    }
                    guard countType != .float32 && countType != .float64 else { throw AssetError(.malformed("a list count must be an integer type"), at: here) }
                    elements[elements.count - 1].properties.append(Property(name: words[4], type: type, countType: countType))
                } else if words.count == 3, let type = ScalarType(name: words[1]) {
                    elements[elements.count - 1].properties.append(Property(name: words[2], type: type))
                } else {
                    throw AssetError(.malformed("cannot read property '\(text)'"), at: here)
                }
            case "comment"?, "obj_info"?, "end_header"?, nil:
                continue
            default:
                throw AssetError(.malformed("unknown header line '\(text.prefix(40))'"), at: here)
            }
        }
        guard let encoding else { throw AssetError(.malformed("no 'format' line"), at: SourceLocation(file: file, line: 2)) }
        self.encoding = encoding
        self.elements = elements
    }
}

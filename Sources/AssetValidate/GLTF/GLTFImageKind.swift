/// The image formats a glTF texture may hold (PNG and JPEG in the core, WebP with EXT_texture_webp,
/// KTX2 with KHR_texture_basisu), told by their first bytes, and their sizes from their headers.
enum GLTFImageKind {
    case png, jpeg, webp, ktx2

    static func detect(_ b: [UInt8]) -> GLTFImageKind? {
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) { return .webp }
        if b.starts(with: [0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A]) { return .ktx2 }
        return nil
    }

    var mimeType: String {
        switch self {
        case .png: return "image/png"
        case .jpeg: return "image/jpeg"
        case .webp: return "image/webp"
        case .ktx2: return "image/ktx2"
        }
    }

    /// Width and height, nil when the header is broken or cut short.
    func dimensions(_ b: [UInt8]) -> (Int, Int)? {
        switch self {
        case .png, .jpeg:
            return ImageHeader.dimensions(b)
        case .ktx2:
            guard b.count >= 28 else { return nil }
            return (Self.little(b, 20, 4), Self.little(b, 24, 4))
        case .webp:
            guard b.count >= 30 else { return nil }
            switch String(decoding: b[12..<16], as: UTF8.self) {
            case "VP8 ": return (Self.little(b, 26, 2) & 0x3FFF, Self.little(b, 28, 2) & 0x3FFF)
            case "VP8L":
                guard b[20] == 0x2F else { return nil }
                let bits = Self.little(b, 21, 4)
                return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
            case "VP8X": return (Self.little(b, 24, 3) + 1, Self.little(b, 27, 3) + 1)
            default: return nil
            }
        }
    }

    /// What a PNG holds that glTF viewers need not honour: animation (APNG's acTL), a colour space
    /// of its own (iCCP, cHRM), pixels that are not square (pHYs); nil for none or another format.
    func unsupportedFeatures(_ b: [UInt8]) -> String? {
        guard self == .png else { return nil }
        var found: [String] = []
        var at = 8
        while at + 12 <= b.count {
            let length = Self.big(b, at), type = String(decoding: b[(at + 4)..<(at + 8)], as: UTF8.self)
            guard length >= 0, length <= b.count - at - 12 else { break }
            switch type {
            case "acTL": found.append("animation (acTL)")
            case "iCCP", "cHRM": found.append("its own colour space (\(type))")
            case "pHYs" where length >= 9 && Self.big(b, at + 8) != Self.big(b, at + 12): found.append("non-square pixels (pHYs)")
            case "IDAT", "IEND": return found.isEmpty ? nil : found.joined(separator: ", ")
            default: break
            }
            at += 12 + length
        }
        return found.isEmpty ? nil : found.joined(separator: ", ")
    }

    private static func big(_ b: [UInt8], _ at: Int) -> Int {
        (0..<4).reduce(0) { $0 << 8 | Int(b[at + $1]) }
    }

    /// Whether the bytes end before the header does (rather than being wrong).
    func truncated(_ b: [UInt8]) -> Bool {
        switch self {
        case .png: return b.count < 24
        case .jpeg: return Self.jpegRunsOut(b)
        case .webp: return b.count < 30
        case .ktx2: return b.count < 28
        }
    }

    /// Whether a JPEG whose frame header could not be read ends inside its marker segments (cut
    /// short) rather than breaking their syntax first: a byte where a marker belongs, or a
    /// segment length below 2, is damaged data, as the Khronos validator grades it.
    private static func jpegRunsOut(_ b: [UInt8]) -> Bool {
        var i = 2
        while i + 1 < b.count {
            guard b[i] == 0xFF else { return false }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0x00 { return false }
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { i += 2; continue }
            guard i + 3 < b.count else { return true }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2 else { return false }
            i += 2 + length
        }
        return true
    }

    private static func little(_ b: [UInt8], _ at: Int, _ count: Int) -> Int {
        (0..<count).reduce(0) { $0 | Int(b[at + $1]) << (8 * $1) }
    }
}

/// Bytes of buffer views, every range checked against what the buffer holds.
enum GLTFBytes {
    static func view(_ view: JSONValue, buffers: [ArraySlice<UInt8>?]) -> ArraySlice<UInt8>? {
        guard let buffer = view["buffer"]?.integer, buffers.indices.contains(buffer), let bytes = buffers[buffer],
              let length = view["byteLength"]?.integer, length >= 0 else { return nil }
        let offset = view["byteOffset"]?.integer ?? 0
        guard offset >= 0, offset <= bytes.count, length <= bytes.count - offset else { return nil }
        let start = bytes.startIndex + offset
        return bytes[start..<(start + length)]
    }
}

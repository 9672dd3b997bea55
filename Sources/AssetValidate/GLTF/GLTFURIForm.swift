/// What a `uri` is before anything is loaded from it, judged as the Khronos validator's URI parser
/// judges it: a `data:` URI whose header and payload parse, a relative reference, a URI with a
/// scheme or an absolute path (which the validator names and does not load), or no URI at all.
enum GLTFURIForm: Equatable {
    case data(mediaType: String, base64: Bool)
    case relative
    case nonRelative
    case invalid(String)

    init(_ text: String) {
        if text.hasPrefix("data:") {
            self = Self.dataForm(text.dropFirst(5))
        } else if text.hasPrefix(":") {
            self = .invalid("the scheme before ':' is empty")
        } else if text.removingPercentEncoding == nil || text.contains(" ") || text.contains("\\") {
            self = .invalid("it is not a URI reference (percent-encode spaces and '%')")
        } else if text.firstRange(of: /^[A-Za-z][A-Za-z0-9+.\-]*:/) != nil || text.hasPrefix("/") {
            self = .nonRelative
        } else {
            self = .relative
        }
    }

    var isLoadable: Bool {
        switch self {
        case .data, .relative: return true
        case .nonRelative, .invalid: return false
        }
    }

    /// RFC 2397: `[type/subtype] *(;name=value) [;base64] , payload`.
    private static func dataForm(_ rest: Substring) -> GLTFURIForm {
        guard let comma = rest.firstIndex(of: ",") else { return .invalid("a data: URI needs ',' before its payload") }
        var parts = rest[..<comma].split(separator: ";", omittingEmptySubsequences: false)
        let mediaType = String(parts.removeFirst())
        if !mediaType.isEmpty && mediaType.split(separator: "/", omittingEmptySubsequences: false).count != 2 {
            return .invalid("'\(mediaType.prefix(40))' is not a type/subtype")
        }
        var base64 = false
        for (k, part) in parts.enumerated() {
            if k == parts.count - 1 && part == "base64" { base64 = true; continue }
            guard let equals = part.firstIndex(of: "="), equals != part.startIndex else {
                return .invalid("the data: URI parameter '\(part.prefix(40))' is not name=value")
            }
        }
        if base64 {
            let payload = rest[rest.index(after: comma)...].utf8
            var padding = 0
            for byte in payload {
                switch byte {
                case UInt8(ascii: "="): padding += 1
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                     UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    if padding > 0 { return .invalid("the base64 payload goes on after its '=' padding") }
                default:
                    return .invalid("the base64 payload holds '\(Character(Unicode.Scalar(byte)))'")
                }
            }
            if padding > 2 { return .invalid("the base64 payload ends in \(padding) '='") }
        }
        return .data(mediaType: mediaType, base64: base64)
    }
}

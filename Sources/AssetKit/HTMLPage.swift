/// What the HTML the CLI writes (the thumbnail gallery) and the service serves have in common.
public enum HTMLPage {
    /// Text made safe for element content and double-quoted attribute values.
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    /// The look both galleries share: the page's type and the checkerboard behind transparent
    /// thumbnails, so empty pixels read as empty.
    public static let baseStyle = """
        body { font: 14px system-ui, sans-serif; background: #f4f4f2; color: #222 }
        img.thumbnail { display: block; aspect-ratio: 1; background: repeating-conic-gradient(#eee 0 25%, #fff 0 50%) 0 0 / 16px 16px }
        .muted { color: #666 }
        .error { color: #a11 }
        """
}

/// Formats assetc does not read but can name, so the error says "this is a PNG image" rather than
/// only "unknown". Recognised by their magic bytes.
enum ForeignFormat {
    static func recognise(prefix: [UInt8]) -> String? {
        func starts(_ magic: String) -> Bool { prefix.starts(with: Array(magic.utf8)) }
        if starts("\u{89}PNG") { return "a PNG image" }
        if prefix.starts(with: [0xFF, 0xD8, 0xFF]) { return "a JPEG image" }
        if starts("PK\u{03}\u{04}") { return "a zip archive" }
        return nil
    }
}

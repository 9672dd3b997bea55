import AssetCore

/// The rules every key meets before it is read, written or staged: a relative path that cannot
/// climb out of its prefix and that no file system or page mangles.
public enum ObjectKey {
    /// S3's own limit on a whole key, prefix included.
    public static let maxBytes = 1024

    /// Why `key` (relative to a store's root) is refused, or nil when it is a plain relative
    /// path: not empty, at most 1,024 bytes, no control characters, no empty, `.` or `..`
    /// component, not absolute. Unicode is kept as written: `é` composed and decomposed are two
    /// keys in S3 and two names on Linux, so they stay two objects rather than one overwriting
    /// the other.
    public static func problem(_ key: String) -> String? {
        if key.isEmpty { return "an empty key" }
        if key.utf8.count > maxBytes { return "a key of \(key.utf8.count) bytes (at most \(maxBytes))" }
        if key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "a key with control characters" }
        if key.hasPrefix("/") { return "an absolute key" }
        for part in key.split(separator: "/", omittingEmptySubsequences: false) {
            if part.isEmpty { return "a key with an empty path component" }
            if part == "." || part == ".." { return "a key with a '\(part)' component" }
        }
        return nil
    }

    /// `key` when `problem` has nothing to say, else a `refusedPath` error naming where.
    public static func checked(_ key: String, in location: String) throws(AssetError) -> String {
        if let problem = problem(key) {
            throw AssetError(.refusedPath("\(problem) under \(location)"), at: SourceLocation(file: location + "/" + printable(key)))
        }
        return key
    }

    /// The key with control characters shown as `\u{..}` and cut to 200 characters: keys come
    /// from a bucket anyone with write access filled, and end up in terminals and logs.
    public static func printable(_ key: String) -> String {
        var out = ""
        for scalar in key.unicodeScalars.prefix(200) {
            if scalar.value < 0x20 || scalar.value == 0x7F { out += "\\u{\(String(scalar.value, radix: 16))}" } else { out.unicodeScalars.append(scalar) }
        }
        return key.unicodeScalars.count > 200 ? out + "…" : out
    }

    /// `prefix` and `key` joined with one slash (an empty prefix adds none).
    public static func join(_ prefix: String, _ key: String) -> String {
        prefix.isEmpty ? key : prefix + "/" + key
    }
}

/// Where a layer or texture lives: a file on disk, or an entry of a usdz package (which may itself
/// be an entry of another package).
package indirect enum AssetLocation: Sendable, Hashable, CustomStringConvertible {
    case file(path: String)
    case packageEntry(package: AssetLocation, entry: String)

    /// How errors name it: `head.usdz[geom/head.usda]`, as OpenUSD writes package-relative paths.
    package var description: String {
        switch self {
        case .file(let path): return path
        case .packageEntry(let package, let entry): return "\(package)[\(entry)]"
        }
    }

    /// The entry's folder inside its package, or the file's folder on disk.
    var directory: String {
        switch self {
        case .file(let path): return PathArithmetic.directory(of: path)
        case .packageEntry(_, let entry): return PathArithmetic.directory(of: entry)
        }
    }
}

/// Path arithmetic on '/'-separated strings: no file system access, so it can be applied to
/// package entries and checked before anything is opened.
enum PathArithmetic {
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// Removes `.` and `..`. A relative path keeps the `..` it starts with (`../models/a.usda`);
    /// nil when `..` climbs above the root of an absolute path.
    static func normalize(_ path: String) -> String? {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part == ".." {
                if absolute { return nil }
                parts.append(part)
            } else {
                parts.append(part)
            }
        }
        return (absolute ? "/" : "") + parts.joined(separator: "/")
    }

    /// `normalize` for paths that must stay below their start, such as package entries: nil when
    /// the result climbs out.
    static func normalizeBelow(_ path: String) -> String? {
        guard let normalized = normalize(path), !normalized.hasPrefix("/"),
              normalized != "..", !normalized.hasPrefix("../") else { return nil }
        return normalized
    }

    static func join(_ directory: String, _ relative: String) -> String {
        directory.isEmpty ? relative : directory + "/" + relative
    }

    /// Whether `path` is `root` or below it (both normalized).
    static func isInside(_ path: String, root: String) -> Bool {
        if root.isEmpty || root == "/" { return true }
        return path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }
}

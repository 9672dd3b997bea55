import AssetCore

/// Where a layer or texture lives: a file on disk, or an entry of a usdz package (which may itself
/// be an entry of another package).
public indirect enum AssetLocation: Sendable, Hashable, CustomStringConvertible {
    case file(path: String)
    case packageEntry(package: AssetLocation, entry: String)

    /// How errors name it: `head.usdz[geom/head.usda]`, as OpenUSD writes package-relative paths.
    public var description: String {
        switch self {
        case .file(let path): return path
        case .packageEntry(let package, let entry): return "\(package)[\(entry)]"
        }
    }

    /// How a read's messages name it: `description`, with a file in a staged folder named by the
    /// `s3://` location it stands for.
    public func named(by staged: StagedFiles) -> String {
        switch self {
        case .file(let path): return staged.name(ofPath: path)
        case .packageEntry(let package, let entry): return "\(package.named(by: staged))[\(entry)]"
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
public enum PathArithmetic {
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// Removes `.` and `..`. A relative path keeps the `..` it starts with (`../models/a.usda`);
    /// nil when `..` climbs above the root of an absolute path.
    public static func normalize(_ path: String) -> String? {
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
    public static func normalizeBelow(_ path: String) -> String? {
        guard let normalized = normalize(path), !normalized.hasPrefix("/"),
              normalized != "..", !normalized.hasPrefix("../") else { return nil }
        return normalized
    }

    public static func join(_ directory: String, _ relative: String) -> String {
        directory.isEmpty ? relative : directory + "/" + relative
    }

    /// Whether `path` is `root` or below it (both normalized).
    public static func isInside(_ path: String, root: String) -> Bool {
        if root.isEmpty || root == "/" { return true }
        return path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// The relative path that leads from the folder `directory` to `path` (both normalized and
    /// relative to the same root): `relative(from: "a/b", to: "a/c/d.png")` is `../c/d.png`.
    public static func relative(from directory: String, to path: String) -> String {
        let from = directory.split(separator: "/")
        let to = path.split(separator: "/")
        var common = 0
        while common < from.count, common < to.count - 1, from[common] == to[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        return (ups + to[common...].map(String.init)).joined(separator: "/")
    }
}

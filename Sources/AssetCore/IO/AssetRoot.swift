import Foundation

/// The folder that references, payloads, sublayers and textures may resolve under. Asset
/// libraries keep shared layers, materials and textures in sibling folders (`_common/`,
/// `materials/`), so the asset's own folder is too tight a fence for them; the library's root is
/// the right one, and nothing outside it is read unless a caller allows paths outside.
public enum AssetRoot: Sendable, Equatable {
    /// The folder of the file being read: the tightest fence, and what a library caller gets unless
    /// it says otherwise.
    case assetFolder
    /// One folder for every asset read (`--asset-root`, or the folder `index` and `serve` walk).
    case folder(String)
    /// The current directory when the asset lies under it, else the asset's own folder: what a
    /// user running `assetc info` from a library's root expects.
    case currentDirectoryOrAssetFolder

    /// The absolute, symlink-free folder for `file`. Symlinks are resolved before any check, so a
    /// link inside the root that points outside it does not widen the fence.
    public func folder(for file: String) -> String {
        let asset = Self.real(file)
        let assetFolder = Self.folder(ofResolved: asset)
        switch self {
        case .assetFolder:
            return assetFolder
        case .folder(let path):
            return Self.real(path)
        case .currentDirectoryOrAssetFolder:
            let current = Self.realCurrentDirectory()
            return Self.contains(current, asset) ? current : assetFolder
        }
    }

    /// The folder part of a path `real` gave: absolute, no `.`, `..` or doubled slashes. NSString's
    /// deletingLastPathComponent gives the same, at a percent of validating a folder of small
    /// packages for its slash fixing.
    static func folder(ofResolved path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.utf8.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// Whether `path` (absolute, symlink-free) is `root` or lies under it.
    public static func contains(_ root: String, _ path: String) -> Bool {
        root == "/" || path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// Absolute, `.`/`..` collapsed and symlinks followed. realpath(3) answers for paths that
    /// exist, at a tenth of Foundation's URL cost (every read and every resolved reference asks);
    /// a path that does not exist yet goes through URL, which resolves what it can.
    public static func real(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// `real(path)` for a reader: a path in one of the read's staged folders is fetched first, so a
    /// reference into a bucket prefix is there to resolve (or missing, as the reader will say).
    public static func real(_ path: String, staged: StagedFiles) -> String {
        staged.prepare(path)
        return real(path)
    }

    /// The current directory with symlinks resolved, once per directory the process is in: every
    /// file read asks, and resolving it each time (getcwd and a readlink per component) was a
    /// share of validating a folder of small packages. Only the current directory is kept; file
    /// paths are resolved afresh on every read, so a link changed meanwhile is seen.
    static func realCurrentDirectory() -> String {
        let current = FileManager.default.currentDirectoryPath
        if let known = resolvedCurrentDirectories.withLock({ $0[current] }) { return known }
        let resolved = real(current)
        resolvedCurrentDirectories.withLock { $0[current] = resolved }
        return resolved
    }

    private static let resolvedCurrentDirectories = Locked<[String: String]>([:])

    /// The sentence a refused path's warning ends with: where the fence is and how to move it.
    public static func refusal(_ authored: String, root: String) -> String {
        "'\(authored)' is outside the asset root \(root) (--asset-root DIR widens it, --allow-outside-paths lifts it)"
    }
}

extension ReadOptions {
    /// `AssetRoot.refusal` with the root named as this read names files (a staged root by the
    /// `s3://` prefix it stands for).
    public func refusal(_ authored: String, root: String) -> String { staged.refusal(authored, root: root) }

    /// These options for the assets of a walked folder: a root set for every folder stays,
    /// otherwise the folder itself is the root.
    public func rooted(at folder: String) -> ReadOptions {
        if case .folder = assetRoot { return self }
        var rooted = self
        rooted.assetRoot = .folder(folder)
        return rooted
    }
}

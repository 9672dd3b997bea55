import Synchronization

/// What fills a staged folder on demand: a bucket prefix mirrored into a private local folder, one
/// object at a time, as the readers ask for files.
public protocol StagedFolderSource: Sendable {
    /// Brings `relativePath` (slash-separated, normalised, under the folder) into the folder if
    /// it exists at the source and is not there yet. A missing object leaves the path missing, so
    /// the reader's own "not found" warning names it.
    func materialize(relativePath: String)
    /// The object at `relativePath` when it is to be read by ranges instead of from its local file
    /// (a large usdz package); nil for a file to read as usual.
    func rangedObject(relativePath: String) -> (any RangedObject)?
    /// Replaces a ranged object's local stand-in with its whole bytes, for a reader that opens
    /// the file itself.
    func materializeWhole(relativePath: String)
}

extension StagedFolderSource {
    public func rangedObject(relativePath: String) -> (any RangedObject)? { nil }
    public func materializeWhole(relativePath: String) {}
}

/// Local folders whose files arrive when a reader first resolves them. Every reader resolves a
/// reference through `AssetRoot.real` before its root check, so staging there lets the USD,
/// glTF, OBJ, Collada and FBX readers follow references into a bucket without knowing about it:
/// the staged folder is their asset root, and a reference that climbs out of it (`..` past the
/// prefix, an absolute path) is refused by the check they already make.
public enum StagedFolders {
    private static let registered = Mutex<[(folder: String, source: any StagedFolderSource)]>([])
    /// Read without the lock on every `real` call: most processes never stage anything.
    private static let count = Atomic<Int>(0)

    /// Registers `folder` (absolute, symlink-free, no trailing slash) until `unregister`.
    public static func register(folder: String, source: any StagedFolderSource) {
        registered.withLock { $0.append((folder, source)) }
        count.add(1, ordering: .releasing)
    }

    public static func unregister(folder: String) {
        registered.withLock { list in
            if let index = list.firstIndex(where: { $0.folder == folder }) { list.remove(at: index) }
        }
        count.subtract(1, ordering: .releasing)
    }

    /// Asks the source of the staged folder holding `path` (absolute, collapsed) for it. Paths
    /// outside every staged folder, or whose rest is not a plain relative path, are left alone.
    static func prepare(_ path: String) {
        guard let (source, rest) = staged(path) else { return }
        source.materialize(relativePath: rest)
    }

    /// The object behind `path` when its source reads it by ranges (`USDZArchive` opens such a
    /// package from its central directory); nil for every other path.
    package static func rangedObject(at path: String) -> (any RangedObject)? {
        guard let (source, rest) = staged(path) else { return nil }
        return source.rangedObject(relativePath: rest)
    }

    /// Called before a file is opened for its bytes: a ranged object's local stand-in has the
    /// object's size but none of its bytes, so whatever opens it as a file gets the whole object.
    static func prepareWhole(_ path: String) {
        guard let (source, rest) = staged(path) else { return }
        source.materializeWhole(relativePath: rest)
    }

    private static func staged(_ path: String) -> (any StagedFolderSource, String)? {
        guard count.load(ordering: .acquiring) > 0, path.hasPrefix("/") else { return nil }
        // Readers join before they resolve (`folder/../x.png`); nothing staged is a symlink, so
        // collapsing by the letters is what realpath will do once the file is there.
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        let collapsed = "/" + parts.joined(separator: "/")
        let match = registered.withLock { list in
            list.first { collapsed.hasPrefix($0.folder + "/") }
        }
        guard let (folder, source) = match else { return nil }
        let rest = String(collapsed.dropFirst(folder.count + 1))
        return rest.isEmpty ? nil : (source, rest)
    }
}

import Foundation

/// What fills a staged folder on demand: a bucket prefix mirrored into a private local folder, one
/// object at a time, as the readers ask for files.
public protocol StagedFolderSource: AnyObject, Sendable {
    /// What the folder stands for, as messages name it (`s3://bucket/prefix`).
    var location: String { get }
    /// Brings `relativePath` (slash-separated, normalised, under the folder) into the folder if
    /// it exists at the source and is not there yet. A missing object leaves the path missing, so
    /// the reader's own "not found" warning names it.
    func materialize(relativePath: String)
    /// The object at `relativePath` when it is to be read by ranges instead of from its local file
    /// (a large usdz package); nil for a file to read as usual.
    func rangedBytes(relativePath: String) -> (any RangedBytes)?
    /// Replaces a ranged object's local stand-in with its whole bytes, for a reader that opens
    /// the file itself.
    func materializeWhole(relativePath: String)
}

extension StagedFolderSource {
    public func rangedBytes(relativePath: String) -> (any RangedBytes)? { nil }
    public func materializeWhole(relativePath: String) {}
}

/// The staged folders one read may meet, carried in its `ReadOptions` (`staged`): local folders
/// whose files arrive when a reader first resolves them. Every reader resolves a reference through
/// `AssetRoot.real(_:staged:)` before its root check and opens files through `FileBytes`,
/// `MappedFile` or `RegularFile` with the same value, so the USD, glTF, OBJ, Collada and FBX
/// readers follow references into a bucket without knowing about it: the staged folder is their
/// asset root, and a reference that climbs out of it (`..` past the prefix, an absolute path) is
/// refused by the check they already make. A read given none touches only the local disk.
public struct StagedFiles: Sendable, Equatable {
    private var entries: [(folder: String, source: any StagedFolderSource)] = []

    /// No staged folder: paths are local files.
    public static let none = StagedFiles()

    public init() {}

    /// `folder` (absolute, symlink-free, no trailing slash) filled by `source`.
    public init(folder: String, source: any StagedFolderSource) {
        entries = [(folder, source)]
    }

    /// These folders and `other`'s.
    public func adding(_ other: StagedFiles) -> StagedFiles {
        var joined = self
        for entry in other.entries where !joined.entries.contains(where: { $0.folder == entry.folder }) { joined.entries.append(entry) }
        return joined
    }

    public var isEmpty: Bool { entries.isEmpty }

    public static func == (a: StagedFiles, b: StagedFiles) -> Bool {
        a.entries.count == b.entries.count && zip(a.entries, b.entries).allSatisfy { $0.folder == $1.folder && $0.source === $1.source }
    }

    /// Asks the source of the staged folder holding `path` (absolute) for it. Paths outside every
    /// staged folder, or whose rest is not a plain relative path, are left alone.
    func prepare(_ path: String) {
        guard let (source, rest) = staged(path) else { return }
        source.materialize(relativePath: rest)
    }

    /// The object behind `path` when its source reads it by ranges (`USDZArchive` opens such a
    /// package from its central directory); nil for every other path.
    package func rangedBytes(at path: String) -> (any RangedBytes)? {
        guard let (source, rest) = staged(path) else { return nil }
        return source.rangedBytes(relativePath: rest)
    }

    /// Called before a file is opened for its bytes: a ranged object's local stand-in has the
    /// object's size but none of its bytes, so whatever opens it as a file gets the whole object.
    func prepareWhole(_ path: String) {
        guard let (source, rest) = staged(path) else { return }
        source.materializeWhole(relativePath: rest)
    }

    /// The location a path in a staged folder stands for (`s3://bucket/prefix/key`), nil for a
    /// path in none: what readers name the files they read in their warnings and errors, so a
    /// message names the bucket from the moment it is made, never a staging folder.
    public func location(of path: String) -> String? {
        guard !entries.isEmpty, path.hasPrefix("/") else { return nil }
        let collapsed = Self.collapsed(path)
        if let entry = entries.first(where: { $0.folder == collapsed }) { return entry.source.location }
        guard let (source, rest) = staged(path) else { return nil }
        return source.location + "/" + rest
    }

    /// `location(of:)`, else the path itself.
    public func name(ofPath path: String) -> String { location(of: path) ?? path }

    /// How messages name the file at `url`: its location when staged, else the path as given.
    public func name(of url: URL) -> String { location(of: url.path) ?? url.relativePath }

    /// `AssetRoot.refusal` with a staged root named by the location it stands for.
    public func refusal(_ authored: String, root: String) -> String {
        AssetRoot.refusal(authored, root: name(ofPath: root))
    }

    private func staged(_ path: String) -> (any StagedFolderSource, String)? {
        guard !entries.isEmpty, path.hasPrefix("/") else { return nil }
        let collapsed = Self.collapsed(path)
        guard let entry = entries.first(where: { collapsed.hasPrefix($0.folder + "/") }) else { return nil }
        let rest = String(collapsed.dropFirst(entry.folder.count + 1))
        return rest.isEmpty ? nil : (entry.source, rest)
    }

    /// Readers join before they resolve (`folder/../x.png`); nothing staged is a symlink, so
    /// collapsing by the letters is what realpath will do once the file is there.
    private static func collapsed(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }
}

import AssetCore
import Foundation

/// A folder on this machine as an `ObjectStore`: what a laptop's catalog keeps its thumbnails in,
/// and what lets the same use cases run with no bucket at all.
public struct LocalFileStore: ObjectStore {
    /// Absolute, no trailing slash.
    public let root: String

    public init(root: String) {
        var absolute = URL(fileURLWithPath: root).standardizedFileURL.path
        while absolute.count > 1 && absolute.hasSuffix("/") { absolute.removeLast() }
        self.root = absolute
    }

    public var location: String { root }
    public var isLocal: Bool { true }

    /// The file a key names.
    public func localPath(of key: String) throws(AssetError) -> String {
        root + "/" + (try ObjectKey.checked(key, in: root))
    }

    public func list() throws(AssetError) -> [StoredObject] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var out: [StoredObject] = []
        while let relative = walker.nextObject() as? String {
            var status = stat()
            guard stat(root + "/" + relative, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, ObjectKey.problem(relative) == nil else { continue }
            out.append(StoredObject(key: relative, byteSize: Int64(status.st_size), etag: "",
                                    modifiedAt: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9))
        }
        return out.sorted { $0.key < $1.key }
    }

    public func head(_ key: String) throws(AssetError) -> StoredObject? {
        var status = stat()
        guard stat(try localPath(of: key), &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return StoredObject(key: key, byteSize: Int64(status.st_size), etag: "",
                            modifiedAt: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
    }

    public func read(_ key: String, maxBytes: Int) throws(AssetError) -> [UInt8]? {
        let path = try localPath(of: key)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var limits = ReadLimits()
        limits.maxFileBytes = maxBytes
        return try FileBytes.read(path: path, display: path, budget: ReadBudget(limits))
    }

    public func read(_ key: String, range: Range<Int>, matching etag: String?) throws(AssetError) -> [UInt8]? {
        let path = try localPath(of: key)
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        do {
            try handle.seek(toOffset: UInt64(range.lowerBound))
            return Array(try handle.read(upToCount: range.count) ?? Data())
        } catch {
            throw AssetError(.io("cannot read: \(error.localizedDescription)"), at: SourceLocation(file: path))
        }
    }

    /// Written to a temporary file beside the target, then renamed over it: a reader sees the
    /// old file or the new one, and any number of writers may race to write the same key.
    public func write(_ key: String, bytes: [UInt8], contentType: String) throws(AssetError) {
        let path = try localPath(of: key)
        let folder = (path as NSString).deletingLastPathComponent
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw AssetError(.io("cannot make the folder: \(error.localizedDescription)"), at: SourceLocation(file: folder))
        }
        let temporary = folder + "/.\((path as NSString).lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UInt64.random(in: 0...UInt64.max)).part"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw AssetError(.io("cannot write: \(String(cString: strerror(errno)))"), at: SourceLocation(file: path))
        }
        guard rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw AssetError(.io("cannot write: \(String(cString: strerror(failure)))"), at: SourceLocation(file: path))
        }
    }

    public func remove(_ key: String) throws(AssetError) {
        let path = try localPath(of: key)
        if unlink(path) != 0 && errno != ENOENT {
            throw AssetError(.io("cannot remove: \(String(cString: strerror(errno)))"), at: SourceLocation(file: path))
        }
    }

    public func presignedURL(for key: String, expiresIn seconds: Int) throws(AssetError) -> String? { nil }
}

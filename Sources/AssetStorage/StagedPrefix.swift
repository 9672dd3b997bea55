import AssetCore
import Foundation
import Synchronization

/// A store's objects brought into a private local folder as readers ask for them, so every reader
/// (which reads files, maps them and hands paths to libzip and libxml2) reads a bucket unchanged.
/// The folder stands for the store's root: a model's relative references resolve to keys under
/// the same prefix, and the asset-root check the readers already make refuses whatever climbs
/// out of it. Each object is fetched once per staging, after its size is checked against the
/// read limit, and written whole (temporary file, then rename) before any reader sees it.
public final class StagedPrefix: StagedFolderSource, Sendable {
    public let store: any ObjectStore
    /// Absolute and symlink-free: readers compare real paths with it.
    public let folder: String
    private let maxBytes: Int
    /// usdz packages larger than this are read by ranges (`rangedPackages`); a smaller one is
    /// one GET, fewer requests than its tail, directory and members would take, and the USD
    /// reader reads packages up to this size whole anyway.
    public static let rangedPackageThreshold = 1 << 20
    private let rangedPackages: Bool

    private enum State { case fetching, present, missing, ranged(StoredRangedObject) }
    /// By the key's bytes: `String` equality is canonical, and `é` composed and decomposed are
    /// two objects.
    private let states = Mutex<[[UInt8]: State]>([:])
    private let notes = Mutex<[String]>([])
    private let unavailable = Mutex<AssetError?>(nil)

    /// The private folder `folder` is made in; removed with it.
    private let holder: String

    /// Makes the folder under `parent` (else the temporary folder). Given a
    /// `name` (the prefix's last component), the folder is called that, so what names outputs
    /// after their folder (thumbnail and convert runs over a prefix) names them as for a folder.
    ///
    /// With `rangedPackages`, a usdz over `rangedPackageThreshold` is not fetched: its local file
    /// is a stand-in of the object's size (for the size checks readers make) that `USDZArchive`
    /// reads through `StagedFiles.rangedBytes` by ranged GETs, and that becomes the whole
    /// object the moment anything opens it as a file (validation's layout check, a hash). Callers
    /// that read every byte anyway (the index hashes each object) leave it off.
    public init(store: any ObjectStore, maxBytes: Int, parent: String? = nil, name: String? = nil,
                rangedPackages: Bool = false) throws(AssetError) {
        self.store = store
        self.maxBytes = maxBytes
        self.rangedPackages = rangedPackages
        let base = parent ?? Self.defaultParent
        var template = Array(((base as NSString).appendingPathComponent("assetc-stage-XXXXXX")).utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw AssetError(.io("cannot make a staging folder: \(String(cString: strerror(errno)))"), at: SourceLocation(file: base))
        }
        holder = AssetRoot.real(String(cString: made))
        if let name, ObjectKey.problem(name) == nil, !name.contains("/") {
            folder = holder + "/" + name
            guard mkdir(folder, 0o700) == 0 else {
                throw AssetError(.io("cannot make a staging folder: \(String(cString: strerror(errno)))"), at: SourceLocation(file: folder))
            }
        } else {
            folder = holder
        }
    }

    /// What a read of this staging's files carries in its `ReadOptions.staged`: references it
    /// resolves under the folder are fetched, and what it says names the store's locations.
    public var files: StagedFiles { StagedFiles(folder: folder, source: self) }

    /// The store's location (`s3://bucket/prefix`), which the folder stands for.
    public var location: String { store.location }

    /// `options` for reading this staging's files: the folder (the prefix) is the asset root, and
    /// nothing outside it is read.
    public func readOptions(_ options: ReadOptions) -> ReadOptions {
        var staged = options
        staged.assetRoot = .folder(folder)
        staged.allowsPathsOutsideAsset = false
        staged.staged = files
        return staged
    }

    /// `ASSETC_STAGING_DIR` when set; else `/dev/shm` where it is a writable folder (memory: no
    /// journal writes and deletes for objects that live a batch long, a third of a bucket index's
    /// time on ext4 in the benchmark); else the temporary folder.
    public static let defaultParent: String = {
        if let chosen = ProcessInfo.processInfo.environment["ASSETC_STAGING_DIR"], !chosen.isEmpty { return chosen }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isFolder), isFolder.boolValue, access("/dev/shm", W_OK) == 0 {
            return "/dev/shm"
        }
        return NSTemporaryDirectory()
    }()

    /// Stages `keys` with up to `concurrency` requests in flight: a listing's objects are known
    /// up front, and a request mostly waits on the network, so a batch is fetched while the
    /// cores are free to parse. Each key's outcome, in order.
    public func stage(_ keys: [String], concurrency: Int) -> [Result<String, AssetError>] {
        let outcomes = Mutex([Result<String, AssetError>?](repeating: nil, count: keys.count))
        let next = Atomic<Int>(0)
        let group = DispatchGroup()
        for _ in 0..<max(1, min(concurrency, keys.count)) {
            group.enter()
            Thread.detachNewThread {
                while true {
                    let k = next.add(1, ordering: .relaxed).oldValue
                    guard k < keys.count else { break }
                    let outcome: Result<String, AssetError>
                    do throws(AssetError) { outcome = .success(try self.stage(keys[k])) } catch { outcome = .failure(error) }
                    outcomes.withLock { $0[k] = outcome }
                }
                group.leave()
            }
        }
        group.wait()
        return outcomes.withLock { $0.map { $0! } }
    }

    /// Deletes what was staged.
    public func close() {
        try? FileManager.default.removeItem(atPath: holder)  // a temporary folder: nothing to report if it is already gone
    }

    /// The local file that stands for `key` (staged or not).
    public func localPath(of key: String) -> String { folder + "/" + key }

    /// Brings `key` in and gives its local path; a missing object is `fileNotFound` and any
    /// other failure is thrown, each located at the object's `s3://` name.
    public func stage(_ key: String) throws(AssetError) -> String {
        _ = try ObjectKey.checked(key, in: store.location)
        if case .missing = try fetch(key) { throw AssetError(.fileNotFound, at: SourceLocation(file: store.name(of: key))) }
        return localPath(of: key)
    }

    /// Asked by `AssetRoot.real(_:staged:)` for a reference a reader resolved. Failures other than absence
    /// are kept for `takeNotes`; absence is the reader's to report.
    public func materialize(relativePath: String) {
        guard ObjectKey.problem(relativePath) == nil else { return }
        do throws(AssetError) { _ = try fetch(relativePath) } catch {
            note(error)
        }
    }

    private func note(_ error: AssetError) {
        if case .unavailable = error.kind { unavailable.withLock { $0 = $0 ?? error } }
        notes.withLock { $0.append("\(error)") }
    }

    public func rangedBytes(relativePath: String) -> (any RangedBytes)? {
        guard rangedPackages, ObjectKey.problem(relativePath) == nil else { return nil }
        if case .ranged(let object)? = states.withLock({ $0[Array(relativePath.utf8)] }) { return object }
        return nil
    }

    /// Fetches a ranged package whole over its stand-in. On failure the stand-in is removed, so
    /// the reader that asked meets a missing file (and the note says why) rather than zeros.
    public func materializeWhole(relativePath: String) {
        guard rangedPackages, ObjectKey.problem(relativePath) == nil else { return }
        let bytes = Array(relativePath.utf8)
        while true {
            let object: StoredRangedObject? = states.withLock { map in
                guard case .ranged(let object)? = map[bytes] else { return nil }
                map[bytes] = .fetching
                return object
            }
            guard let object else {
                // Another thread may be replacing the stand-in: wait for it to finish.
                guard case .fetching? = states.withLock({ $0[bytes] }) else { return }
                usleep(2_000)
                continue
            }
            do throws(AssetError) {
                guard let whole = try store.read(relativePath, maxBytes: maxBytes) else { throw AssetError(.fileNotFound, at: SourceLocation(file: object.name)) }
                guard whole.count == object.byteCount else {
                    throw AssetError(.io("the object changed while it was being read (\(object.byteCount) bytes, now \(whole.count)); read it again"),
                                     at: SourceLocation(file: object.name))
                }
                try write(relativePath, bytes: whole)
                states.withLock { $0[bytes] = .present }
            } catch {
                unlink(localPath(of: relativePath))
                states.withLock { $0[bytes] = .missing }
                note(error)
            }
            return
        }
    }

    /// The first "store unreachable" a reference fetch met, if any: what was read meanwhile
    /// lacks that reference through no fault of the asset, so the caller should not record it.
    public var unreachable: AssetError? { unavailable.withLock { $0 } }

    /// What went wrong fetching references since the last call (a reference too large, the store
    /// unreachable), for the caller to add to the read's warnings.
    public func takeNotes() -> [String] {
        notes.withLock { list in defer { list.removeAll() }; return list }
    }

    private func fetch(_ key: String) throws(AssetError) -> State {
        let bytes = Array(key.utf8)
        while true {
            switch claim(bytes) {
            case nil: break
            case .fetching?: usleep(2_000); continue  // another thread is fetching it
            case let done?: return done
            }
            do throws(AssetError) {
                let outcome = try download(key)
                states.withLock { $0[bytes] = outcome }
                return outcome
            } catch {
                states.withLock { $0[bytes] = nil }  // the next reader may try again
                throw error
            }
        }
    }

    /// The key's state, or nil after marking it `fetching` for the caller to fetch.
    private func claim(_ bytes: [UInt8]) -> State? {
        states.withLock { map in
            guard let known = map[bytes] else { map[bytes] = .fetching; return nil }
            return known
        }
    }

    private func download(_ key: String) throws(AssetError) -> State {
        let path = localPath(of: key)
        // A file that is there already is one this staging wrote, or a folder of keys below it.
        if FileManager.default.fileExists(atPath: path) { return .present }
        if rangedPackages, key.lowercased().hasSuffix(".usdz") {
            guard let object = try store.head(key) else { return .missing }
            if object.byteSize > Int64(Self.rangedPackageThreshold) {
                try makeStandIn(key, byteCount: Int(object.byteSize))
                return .ranged(StoredRangedObject(store: store, key: key, byteCount: Int(object.byteSize), etag: object.etag))
            }
        }
        guard let bytes = try store.read(key, maxBytes: maxBytes) else { return .missing }
        try write(key, bytes: bytes)
        return .present
    }

    /// The local store's atomic write: a reader never sees a half-staged file, and a stand-in is
    /// replaced in one rename.
    private func write(_ key: String, bytes: [UInt8]) throws(AssetError) {
        do throws(AssetError) { try LocalFileStore(root: folder).write(key, bytes: bytes, contentType: "") } catch {
            throw AssetError(.io("cannot stage the object: \(error.message)"), at: SourceLocation(file: store.name(of: key)))
        }
    }

    /// A sparse file of the object's size: no bytes are written or held for it.
    private func makeStandIn(_ key: String, byteCount: Int) throws(AssetError) {
        let path = localPath(of: key)
        let here = SourceLocation(file: store.name(of: key))
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        } catch {
            throw AssetError(.io("cannot stage the object: \(error.localizedDescription)"), at: here)
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw AssetError(.io("cannot stage the object: \(String(cString: strerror(errno)))"), at: here) }
        defer { Glibc.close(fd) }
        guard ftruncate(fd, off_t(byteCount)) == 0 else {
            let code = errno
            unlink(path)
            throw AssetError(.io("cannot stage the object: \(String(cString: strerror(code)))"), at: here)
        }
    }
}

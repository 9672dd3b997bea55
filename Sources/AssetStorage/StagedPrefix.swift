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

    private enum State { case fetching, present, missing }
    /// By the key's bytes: `String` equality is canonical, and `é` composed and decomposed are
    /// two objects.
    private let states = Mutex<[[UInt8]: State]>([:])
    private let notes = Mutex<[String]>([])
    private let unavailable = Mutex<AssetError?>(nil)

    /// The private folder `folder` is made in; removed with it.
    private let holder: String

    /// Makes the folder under `parent` (else the temporary folder) and registers it. Given a
    /// `name` (the prefix's last component), the folder is called that, so what names outputs
    /// after their folder (thumbnail and convert runs over a prefix) names them as for a folder.
    public init(store: any ObjectStore, maxBytes: Int, parent: String? = nil, name: String? = nil) throws(AssetError) {
        self.store = store
        self.maxBytes = maxBytes
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
        StagedFolders.register(folder: folder, source: self)
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

    /// Unregisters the folder and deletes what was staged.
    public func close() {
        StagedFolders.unregister(folder: folder)
        try? FileManager.default.removeItem(atPath: holder)  // a temporary folder: nothing to report if it is already gone
    }

    /// The local file that stands for `key` (staged or not).
    public func localPath(of key: String) -> String { folder + "/" + key }

    /// Brings `key` in and gives its local path; a missing object is `fileNotFound` and any
    /// other failure is thrown, each located at the object's `s3://` name.
    public func stage(_ key: String) throws(AssetError) -> String {
        _ = try ObjectKey.checked(key, in: store.location)
        if try fetch(key) == .missing { throw AssetError(.fileNotFound, at: SourceLocation(file: store.name(of: key))) }
        return localPath(of: key)
    }

    /// Asked by `AssetRoot.real` for a reference a reader resolved. Failures other than absence
    /// are kept for `takeNotes`; absence is the reader's to report.
    public func materialize(relativePath: String) {
        guard ObjectKey.problem(relativePath) == nil else { return }
        do throws(AssetError) { _ = try fetch(relativePath) } catch {
            if case .unavailable = error.kind { unavailable.withLock { $0 = $0 ?? error } }
            notes.withLock { $0.append("\(error)") }
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

    /// `text` with the staging folder written as the store's location, so messages name
    /// `s3://bucket/prefix/key` rather than a temporary path.
    public func display(_ text: String) -> String {
        text.replacingOccurrences(of: folder, with: store.location)
    }

    private func fetch(_ key: String) throws(AssetError) -> State {
        let bytes = Array(key.utf8)
        while true {
            let claimed: State? = states.withLock { map in
                switch map[bytes] {
                case nil: map[bytes] = .fetching; return nil
                case .fetching?: return .fetching
                case let done?: return done
                }
            }
            switch claimed {
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

    private func download(_ key: String) throws(AssetError) -> State {
        let path = localPath(of: key)
        // A file that is there already is one this staging wrote, or a folder of keys below it.
        if FileManager.default.fileExists(atPath: path) { return .present }
        guard let bytes = try store.read(key, maxBytes: maxBytes) else { return .missing }
        // The local store's atomic write: a reader never sees a half-staged file.
        do throws(AssetError) { try LocalFileStore(root: folder).write(key, bytes: bytes, contentType: "") } catch {
            throw AssetError(.io("cannot stage the object: \(error.message)"), at: SourceLocation(file: store.name(of: key)))
        }
        return .present
    }
}

import AssetCore
import AssetStorage
import Foundation

/// Where a piece of work reads its assets and writes its outputs: files and folders on this
/// machine as they are, and `s3://` objects and prefixes through the stores a `StoreOpener` opens.
/// A bucket location is staged into a private local folder (`StagedPrefix`): the asset itself at
/// once, the references it resolves as the readers ask (`ReadOptions.staged`), a large usdz by
/// ranged reads. Outputs bound for a bucket are written to a private folder and uploaded when the
/// work is done, so a failed conversion uploads nothing. Every command, the workers, the index
/// and the service stage through this one type; `close()` deletes what was staged.
public final class AssetSources: Sendable {
    public let stores: StoreOpener
    /// The largest object staged (`--max-file-size`).
    let maxBytes: Int
    /// usdz packages over a megabyte are read by ranges; the index, which hashes every byte, reads them whole.
    let rangedPackages: Bool
    /// `--asset-root s3://…`: inputs under it are staged under one folder standing for it.
    let rootAddress: StorageLocation.BucketAddress?
    /// Told what a staged listing leaves out (keys assetc refuses), as it happens.
    let warn: @Sendable (String) -> Void

    private let rootStaging = Locked<StagedPrefix?>(nil)
    /// Stagings by the location their folder stands for (a prefix, or an object's folder).
    private let stagings = Locked<[(location: String, staging: StagedPrefix)]>([])
    /// Output folders, with whether `upload()` has sent them yet.
    private let outputs = Locked<[(folder: String, store: any ObjectStore, force: Bool, uploaded: Bool)]>([])
    private let unreachable = Locked<AssetError?>(nil)

    public init(stores: StoreOpener, maxBytes: Int = ReadLimits().maxFileBytes, rangedPackages: Bool = true,
                warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.stores = stores
        self.maxBytes = maxBytes
        self.rangedPackages = rangedPackages
        self.warn = warn
        rootAddress = nil
    }

    /// Sources whose bucket inputs under `assetRoot` (`--asset-root s3://…`) share one staging
    /// standing for it, so references between them resolve under it.
    public init(stores: StoreOpener, maxBytes: Int = ReadLimits().maxFileBytes, assetRoot: String?, rangedPackages: Bool = true,
                warn: @escaping @Sendable (String) -> Void = { _ in }) throws(AssetError) {
        self.stores = stores
        self.maxBytes = maxBytes
        self.rangedPackages = rangedPackages
        self.warn = warn
        if let assetRoot, case .bucket(let address) = try StorageLocation.parse(assetRoot) { rootAddress = address } else { rootAddress = nil }
    }

    // MARK: Inputs

    /// The local path standing for `location`: itself when it is not in a bucket. An object is
    /// staged with its folder (else the `--asset-root` prefix holding it) as its root; a prefix has
    /// every object under it staged, and its folder stands for it. A prefix with nothing under it
    /// is `fileNotFound`.
    public func input(_ location: String) throws(AssetError) -> String {
        guard case .bucket(let address) = try StorageLocation.parse(location) else { return location }
        if let root = rootAddress, root.bucket == address.bucket, root.prefix.isEmpty || address.prefix.hasPrefix(root.prefix + "/") {
            let staging = try stagingForRoot(root)
            let rest = root.prefix.isEmpty ? address.prefix : String(address.prefix.dropFirst(root.prefix.count + 1))
            if try staging.store.head(rest) != nil { return try staging.stage(rest) }
            try stageAll(under: address, into: staging, at: rest + "/", location: location)
            return staging.folder + "/" + rest
        }
        if !address.prefix.isEmpty {
            let parent = address.parent
            let store = try stores.open(parent.description)
            if try store.head(address.name) != nil {
                return try staging(of: store, at: parent.description, name: parent.name).stage(address.name)
            }
        }
        let staging = try staging(of: try stores.open(address.description), at: address.description, name: address.name)
        try stageAll(under: address, into: staging, at: "", location: location)
        return staging.folder
    }

    /// The asset `relative` under an indexed `root` (a folder or a bucket prefix), and the options
    /// to read it with: its root is the folder or prefix, and nothing outside it is read.
    public func locate(root: String, relative: String, options: ReadOptions = ReadOptions()) throws(AssetError) -> (path: String, options: ReadOptions) {
        guard StorageLocation.isBucket(root) else {
            var local = options
            (local.assetRoot, local.allowsPathsOutsideAsset) = (.folder(root), false)
            return ((root as NSString).appendingPathComponent(relative), local)
        }
        let staging = try prefix(root)
        return (try staging.stage(relative), staging.readOptions(options))
    }

    /// The staging of a bucket prefix, made on first use: what the work reads under it is fetched
    /// once however many assets share it (textures, sublayers).
    public func prefix(_ root: String) throws(AssetError) -> StagedPrefix {
        if let known = stagings.withLock({ $0.first { $0.location == root }?.staging }) { return known }
        let made = try StagedPrefix(store: try stores.open(root), maxBytes: maxBytes, rangedPackages: rangedPackages)
        let winner = stagings.withLock { list -> StagedPrefix in
            if let other = list.first(where: { $0.location == root }) { return other.staging }
            list.append((root, made))
            return made
        }
        if winner !== made { made.close() }
        return winner
    }

    /// `options` for the inputs staged so far: their staged folders, and, unless the caller keeps
    /// a folder of its own as the root (`--asset-root DIR`), the one bucket location they came from
    /// (the `--asset-root` prefix, or the only one) as the root.
    public func readOptions(_ options: ReadOptions, keepingRoot: Bool = false) -> ReadOptions {
        var staged = options
        staged.staged = staged.staged.adding(files)
        if !keepingRoot, let root = onlyRoot {
            (staged.assetRoot, staged.allowsPathsOutsideAsset) = (.folder(root), false)
        }
        return staged
    }

    /// `options` for one input `path` as `info` reads it: an object's folder in the bucket is its
    /// root (the `--asset-root` prefix's, when given), as a file's folder is.
    public func readOptions(_ options: ReadOptions, forInput path: String, location: String, keepingRoot: Bool = false) -> ReadOptions {
        var staged = options
        staged.staged = staged.staged.adding(files)
        if path != location, !keepingRoot {
            let folder = rootStaging.value?.folder ?? (path as NSString).deletingLastPathComponent
            (staged.assetRoot, staged.allowsPathsOutsideAsset) = (.folder(folder), false)
        }
        return staged
    }

    /// Every staging's folder, as reads carry them.
    public var files: StagedFiles {
        var all = rootStaging.value.map(\.files) ?? .none
        for (_, staging) in stagings.value { all = all.adding(staging.files) }
        return all
    }

    private var onlyRoot: String? {
        if let root = rootStaging.value { return root.folder }
        let all = stagings.value
        return all.count == 1 ? all[0].staging.folder : nil
    }

    private func stagingForRoot(_ root: StorageLocation.BucketAddress) throws(AssetError) -> StagedPrefix {
        if let known = rootStaging.value { return known }
        let made = try StagedPrefix(store: try stores.open(root.description), maxBytes: maxBytes, name: root.name, rangedPackages: rangedPackages)
        rootStaging.withLock { $0 = made }
        return made
    }

    private func staging(of store: any ObjectStore, at location: String, name: String) throws(AssetError) -> StagedPrefix {
        let made = try StagedPrefix(store: store, maxBytes: maxBytes, name: name, rangedPackages: rangedPackages)
        stagings.withLock { $0.append((location, made)) }
        return made
    }

    /// Stages every object under `address` (hidden ones and refused keys left out) as
    /// `prefix + key`; none at all is `fileNotFound`.
    private func stageAll(under address: StorageLocation.BucketAddress, into staging: StagedPrefix, at prefix: String, location: String) throws(AssetError) {
        let objects = try stores.open(address.description).list()
        guard !objects.isEmpty else { throw AssetError(.fileNotFound, at: SourceLocation(file: location)) }
        for object in objects {
            if let problem = ObjectKey.problem(object.key) {
                warn("\(address.description)/\(ObjectKey.printable(object.key)): \(problem); left out")
                continue
            }
            if object.key.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            _ = try staging.stage(prefix + object.key)
        }
    }

    // MARK: Outputs

    /// A local path standing for an output file (`s3://b/k.usdz`) or folder (`--out-dir s3://…`);
    /// itself when it is not in a bucket. An existing object is refused unless `force`.
    public func output(_ location: String, isFolder: Bool, force: Bool) throws(AssetError) -> String {
        guard case .bucket(let address) = try StorageLocation.parse(location) else { return location }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("assetc-out-\(UUID().uuidString)").path
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw AssetError(.io("cannot make a folder for the output: \(error.localizedDescription)"), at: SourceLocation(file: folder))
        }
        if isFolder {
            let store = try stores.open(address.description)
            outputs.withLock { $0.append((folder, store, force, false)) }
            return folder
        }
        guard !address.prefix.isEmpty else { throw AssetError(.malformed("an output needs a key after the bucket"), at: SourceLocation(file: location)) }
        let store = try stores.open(address.parent.description)
        if !force, try store.head(address.name) != nil {
            throw AssetError(.io("the output exists (--force replaces it)"), at: SourceLocation(file: location))
        }
        outputs.withLock { $0.append((folder, store, true, false)) }
        return folder + "/" + address.name
    }

    /// Uploads every file the outputs made since the last upload hold (sidecars too); the `s3://`
    /// names written.
    @discardableResult
    public func upload() throws(AssetError) -> [String] {
        var written: [String] = []
        for (index, output) in outputs.value.enumerated() where !output.uploaded {
            let local = LocalFileStore(root: output.folder)
            for object in try local.list() {
                guard let bytes = try local.read(object.key, maxBytes: Int.max) else { continue }
                if !output.force, try output.store.head(object.key) != nil {
                    throw AssetError(.io("the output exists (--force replaces it)"), at: SourceLocation(file: output.store.name(of: object.key)))
                }
                try output.store.write(object.key, bytes: bytes, contentType: Self.contentType(of: object.key))
                written.append(output.store.name(of: object.key))
            }
            outputs.withLock { $0[index].uploaded = true }
        }
        return written
    }

    /// The Content-Type an uploaded file gets, by its extension.
    public static func contentType(of key: String) -> String {
        let ext = (key as NSString).pathExtension.lowercased()
        if let format = AssetFormat.recognised(byExtension: ext).first { return format.mediaType }
        switch ext {
        case "mtl": return "model/mtl"
        case "html": return "text/html; charset=utf-8"
        case "json": return "application/json"
        case "webp": return "image/webp"
        default: return "application/octet-stream"
        }
    }

    // MARK: Messages and the end

    /// The location a local path stands for: a staged input by the object it was fetched from,
    /// an output's local copy by the key it is uploaded to; any other path as it is. For the
    /// paths a use case hands back (inputs, outputs, written files); what the readers and
    /// validators say names the bucket already (`ReadOptions.name(of:)`).
    public func name(of path: String) -> String {
        if let location = files.location(of: path) { return location }
        for output in outputs.value where path == output.folder || path.hasPrefix(output.folder + "/") {
            return output.store.location + path.dropFirst(output.folder.count)
        }
        return path
    }

    /// This error with its file named by `name(of:)`: one met writing an output, or opening an
    /// input before any reader named it.
    public func named(_ error: AssetError) -> AssetError {
        var named = error
        named.location.file = error.location.file.map(name(of:))
        return named
    }

    /// Remembers that the store stopped answering while something was read, so the work's
    /// results are not recorded as if whole.
    public func noteUnreachable(_ error: AssetError) {
        unreachable.withLock { $0 = $0 ?? error }
    }

    /// Deletes what was staged and the local copies of outputs. Returns the first "store
    /// unreachable" met meanwhile, and what else fetching references met (an object over the read
    /// limit), which the readers saw only as "not found".
    @discardableResult
    public func close() -> (unreachable: AssetError?, notes: [String]) {
        var all = stagings.withLock { list in defer { list.removeAll() }; return list.map(\.staging) }
        if let root = rootStaging.withLock({ value in defer { value = nil }; return value }) { all.insert(root, at: 0) }
        var first = unreachable.value
        var notes: [String] = []
        for staging in all {
            first = first ?? staging.unreachable
            notes += staging.takeNotes()
            staging.close()
        }
        for output in outputs.withLock({ list in defer { list.removeAll() }; return list }) {
            try? FileManager.default.removeItem(atPath: output.folder)  // temporary: nothing to report if it is gone
        }
        return (first, notes)
    }
}

extension StorageLocation.BucketAddress {
    /// The folder holding this key: the prefix less its last component.
    var parent: StorageLocation.BucketAddress {
        StorageLocation.BucketAddress(bucket: bucket, prefix: prefix.split(separator: "/").dropLast().joined(separator: "/"), pathStyle: pathStyle)
    }
}

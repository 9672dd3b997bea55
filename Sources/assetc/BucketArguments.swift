import AssetCore
import AssetKit
import AssetStorage
import Foundation

/// The `s3://` arguments of convert, validate, thumbnail and info, as the local paths the use
/// cases take. An input naming an object is staged with its prefix (the key's folder) as its
/// asset root; one naming a prefix stands for every object under it. An output in a bucket is
/// written to a private folder first, then each file made is uploaded, so a failed conversion
/// uploads nothing. What is printed names `s3://` locations, never the staging folders.
final class BucketArguments {
    private var stagings: [StagedPrefix] = []
    private var outputs: [(folder: String, store: any ObjectStore, force: Bool)] = []
    private let retry = Stores.retry(for: nil)

    /// Local folders alive in this process and the `s3://` locations they stand for, for `shown`.
    private static let active = Locked<[(local: String, remote: String)]>([])

    /// `--asset-root s3://…`: inputs under it are staged under one folder standing for it.
    private let rootAddress: StorageLocation.BucketAddress?
    private var rootStaging: StagedPrefix?

    init(assetRoot: String? = nil) {
        if let assetRoot, case .bucket(let address)? = try? StorageLocation.parse(assetRoot) {  // validated by SandboxOptions
            rootAddress = address
        } else {
            rootAddress = nil
        }
    }

    /// The local path for `argument`: itself when it is not a bucket location. An object is
    /// staged with its folder (else the `--asset-root` prefix holding it) as its root; a prefix
    /// has every object under it staged and its folder stands for it.
    func input(_ argument: String, maxBytes: Int) throws(AssetError) -> String {
        guard case .bucket(let address) = try StorageLocation.parse(argument) else { return argument }
        if let root = rootAddress, root.bucket == address.bucket, root.prefix.isEmpty || address.prefix.hasPrefix(root.prefix + "/") {
            let staging: StagedPrefix
            if let known = rootStaging { staging = known } else {
                staging = try stage(try Stores.open(root.description, retry: retry), maxBytes: maxBytes, name: root.name)
                rootStaging = staging
            }
            let rest = root.prefix.isEmpty ? address.prefix : String(address.prefix.dropFirst(root.prefix.count + 1))
            if try staging.store.head(rest) != nil { return try staging.stage(rest) }
            try stageAll(under: address, into: staging, at: rest + "/", argument: argument)
            return staging.folder + "/" + rest
        }
        if !address.prefix.isEmpty {
            let parentAddress = StorageLocation.BucketAddress(bucket: address.bucket, prefix: address.prefix.split(separator: "/").dropLast().joined(separator: "/"),
                                                              pathStyle: address.pathStyle)
            let parent = try Stores.open(parentAddress.description, retry: retry)
            if try parent.head(address.name) != nil {
                return try stage(parent, maxBytes: maxBytes, name: parentAddress.name).stage(address.name)
            }
        }
        let staging = try stage(try Stores.open(address.description, retry: retry), maxBytes: maxBytes, name: address.name)
        try stageAll(under: address, into: staging, at: "", argument: argument)
        return staging.folder
    }

    /// Stages every object under `address` (hidden ones and refused keys left out) as
    /// `prefix + key`; none at all is `fileNotFound`.
    private func stageAll(under address: StorageLocation.BucketAddress, into staging: StagedPrefix, at prefix: String, argument: String) throws(AssetError) {
        let objects = try Stores.open(address.description, retry: retry).list()
        guard !objects.isEmpty else { throw AssetError(.fileNotFound, at: SourceLocation(file: argument)) }
        var stderr = StandardError()
        for object in objects {
            if let problem = ObjectKey.problem(object.key) {
                print("assetc: warning: \(TerminalText.safe(address.description + "/" + ObjectKey.printable(object.key))): \(problem); left out", to: &stderr)
                continue
            }
            if object.key.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            _ = try staging.stage(prefix + object.key)
        }
    }

    private func stage(_ store: any ObjectStore, maxBytes: Int, name: String) throws(AssetError) -> StagedPrefix {
        let staging = try StagedPrefix(store: store, maxBytes: maxBytes, name: name, rangedPackages: true)
        stagings.append(staging)
        Self.active.withLock { $0.append((staging.folder, store.location)) }
        return staging
    }

    /// The asset root for the read: the `--asset-root` prefix's folder, else the one bucket
    /// location every input came from.
    var rootFolder: String? { rootStaging?.folder }

    var onlyRoot: String? { rootStaging?.folder ?? (stagings.count == 1 ? stagings[0].folder : nil) }

    /// A local path standing for an output file (`s3://b/k.usdz`) or folder (`--out-dir s3://…`).
    func output(_ argument: String, isFolder: Bool, force: Bool) throws(AssetError) -> String {
        guard case .bucket(let address) = try StorageLocation.parse(argument) else { return argument }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("assetc-out-\(UUID().uuidString)").path
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw AssetError(.io("cannot make a folder for the output: \(error.localizedDescription)"), at: SourceLocation(file: folder))
        }
        if isFolder {
            outputs.append((folder, try Stores.open(address.description, retry: retry), force))
            Self.active.withLock { $0.append((folder, address.description)) }
            return folder
        }
        guard !address.prefix.isEmpty else { throw AssetError(.malformed("an output needs a key after the bucket"), at: SourceLocation(file: argument)) }
        let parent = StorageLocation.BucketAddress(bucket: address.bucket, prefix: address.prefix.split(separator: "/").dropLast().joined(separator: "/"),
                                                   pathStyle: address.pathStyle)
        let store = try Stores.open(parent.description, retry: retry)
        if !force, try store.head(address.name) != nil {
            throw AssetError(.io("the output exists (--force replaces it)"), at: SourceLocation(file: argument))
        }
        outputs.append((folder, store, true))
        Self.active.withLock { $0.append((folder, parent.description)) }
        return folder + "/" + address.name
    }

    /// Uploads every file the outputs' folders hold (sidecars too), then removes the folders.
    /// Returns the `s3://` names written.
    @discardableResult
    func upload() throws(AssetError) -> [String] {
        var written: [String] = []
        for output in outputs {
            for object in try LocalFileStore(root: output.folder).list() {
                guard let bytes = try LocalFileStore(root: output.folder).read(object.key, maxBytes: Int.max) else { continue }
                if !output.force, try output.store.head(object.key) != nil {
                    throw AssetError(.io("the output exists (--force replaces it)"), at: SourceLocation(file: output.store.name(of: object.key)))
                }
                try output.store.write(object.key, bytes: bytes, contentType: Self.contentType(of: object.key))
                written.append(output.store.name(of: object.key))
            }
        }
        return written
    }

    /// Deletes staged inputs and local copies of outputs, first saying on standard error what
    /// fetching references met (an object over the read limit, a store that stopped answering):
    /// the reader only saw those references as missing.
    func close() {
        var stderr = StandardError()
        for staging in stagings {
            for note in staging.takeNotes() { print("assetc: warning: \(TerminalText.safe(note))", to: &stderr) }
            staging.close()
        }
        let mine = Set(stagings.map(\.folder) + outputs.map(\.folder))
        Self.active.withLock { list in list.removeAll { mine.contains($0.local) } }
        for output in outputs { try? FileManager.default.removeItem(atPath: output.folder) }  // temporary: nothing to report if gone
        stagings = []
        outputs = []
    }

    /// `text` with staging folders written as their `s3://` locations and output folders as theirs.
    static func shown(_ text: String) -> String {
        var out = text
        for (local, remote) in active.value { out = out.replacingOccurrences(of: local, with: remote) }
        return out
    }

    static func contentType(of key: String) -> String {
        let ext = (key as NSString).pathExtension.lowercased()
        if let format = AssetFormat.recognised(byExtension: ext).first { return format.mediaType }
        switch ext {
        case "bin": return "application/octet-stream"
        case "mtl": return "model/mtl"
        case "html": return "text/html; charset=utf-8"
        case "json": return "application/json"
        case "webp": return "image/webp"
        default: return "application/octet-stream"
        }
    }
}

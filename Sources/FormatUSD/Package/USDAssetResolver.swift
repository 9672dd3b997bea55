import AssetCore
import Foundation

/// Turns asset paths written in layers (`@./geom.usda@`, `@textures/wood.png@`,
/// `@inner.usdz[mesh.usda]@`) into locations, and reads them. It is the only code that touches
/// the file system for a USD read, so the sandbox lives here: nothing outside the asset root (for
/// files, see `AssetRoot`) or outside the package (for package entries) is resolved, unless the
/// caller allows paths outside.
final class USDAssetResolver {
    enum Resolution {
        case found(AssetLocation)
        case refused(String)
    }

    /// Absolute, symlink-free asset root.
    let sandbox: String
    let allowsOutside: Bool
    /// The read's staged folders: a reference into one is fetched as it is resolved.
    let staged: StagedFiles
    let budget: ReadBudget
    var limits: ReadLimits { budget.limits }
    /// Open packages with compressed entries instead of refusing them (validation reports them).
    var allowsCompressedEntries = false
    /// Resolve an absolute path written inside a package as a file (still inside the sandbox), as
    /// usd-core does, instead of refusing it; validation then reports the package as not
    /// self-contained, which is the rule it breaks.
    var allowsAbsolutePathsInPackages = false
    private var archives: [AssetLocation: USDZArchive] = [:]
    /// Bytes of the small packages on disk, read whole once: opening them from memory costs one
    /// read instead of libzip's seeks and reads, and validation lays out the same bytes.
    private(set) var packageBytes: [AssetLocation: [UInt8]] = [:]
    /// Packages up to this size are read whole; larger ones are read by libzip from the file.
    static let wholeReadLimit = 1 << 20
    /// A file's bytes its caller read already (`preload`), served instead of reading it again.
    private var preloaded: (path: String, bytes: [UInt8])?

    init(rootFile: String, options: ReadOptions, budget: ReadBudget) {
        sandbox = options.assetRoot.folder(for: rootFile)
        allowsOutside = options.allowsPathsOutsideAsset
        staged = options.staged
        self.budget = budget
    }

    /// How messages name `location`: a staged file by the `s3://` location it stands for.
    func name(of location: AssetLocation) -> String { location.named(by: staged) }

    /// Serves `bytes` as the whole of the file at `path` (a small file the caller sniffed whole).
    /// The caps and the budget apply to them as to a read.
    func preload(path: String, _ bytes: [UInt8]) {
        preloaded = (path, bytes)
    }

    /// Resolves `assetPath` as written in the layer at `anchor`.
    func resolve(_ assetPath: String, anchor: AssetLocation) -> Resolution {
        var path = assetPath
        var innerEntry: String?
        // `outer.usdz[inner/path.usda]`: a file inside a package named by a path.
        if path.hasSuffix("]"), let open = path.firstIndex(of: "[") {
            innerEntry = String(path[path.index(after: open)..<path.index(before: path.endIndex)])
            path = String(path[..<open])
        }
        let base: AssetLocation
        var anchor = anchor
        if case .packageEntry = anchor, path.hasPrefix("/"), allowsAbsolutePathsInPackages { anchor = .file(path: "/") }
        switch anchor {
        case .packageEntry(let package, let entry):
            if path.hasPrefix("/") { return .refused("'\(assetPath)' is an absolute path inside a package") }
            guard let normalized = PathArithmetic.normalizeBelow(PathArithmetic.join(PathArithmetic.directory(of: entry), path)) else {
                return .refused("'\(assetPath)' climbs out of the package")
            }
            base = .packageEntry(package: package, entry: normalized)
        case .file(let anchorPath):
            let joined = path.hasPrefix("/") ? path : PathArithmetic.join(PathArithmetic.directory(of: anchorPath), path)
            guard let normalized = PathArithmetic.normalize(joined) else { return .refused("'\(assetPath)' climbs above the root") }
            let real = AssetRoot.real(normalized, staged: staged)
            if !allowsOutside && !PathArithmetic.isInside(real, root: sandbox) {
                return .refused(staged.refusal(assetPath, root: sandbox))
            }
            base = .file(path: normalized)
        }
        if let innerEntry {
            guard let entry = PathArithmetic.normalizeBelow(innerEntry) else {
                return .refused("'\(assetPath)' names a path outside the package")
            }
            return .found(.packageEntry(package: base, entry: entry))
        }
        return .found(base)
    }

    /// Whether a resolved location exists (textures are checked, not read, while building).
    func exists(_ location: AssetLocation) -> Bool {
        switch location {
        case .file(let path):
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        case .packageEntry(let package, let entry):
            guard let archive = try? archive(at: package) else { return false }  // a broken package has no entries
            return archive.entry(named: entry) != nil
        }
    }

    /// The bytes at a location, or the first `limit` of them; the budget is charged what is read.
    func readBytes(_ location: AssetLocation, upTo limit: Int = .max) throws(AssetError) -> [UInt8] {
        switch location {
        case .file(let path):
            if let preloaded, preloaded.path == path { return try readPreloaded(preloaded.bytes, path: path, upTo: limit) }
            var status = stat()
            guard stat(path, &status) == 0 else { throw AssetError.openFailed(path: staged.name(ofPath: path), errno: errno) }
            return try readFile(path, size: Int(status.st_size), upTo: limit)
        case .packageEntry(let package, let entryName):
            let archive = try archive(at: package)
            guard let entry = archive.entry(named: entryName) else {
                throw AssetError(.unresolvedReference("package entry '\(entryName)'"), at: SourceLocation(file: archive.name))
            }
            let size = min(entry.size, max(limit, 0))
            try budget.spend(bytes: size, for: "package entry '\(entryName)'", at: SourceLocation(file: name(of: location)))
            return try archive.read(entry, upTo: size)
        }
    }

    private func readPreloaded(_ bytes: [UInt8], path: String, upTo limit: Int = .max) throws(AssetError) -> [UInt8] {
        let size = min(bytes.count, max(limit, 0))
        try charge(size, path: path)
        return size == bytes.count ? bytes : Array(bytes[..<size])
    }

    /// A file whose size a stat has just given, so it is not asked again.
    private func readFile(_ path: String, size fileSize: Int, upTo limit: Int = .max) throws(AssetError) -> [UInt8] {
        let size = min(fileSize, max(limit, 0))
        try charge(size, path: path)
        return try FileBytes.read(path: path, expectedSize: size, staged: staged)
    }

    /// The file cap and the read's budget, for `size` bytes of a file.
    private func charge(_ size: Int, path: String) throws(AssetError) {
        guard size <= limits.maxFileBytes else {
            throw AssetError(.limitExceeded("file is \(size) bytes (at most \(limits.maxFileBytes))"), at: SourceLocation(file: staged.name(ofPath: path)))
        }
        try budget.spend(bytes: size, for: "the layer's \(size) bytes", at: SourceLocation(file: staged.name(ofPath: path)))
    }

    /// The package at a location, opened once.
    func archive(at location: AssetLocation) throws(AssetError) -> USDZArchive {
        if let open = archives[location] { return open }
        let archive: USDZArchive
        switch location {
        case .file(let path):
            if let preloaded, preloaded.path == path {
                let bytes = try readPreloaded(preloaded.bytes, path: path)
                packageBytes[location] = bytes
                archive = try USDZArchive(bytes: bytes, location: location, name: name(of: location), limits: limits, allowsCompression: allowsCompressedEntries)
                break
            }
            var status = stat()
            guard stat(path, &status) == 0 else { throw AssetError(.fileNotFound, at: SourceLocation(file: staged.name(ofPath: path))) }
            if (status.st_mode & S_IFMT) == S_IFREG && Int(status.st_size) <= Self.wholeReadLimit {
                let bytes = try readFile(path, size: Int(status.st_size))
                packageBytes[location] = bytes
                archive = try USDZArchive(bytes: bytes, location: location, name: name(of: location), limits: limits, allowsCompression: allowsCompressedEntries)
            } else {
                archive = try USDZArchive(path: path, location: location, limits: limits, allowsCompression: allowsCompressedEntries, staged: staged)
            }
        case .packageEntry:
            archive = try USDZArchive(bytes: try readBytes(location), location: location, name: name(of: location), limits: limits,
                                      allowsCompression: allowsCompressedEntries)
        }
        archives[location] = archive
        return archive
    }

    /// A `.usdz` location stands for its root layer.
    func layerLocation(for location: AssetLocation) throws(AssetError) -> AssetLocation {
        let name: String
        switch location {
        case .file(let path): name = path
        case .packageEntry(_, let entry): name = entry
        }
        guard name.lowercased().hasSuffix(".usdz") else { return location }
        let archive = try archive(at: location)
        return .packageEntry(package: location, entry: archive.rootEntry.name)
    }
}

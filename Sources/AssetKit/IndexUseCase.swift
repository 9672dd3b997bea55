import AssetCatalog
import AssetCore
import AssetPipeline
import AssetRender
import Foundation

/// `assetc index`: brings the catalog up to date with the assets under some folders. Unchanged
/// files (same size and modification time, else same content hash) are skipped, changed ones read
/// again on all cores, deleted ones removed. Files that cannot be read are recorded with their
/// error. Writes go in transactions of a few dozen assets, so stopping at any moment leaves a
/// consistent catalog that the next run completes.
public struct IndexUseCase: Sendable {
    public var registry: FormatRegistry
    public var readOptions: ReadOptions
    /// Render and cache a thumbnail per model (by content hash, under the catalog's folder).
    public var thumbnails: Bool
    public var render: RenderOptions
    public var batchSize = 32

    public init(registry: FormatRegistry = .standard, readOptions: ReadOptions = ReadOptions(), thumbnails: Bool = false,
                render: RenderOptions = RenderOptions()) {
        self.registry = registry
        self.readOptions = readOptions
        self.thumbnails = thumbnails
        self.render = render
    }

    public struct Report: Sendable, Equatable {
        public var added = 0
        public var updated = 0
        public var unchanged = 0
        public var removed = 0
        public var failed = 0
        public var models = 0
        public var textures = 0
    }

    /// A file found under a root.
    struct Candidate: Sendable {
        var id: String
        var path: String
        var kind: CatalogRecord.Kind
        var byteSize: Int64
        var modifiedAt: Double
    }

    /// The default catalog path for a set of roots: `.assetc/catalog.sqlite` under the first one.
    public static func defaultDatabase(for roots: [String]) -> String {
        ((roots.first ?? ".") as NSString).appendingPathComponent(".assetc/catalog.sqlite")
    }

    public func run(roots: [String], catalog: Catalog, progress: @Sendable (String) -> Void = { _ in }) throws(AssetError) -> Report {
        var report = Report()
        for root in roots {
            let absolute = URL(fileURLWithPath: root).standardizedFileURL.path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw AssetError(.io(FileManager.default.fileExists(atPath: absolute) ? "is a file; index takes folders" : "no such folder"),
                                 at: SourceLocation(file: root))
            }
            try index(root: absolute, catalog: catalog, report: &report, progress: progress)
        }
        return report
    }

    private func index(root: String, catalog: Catalog, report: inout Report, progress: @Sendable (String) -> Void) throws(AssetError) {
        let known = try catalog.fingerprints(root: root)
        let candidates = walk(root: root, skipping: catalog.folder)
        var changed: [Candidate] = []
        var touched: [(id: String, modifiedAt: Double)] = []
        for candidate in candidates {
            if candidate.kind == .model { report.models += 1 } else { report.textures += 1 }
            guard let fingerprint = known[candidate.id] else { changed.append(candidate); continue }
            if fingerprint.byteSize == candidate.byteSize && fingerprint.modifiedAt == candidate.modifiedAt {
                report.unchanged += 1
            } else if fingerprint.byteSize == candidate.byteSize,
                      (try? ContentHash.file(candidate.path)) == fingerprint.contentHash {  // unreadable now: read it again below
                touched.append((candidate.id, candidate.modifiedAt))
                report.unchanged += 1
            } else {
                changed.append(candidate)
            }
        }
        if !touched.isEmpty { try catalog.touch(touched) }
        for start in stride(from: 0, to: changed.count, by: batchSize) {
            let batch = Array(changed[start..<min(start + batchSize, changed.count)])
            let entries = EntriesBox(count: batch.count)
            DispatchQueue.concurrentPerform(iterations: batch.count) { k in
                entries.set(k, entry(for: batch[k], root: root, catalogFolder: catalog.folder))
            }
            let built = entries.values
            try catalog.store(built)
            for entry in built {
                if known[entry.record.id] == nil { report.added += 1 } else { report.updated += 1 }
                if entry.record.error != nil { report.failed += 1 }
                progress(entry.record.id)
            }
        }
        let seen = Set(candidates.map(\.id))
        let gone = known.keys.filter { !seen.contains($0) }.sorted()
        if !gone.isEmpty { try catalog.remove(gone) }
        report.removed += gone.count
    }

    /// Models (what a reader recognises) and textures (PNG and JPEG, loose or in .xcassets image
    /// sets) under `root`, hidden entries and the catalog's own folder left out.
    func walk(root: String, skipping: String) -> [Candidate] {
        let rootURL = URL(fileURLWithPath: root)
        let base = rootURL.lastPathComponent
        let skip = URL(fileURLWithPath: skipping).standardizedFileURL.path
        let walker = FileManager.default.enumerator(at: rootURL, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey],
                                                    options: [.skipsHiddenFiles])
        var found: [Candidate] = []
        while let url = walker?.nextObject() as? URL {
            let path = url.standardizedFileURL.path
            if path == skip { walker?.skipDescendants(); continue }
            guard let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey]),
                  values.isRegularFile == true else { continue }  // entries that vanish or cannot be read are not assets
            let relative = String(path.dropFirst(root.count + 1))
            let ext = url.pathExtension.lowercased()
            let kind: CatalogRecord.Kind
            if ["png", "jpg", "jpeg"].contains(ext) {
                kind = .texture
            } else if (try? registry.reader(for: url)) != nil || registry.readers.contains(where: { r in r.formats.contains { $0.fileExtensions.contains(ext) } }) {
                kind = .model  // recognised by content, or claimed by extension (recorded with its error if it fails)
            } else {
                continue
            }
            found.append(Candidate(id: base + "/" + relative, path: path, kind: kind, byteSize: Int64(values.fileSize ?? 0),
                                   modifiedAt: values.contentModificationDate?.timeIntervalSince1970 ?? 0))
        }
        return found.sorted { $0.id < $1.id }
    }

    /// Reads one file into its catalog entry; a failure becomes the entry's error.
    func entry(for candidate: Candidate, root: String, catalogFolder: String) -> CatalogEntry {
        let now = Date().timeIntervalSince1970
        let hash = (try? ContentHash.file(candidate.path)) ?? "unreadable"  // the read below reports why
        let ext = (candidate.path as NSString).pathExtension.lowercased()
        var record = CatalogRecord(id: candidate.id, root: root, kind: candidate.kind, format: ext == "jpg" ? "jpeg" : ext,
                                   byteSize: candidate.byteSize, contentHash: hash, modifiedAt: candidate.modifiedAt, indexedAt: now)
        guard candidate.kind == .model else { return CatalogEntry(record: record) }
        let result: ReadResult
        do throws(AssetError) {
            result = try registry.read(URL(fileURLWithPath: candidate.path), options: readOptions)
        } catch {
            record.error = error.description
            return CatalogEntry(record: record)
        }
        let scene = result.scene
        let stats = scene.stats
        record.format = scene.metadata.sourceFormat
        (record.nodes, record.meshes, record.points, record.faces) = (stats.nodes, stats.meshes, stats.points, stats.faces)
        (record.triangles, record.primitives, record.materials, record.textures) = (stats.triangles, stats.primitives, stats.materials, stats.textures)
        record.upAxis = scene.metadata.upAxis.rawValue
        record.metersPerUnit = scene.metadata.metersPerUnit
        record.setBounds(scene.worldBounds, metersPerUnit: scene.metadata.metersPerUnit)
        var nodeNames: [String] = []
        scene.forEachNode { _, visit in nodeNames.append(visit.path) }
        let references = scene.textures.map { texture -> TextureReferenceRow in
            var resolvedID: String?
            if case .file(_, let resolved?) = texture.source, resolved.hasPrefix(root + "/") {
                resolvedID = (root as NSString).lastPathComponent + "/" + String(resolved.dropFirst(root.count + 1))
            }
            return TextureReferenceRow(path: texture.authoredPath, resolves: texture.resolves, resolvedID: resolvedID)
        }
        record.missingTextures = references.filter { !$0.resolves }.count
        let warnings = result.warnings.prefix(200).map(\.description)
        record.warningCount = result.warnings.count
        if thumbnails {
            record.thumbnail = thumbnail(scene, hash: hash, catalogFolder: catalogFolder)
        }
        return CatalogEntry(record: record, nodeNames: nodeNames, materialNames: scene.materials.map(\.name),
                            textureReferences: references, warnings: Array(warnings))
    }

    /// `thumbnails/<hash>.png` under the catalog folder, rendered only when not cached yet.
    private func thumbnail(_ scene: Scene, hash: String, catalogFolder: String) -> String? {
        let relative = "thumbnails/\(hash).png"
        let path = (catalogFolder as NSString).appendingPathComponent(relative)
        if FileManager.default.fileExists(atPath: path) { return relative }
        let renderer = ThumbnailUseCase(registry: registry, render: render, readOptions: readOptions)
        guard let png = try? renderer.png(for: scene).bytes,  // the asset stays indexed without one
              (try? AtomicOutput.write([OutputFile(relativePath: relative, bytes: png)], mainPath: path, force: true)) != nil else {
            return nil
        }
        return relative
    }
}

/// Entries built by worker threads, each into its own slot, under a lock.
private final class EntriesBox: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [CatalogEntry?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ entry: CatalogEntry) {
        lock.lock()
        slots[index] = entry
        lock.unlock()
    }

    var values: [CatalogEntry] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0! }
    }
}

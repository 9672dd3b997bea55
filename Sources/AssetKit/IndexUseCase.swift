import AssetCatalog
import AssetCore
import AssetPipeline
import AssetRender
import AssetStorage
import AssetValidate
import Foundation

/// `assetc index`: brings the catalog up to date with the assets under some folders. Unchanged
/// files (same size and modification time, else same content hash) are skipped, changed ones read
/// again on all cores, deleted ones removed. Files that cannot be read are recorded with their
/// error. Writes go in transactions of a few dozen assets, so stopping at any moment leaves a
/// consistent catalog that the next run completes.
public struct IndexUseCase: Sendable {
    /// Every format assetc reads; tests substitute their own.
    package var registry: FormatRegistry = .standard
    public var readOptions: ReadOptions
    /// Render and cache a thumbnail per model (by content hash, under the catalog's folder).
    public var thumbnails: Bool
    /// Record a thumbnail job per model read instead, for `assetc worker` processes to render.
    public var deferThumbnails = false
    public var render: RenderOptions
    public var batchSize = 32
    /// Opens `s3://` roots (the executable's S3 client); the library alone indexes folders.
    public var stores: StoreOpener = .localOnly
    /// Where thumbnails go; nil: the catalog's folder.
    public var thumbnailStore: (any ObjectStore)?
    /// Warnings stored per asset; the count of all of them is kept beside.
    static let warningsKept = 200

    public init(readOptions: ReadOptions = ReadOptions(), thumbnails: Bool = false,
                render: RenderOptions = RenderOptions()) {
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
        /// Models read but not rendered; each carries the renderer's error among its warnings.
        public var thumbnailsFailed = 0
        public var models = 0
        public var textures = 0
        /// Thumbnail jobs recorded (`deferThumbnails`).
        public var thumbnailJobs = 0
        /// Bucket objects left out, each with why: keys no file system can hold safely, objects
        /// deleted between the listing and the read.
        public var skipped: [String] = []
    }

    /// A file found under a root, its id the catalog's.
    typealias Candidate = AssetFolder.File

    /// The default catalog path for a set of roots: `.assetc/catalog.sqlite` under the first one.
    /// A bucket has no folder for it: the catalog is then made in the current folder.
    public static func defaultDatabase(for roots: [String]) -> String {
        let first = roots.first.flatMap { StorageLocation.isBucket($0) ? nil : $0 } ?? "."
        return (first as NSString).appendingPathComponent(".assetc/catalog.sqlite")
    }

    public func run(roots: [String], catalog: any Catalog, progress: @escaping @Sendable (String) -> Void = { _ in }) async throws(AssetError) -> Report {
        var report = Report()
        for root in roots {
            if StorageLocation.isBucket(root) {
                try await index(bucket: root, catalog: catalog, report: &report, progress: progress)
                continue
            }
            let absolute = URL(fileURLWithPath: root).standardizedFileURL.path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw AssetError(.io(FileManager.default.fileExists(atPath: absolute) ? "is a file; index takes folders" : "no such folder"),
                                 at: SourceLocation(file: root))
            }
            try await index(root: absolute, catalog: catalog, report: &report, progress: progress)
        }
        return report
    }

    private func index(root: String, catalog: any Catalog, report: inout Report, progress: @escaping @Sendable (String) -> Void) async throws(AssetError) {
        // References resolve anywhere under the indexed folder (a library's shared `materials/`),
        // unless the caller fixed one root for every folder.
        let readOptions = readOptions.rooted(at: root)
        let known = try await catalog.fingerprints(root: root)
        // Models and textures, the catalog's own folder left out.
        let candidates = AssetFolder.files(under: root, registry: registry, skipping: catalog.folder, includeTextures: true)
        var changed: [Candidate] = []
        var touched: [(id: String, modifiedAt: Double)] = []
        for candidate in candidates {
            if candidate.kind == .model { report.models += 1 } else { report.textures += 1 }
            guard let fingerprint = known[id: candidate.id] else { changed.append(candidate); continue }
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
        if !touched.isEmpty { try await catalog.touch(touched) }
        // Each batch is read while the one before it is stored: a PostgreSQL store is mostly
        // waiting on round trips and a commit, during which the cores read on. One store at a
        // time, in order, so batches still land one transaction after another.
        var storing: Task<Report, any Error>?
        for start in stride(from: 0, to: changed.count, by: batchSize) {
            let batch = Array(changed[start..<min(start + batchSize, changed.count)])
            let entries = Locked([CatalogEntry?](repeating: nil, count: batch.count))
            DispatchQueue.concurrentPerform(iterations: batch.count) { k in
                let built = entry(for: batch[k], root: root, cache: thumbnailCache(catalog), readOptions: readOptions)
                entries.withLock { $0[k] = built }
            }
            let built = entries.value.map { $0! }
            try await Self.merge(storing, into: &report)
            storing = Task { try await record(built, known: known, catalog: catalog, progress: progress) }
        }
        try await Self.merge(storing, into: &report)
        let seen = Set(candidates.map { Array($0.id.utf8) })
        let gone = known.ids.filter { !seen.contains(Array($0.utf8)) }.sorted()
        if !gone.isEmpty { try await catalog.remove(gone) }
        report.removed += gone.count
    }

    func thumbnailCache(_ catalog: any Catalog) -> ThumbnailCache {
        thumbnailStore.map { ThumbnailCache(store: $0, catalogFolder: catalog.folder) } ?? ThumbnailCache(catalogFolder: catalog.folder)
    }

    /// Stores one batch (and its thumbnail jobs); the counts it adds to the report.
    func record(_ built: [CatalogEntry], known: CatalogFingerprints, catalog: any Catalog,
                        progress: @Sendable (String) -> Void) async throws(AssetError) -> Report {
        var report = Report()
        try await catalog.store(built)
        if deferThumbnails {
            // After the store: a job names an asset row that exists.
            let jobs = built.filter { $0.record.kind == .model && $0.record.error == nil }.map {
                ThumbnailJob(assetId: $0.record.id, contentHash: $0.record.contentHash, size: render.size, view: ThumbnailView(render.view))
            }
            try await catalog.enqueueThumbnails(jobs)
            report.thumbnailJobs += jobs.count
        }
        for entry in built {
            if known[id: entry.record.id] == nil { report.added += 1 } else { report.updated += 1 }
            if entry.record.error != nil { report.failed += 1 }
            if thumbnails && !deferThumbnails, entry.record.kind == .model, entry.record.error == nil, entry.record.thumbnail == nil { report.thumbnailsFailed += 1 }
            progress(entry.record.id)
        }
        return report
    }

    /// Waits for a batch being stored and adds its counts; its failure is the run's.
    static func merge(_ storing: Task<Report, any Error>?, into report: inout Report) async throws(AssetError) {
        guard let storing else { return }
        let stored: Report
        do { stored = try await storing.value } catch let error as AssetError { throw error } catch {
            throw AssetError(.io("catalog write failed: \(error)"))
        }
        report.added += stored.added
        report.updated += stored.updated
        report.failed += stored.failed
        report.thumbnailsFailed += stored.thumbnailsFailed
        report.thumbnailJobs += stored.thumbnailJobs
    }

    /// Reads one file into its catalog entry; a failure becomes the entry's error. `root` is the
    /// folder the file is under; the record names `recordRoot` (an `s3://` location for a staged
    /// bucket) and its textures by `rootName`.
    func entry(for candidate: Candidate, root: String, recordRoot: String? = nil, rootName: String? = nil,
               cache: ThumbnailCache, readOptions: ReadOptions) -> CatalogEntry {
        let now = Date().timeIntervalSince1970
        var record = CatalogRecord(id: candidate.id, root: recordRoot ?? root, kind: candidate.kind, format: candidate.format,
                                   byteSize: candidate.byteSize, contentHash: "", modifiedAt: candidate.modifiedAt, indexedAt: now)
        let hash: String
        do throws(AssetError) { hash = try ContentHash.file(candidate.path, name: readOptions.name(ofPath: candidate.path)) } catch {
            record.error = error.description
            return CatalogEntry(record: record)
        }
        record.contentHash = hash
        guard candidate.kind == .model else { return CatalogEntry(record: record) }
        let result: ReadResult
        do throws(AssetError) {
            result = try registry.read(URL(fileURLWithPath: candidate.path), options: readOptions)
        } catch {
            // A package the reader refuses (a compressed entry, say) still has an ARKit verdict.
            record.error = error.description
            var warnings: [String] = []
            let rules = verdict(of: candidate, options: readOptions, into: &record, warnings: &warnings)
            return CatalogEntry(record: record, warnings: warnings, arkitRules: rules)
        }
        let scene = result.scene
        let stats = scene.stats
        record.format = scene.metadata.sourceFormat ?? candidate.format  // the content's word over the extension's
        (record.nodes, record.meshes, record.points, record.faces) = (stats.nodes, stats.meshes, stats.points, stats.faces)
        (record.triangles, record.primitives, record.materials, record.textures) = (stats.triangles, stats.primitives, stats.materials, stats.textures)
        (record.skeletons, record.joints, record.skinnedMeshes) = (stats.skeletons, stats.joints, stats.skinnedMeshes)
        (record.blendShapes, record.animations, record.animatedNodes) = (stats.blendShapes, stats.animations, stats.animatedNodes)
        (record.splats, record.splatSHDegree) = (stats.splats, stats.splatSHDegree)
        record.duration = stats.duration
        record.upAxis = scene.metadata.upAxis.rawValue
        record.metersPerUnit = scene.metadata.declaresUnits ? scene.metadata.metersPerUnit : nil
        record.setBounds(scene.worldBounds, metersPerUnit: scene.metadata.metersPerUnit)
        var nodeNames: [String] = []
        scene.forEachNode { _, visit in nodeNames.append(visit.path) }
        let references = scene.textures.map { texture -> TextureReferenceRow in
            var resolvedID: String?
            if case .file(_, let resolved?) = texture.source, resolved.hasPrefix(root + "/") {
                resolvedID = (rootName ?? (root as NSString).lastPathComponent) + "/" + String(resolved.dropFirst(root.count + 1))
            }
            return TextureReferenceRow(path: texture.authoredPath, resolves: texture.resolves, resolvedID: resolvedID)
        }
        record.missingTextures = references.filter { !$0.resolves }.count
        var warnings = result.warnings.prefix(Self.warningsKept).map(\.description)
        record.warningCount = result.warnings.count
        if thumbnails && !deferThumbnails {
            do throws(AssetError) {
                var renderer = ThumbnailUseCase(render: render, readOptions: readOptions)
                renderer.registry = registry
                _ = try cache.png(contentHash: hash, size: render.size, view: ThumbnailView(render.view), renderer: renderer) { scene }
                record.thumbnail = ThumbnailCache.relativePath(contentHash: hash, size: render.size, view: ThumbnailView(render.view), look: render.lookDigest)
            } catch {
                // The asset stays indexed; first among its warnings, the catalog says why it has no picture.
                warnings.insert("thumbnail not rendered: \(error)", at: 0)
                record.warningCount += 1
            }
        }
        let arkitRules = verdict(of: candidate, options: readOptions, into: &record, warnings: &warnings)
        return CatalogEntry(record: record, nodeNames: nodeNames, materialNames: scene.materials.map(\.name),
                            textureReferences: references, warnings: Array(warnings.prefix(Self.warningsKept)), arkitRules: arkitRules)
    }

    /// The verdict `assetc validate` gives a USD model, kept in its record; the failing rules are
    /// returned for the entry. A stage that cannot be inspected keeps no verdict, and says why.
    private func verdict(of candidate: Candidate, options: ReadOptions, into record: inout CatalogRecord, warnings: inout [String]) -> [String] {
        guard record.format.isUSD else { return [] }
        do throws(AssetError) {
            let report = try AssetValidator(options: options).validate(path: candidate.path, format: record.format)
            (record.arkitErrors, record.arkitWarnings) = (report.errorCount, report.warningCount)
            return report.failingRules
        } catch {
            warnings.insert("not validated against the ARKit rules: \(error)", at: 0)
            record.warningCount += 1
            return []
        }
    }
}

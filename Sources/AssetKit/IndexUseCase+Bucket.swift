import AssetCatalog
import AssetCore
import AssetPipeline
import AssetStorage
import Foundation

/// `index s3://BUCKET/PREFIX`: the listing stands for the folder walk. Each object's ETag is
/// recorded; an object whose ETag is unchanged is not read again, changed ones are staged
/// (`StagedPrefix`) with the references they resolve and read as files are, deleted keys leave
/// the catalog.
extension IndexUseCase {
    func index(bucket text: String, catalog: any Catalog, report: inout Report, progress: @escaping @Sendable (String) -> Void) async throws(AssetError) {
        guard case .bucket(let address) = try StorageLocation.parse(text) else { return }
        let store = try stores.open(text)
        let root = address.description
        let known = try await catalog.fingerprints(root: root)
        let objects = try await offPool { () throws(AssetError) in try store.list() }
        var candidates: [(file: Candidate, etag: String)] = []
        for object in objects {
            if let problem = ObjectKey.problem(object.key) {
                report.skipped.append("\(store.name(of: ObjectKey.printable(object.key))): \(problem); not indexed")
                continue
            }
            // Hidden entries stay out, as in a folder walk (a catalog kept in the bucket, `.DS_Store`).
            if object.key.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            guard let format = Self.format(ofKey: object.key, registry: registry) else { continue }
            let file = Candidate(id: address.name + "/" + object.key, relativePath: object.key, path: "", kind: format.kind, format: format,
                                 byteSize: object.byteSize, modifiedAt: object.modifiedAt)
            candidates.append((file, object.etag))
        }
        var changed: [(file: Candidate, etag: String)] = []
        var touched: [(id: String, modifiedAt: Double)] = []
        for candidate in candidates {
            if candidate.file.kind == .model { report.models += 1 } else { report.textures += 1 }
            if let fingerprint = known[id: candidate.file.id], !candidate.etag.isEmpty, fingerprint.etag == candidate.etag,
               fingerprint.byteSize == candidate.file.byteSize {
                if fingerprint.modifiedAt != candidate.file.modifiedAt { touched.append((candidate.file.id, candidate.file.modifiedAt)) }
                report.unchanged += 1
            } else {
                changed.append(candidate)
            }
        }
        if !touched.isEmpty { try await catalog.touch(touched) }
        var vanished = Set<[UInt8]>()
        var storing: Task<Report, any Error>?
        let cache = thumbnailCache(catalog)
        for start in stride(from: 0, to: changed.count, by: batchSize) {
            let batch = Array(changed[start..<min(start + batchSize, changed.count)])
            // One staging per batch: what a batch shares (textures, sublayers) is fetched once,
            // and the local disk holds one batch's objects at a time.
            let sources = AssetSources(stores: StoreOpener { _ in store }, maxBytes: readOptions.limits.maxFileBytes, rangedPackages: false)
            let staging = try sources.prefix(root)
            let options = staging.readOptions(readOptions)
            let fetched = staging.stage(batch.map(\.file.relativePath), concurrency: Self.requestsInFlight)
            let outcomes = Locked([Result<CatalogEntry, AssetError>?](repeating: nil, count: batch.count))
            DispatchQueue.concurrentPerform(iterations: batch.count) { k in
                let outcome = stagedEntry(batch[k], fetched: fetched[k], staging: staging, root: root, rootName: address.name, cache: cache, options: options)
                outcomes.withLock { $0[k] = outcome }
            }
            let (unreachable, notes) = sources.close()
            if let unreachable { throw unreachable }
            var built: [CatalogEntry] = []
            for (candidate, outcome) in zip(batch, outcomes.value) {
                switch outcome! {
                case .success(let entry): built.append(entry)
                case .failure(let error) where error.kind == .fileNotFound:
                    vanished.insert(Array(candidate.file.id.utf8))
                    report.skipped.append("\(store.name(of: candidate.file.relativePath)): deleted after the listing; left out")
                case .failure(let error): throw error  // the store stopped answering: nothing half-read is recorded
                }
            }
            report.skipped += notes
            try await Self.merge(storing, into: &report)
            storing = Task { [built] in try await record(built, known: known, catalog: catalog, progress: progress) }
        }
        try await Self.merge(storing, into: &report)
        let seen = Set(candidates.map { Array($0.file.id.utf8) }).subtracting(vanished)
        let gone = known.ids.filter { !seen.contains(Array($0.utf8)) }.sorted()
        if !gone.isEmpty { try await catalog.remove(gone) }
        report.removed += gone.count
    }

    /// Object requests a batch keeps in flight: enough to hide loopback and LAN round trips
    /// behind each other (8 and 16 measured alike on SeaweedFS; 2, one per core, was slower).
    static let requestsInFlight = 8


    /// One object staged and read into its entry, its messages naming `s3://` as the readers
    /// wrote them (the staged folders are in `options`). A missing object and an unreachable store are failures; anything else
    /// wrong becomes the entry's error, as for a file.
    private func stagedEntry(_ candidate: (file: Candidate, etag: String), fetched: Result<String, AssetError>, staging: StagedPrefix,
                             root: String, rootName: String, cache: ThumbnailCache, options: ReadOptions) -> Result<CatalogEntry, AssetError> {
        var file = candidate.file
        do throws(AssetError) { file.path = try fetched.get() } catch {
            switch error.kind {
            case .fileNotFound, .unavailable: return .failure(error)
            default:
                var record = CatalogRecord(id: file.id, root: root, kind: file.kind, format: file.format, byteSize: file.byteSize,
                                           contentHash: "", modifiedAt: file.modifiedAt, indexedAt: Date().timeIntervalSince1970)
                record.etag = candidate.etag
                record.error = error.description
                return .success(CatalogEntry(record: record))
            }
        }
        var entry = entry(for: file, root: staging.folder, recordRoot: root, rootName: rootName, cache: cache, readOptions: options)
        entry.record.etag = candidate.etag
        return .success(entry)
    }

    /// A key's format by its extension alone: judging by content would mean reading every object.
    static func format(ofKey key: String, registry: FormatRegistry) -> AssetFormat? {
        let ext = (key as NSString).pathExtension
        if let texture = AssetFormat.texture(byExtension: ext) { return texture }
        return registry.recognisedFormat(URL(fileURLWithPath: "/nonexistent-assetc-key/" + key))
    }
}

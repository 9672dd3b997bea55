import AssetCatalog
import AssetKit
import Foundation
import Logging

/// An asset's bytes where its record says they are, opened only when a picture or conversion must
/// really be made (a cached one needs no source): a file under its indexed folder, or an object
/// under its bucket prefix, staged with the references it resolves for as long as the work lasts.
final class OpenedAsset: Sendable {
    let record: CatalogSummary
    private let stores: StoreOpener
    private let opened = Locked<(path: String, options: ReadOptions, sources: AssetSources?)?>(nil)
    private static let logger = Logger(label: "assetc.serve.staging")

    init(_ record: CatalogSummary, stores: StoreOpener) {
        self.record = record
        self.stores = stores
    }

    /// The local path to read and the options to read it with; the first call stages a bucket
    /// object. Missing is `fileNotFound` (404); an unreachable store is `unavailable` (503).
    func open() throws(AssetError) -> (path: String, options: ReadOptions) {
        if let known = opened.value { return (known.path, known.options) }
        let relative = record.id.split(separator: "/").dropFirst().joined(separator: "/")
        guard StorageLocation.isBucket(record.root) else {
            guard let path = AssetPath.existingFile(root: record.root, relative: relative) else {
                throw AssetError(.fileNotFound, at: SourceLocation(file: record.id + " (gone, or outside its folder)"))
            }
            let options = AssetPath.readOptions(for: record)
            opened.withLock { $0 = (path, options, nil) }
            return (path, options)
        }
        let sources = AssetSources(stores: stores)
        do throws(AssetError) {
            let (path, options) = try sources.locate(root: record.root, relative: relative)
            opened.withLock { $0 = (path, options, sources) }
            return (path, options)
        } catch {
            sources.close()
            throw error
        }
    }

    /// Deletes what was staged; a failure met while references were fetched (the store stopped
    /// answering) is thrown, so a picture missing a texture for that reason is not served. Any
    /// other (a reference over the read limit) is logged: the reader saw only "not found".
    func close() throws(AssetError) {
        guard let sources = opened.withLock({ value in defer { value = nil }; return value?.sources }) else { return }
        let (unreachable, notes) = sources.close()
        for note in notes {
            Self.logger.warning("a reference was not fetched", metadata: ["asset": "\(record.id)", "why": "\(note)"])
        }
        if let unreachable { throw unreachable }
    }

    /// `work` with the asset open, closed after whatever happened.
    func using<T>(_ work: () throws(AssetError) -> T) throws(AssetError) -> T {
        let result: T
        do throws(AssetError) { result = try work() } catch {
            try? close()  // the work's own error is the one to report
            throw error
        }
        try close()
        return result
    }
}

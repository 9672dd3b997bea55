import AssetCatalog
import AssetKit
import Logging

/// Runs one reindex at a time in the background; readers keep being served meanwhile (the
/// indexer writes in transactions; SQLite's WAL mode and PostgreSQL's MVCC let readers go on).
actor Reindexer {
    let catalog: any Catalog
    let roots: [String]
    let stores: StoreOpener
    /// Called when a reindex ends, so what was cached from the old catalog goes.
    let onFinish: @Sendable () -> Void
    private(set) var running = false
    private let logger = Logger(label: "assetc.serve.reindex")

    init(catalog: any Catalog, roots: [String], stores: StoreOpener = .localOnly, onFinish: @escaping @Sendable () -> Void = {}) {
        self.catalog = catalog
        self.roots = roots
        self.stores = stores
        self.onFinish = onFinish
    }

    /// Starts a reindex; false when one is already running.
    func start() -> Bool {
        guard !running else { return false }
        running = true
        let catalog = self.catalog, roots = self.roots, logger = self.logger, stores = self.stores
        Task.detached {
            do throws(AssetError) {
                var indexer = IndexUseCase(thumbnails: false)
                indexer.stores = stores
                let report = try await indexer.run(roots: roots, catalog: catalog)
                logger.info("reindex done", metadata: ["added": "\(report.added)", "updated": "\(report.updated)", "removed": "\(report.removed)"])
            } catch {
                logger.error("reindex failed", metadata: ["error": "\(error)"])
            }
            await self.finish()
        }
        return true
    }

    private func finish() {
        onFinish()
        running = false
    }
}

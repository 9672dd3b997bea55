import AssetCatalog
import AssetCore
import AssetKit
import Logging

/// Runs one reindex at a time in the background; readers keep being served meanwhile (the
/// catalog is in WAL mode and the indexer writes in transactions).
actor Reindexer {
    let catalog: Catalog
    let roots: [String]
    /// Called when a reindex ends, so what was cached from the old catalog goes.
    let onFinish: @Sendable () -> Void
    private(set) var running = false
    private let logger = Logger(label: "assetc.serve.reindex")

    init(catalog: Catalog, roots: [String], onFinish: @escaping @Sendable () -> Void = {}) {
        self.catalog = catalog
        self.roots = roots
        self.onFinish = onFinish
    }

    /// Starts a reindex; false when one is already running.
    func start() -> Bool {
        guard !running else { return false }
        running = true
        let catalog = self.catalog, roots = self.roots, logger = self.logger
        Task.detached {
            do throws(AssetError) {
                let report = try IndexUseCase(thumbnails: false).run(roots: roots, catalog: catalog)
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

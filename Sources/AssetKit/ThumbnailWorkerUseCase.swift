import AssetCatalog
import AssetCore
import AssetPipeline
import AssetRender
import Foundation

/// `assetc worker`: claims thumbnail jobs that `index --defer-thumbnails` recorded, renders them
/// into the catalog's thumbnail store, and records each outcome. Any number of workers on any
/// number of machines share one catalog; each job goes to one of them. A worker that dies leaves
/// its jobs to be claimed again once their lease runs out.
public struct ThumbnailWorkerUseCase: Sendable {
    /// Shown in the catalog as the job's claimer: host and process id by default.
    public var name: String
    /// Jobs claimed at a time; they render on all cores.
    public var batchSize = 8
    /// How long a claimed job stays with this worker before another may take it.
    public var leaseSeconds: Double = 600
    /// Keep polling for new jobs (every `pollSeconds`) instead of stopping when none are left.
    public var watch = false
    public var pollSeconds: Double = 2
    /// Stop after this many jobs (0: no limit).
    public var maxJobs = 0
    /// Asked between batches and while waiting: true ends the run (a signal, in the CLI).
    public var shouldStop: @Sendable () -> Bool = { false }
    package var registry: FormatRegistry = .standard

    public init(name: String = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)") {
        self.name = name
    }

    public struct Report: Sendable, Equatable {
        public var rendered = 0
        public var failed = 0
    }

    public func run(catalog: any Catalog, progress: @Sendable (ThumbnailJob, String?) -> Void = { _, _ in }) async throws(AssetError) -> Report {
        var report = Report()
        while (maxJobs == 0 || report.rendered + report.failed < maxJobs) && !shouldStop() {
            let want = maxJobs == 0 ? batchSize : min(batchSize, maxJobs - report.rendered - report.failed)
            let jobs = try await catalog.claimThumbnails(worker: name, limit: want, leaseSeconds: leaseSeconds)
            if jobs.isEmpty {
                guard watch else { break }
                // In short steps, so a stop request is seen within a fifth of a second.
                let until = ContinuousClock.now + .seconds(pollSeconds)
                while ContinuousClock.now < until && !shouldStop() {
                    do { try await Task.sleep(for: .milliseconds(200)) } catch { return report }  // cancelled: stop
                }
                continue
            }
            let outcomes = Locked([String?](repeating: nil, count: jobs.count))
            let summaries = try await summaries(of: jobs, catalog: catalog)
            DispatchQueue.concurrentPerform(iterations: jobs.count) { k in
                let error = render(jobs[k], summary: summaries[k], folder: catalog.folder)
                outcomes.withLock { $0[k] = error }
            }
            let finished = zip(jobs, outcomes.value).map { job, error in
                ThumbnailOutcome(job: job, thumbnail: error == nil ? ThumbnailCache.relativePath(
                    contentHash: job.contentHash, size: job.size, view: job.view) : nil, error: error)
            }
            try await catalog.finishThumbnails(finished)
            for outcome in finished {
                if outcome.error == nil { report.rendered += 1 } else { report.failed += 1 }
                progress(outcome.job, outcome.error)
            }
        }
        return report
    }

    private func summaries(of jobs: [ThumbnailJob], catalog: any Catalog) async throws(AssetError) -> [CatalogSummary?] {
        var out: [CatalogSummary?] = []
        for job in jobs { out.append(try await catalog.summary(id: job.assetId)) }
        return out
    }

    /// Renders one job; nil on success, else why not. References resolve under the asset's own
    /// indexed folder only, as the service reads it.
    private func render(_ job: ThumbnailJob, summary: CatalogSummary?, folder: String) -> String? {
        guard let summary else { return "the asset is no longer in the catalog" }
        guard summary.contentHash == job.contentHash else { return "the asset changed after the job was recorded" }
        let view = job.view
        let relative = summary.id.split(separator: "/").dropFirst().joined(separator: "/")
        let path = (summary.root as NSString).appendingPathComponent(relative)
        let readOptions = ReadOptions(assetRoot: .folder(summary.root), allowsPathsOutsideAsset: false)
        var renderer = ThumbnailUseCase(readOptions: readOptions)
        renderer.registry = registry
        do throws(AssetError) {
            _ = try ThumbnailCache(catalogFolder: folder).png(contentHash: job.contentHash, size: job.size, view: view, renderer: renderer) {
                () throws(AssetError) in try registry.read(URL(fileURLWithPath: path), options: readOptions).scene
            }
            return nil
        } catch {
            return error.description
        }
    }
}

import AssetCatalog
import AssetCore
import AssetPipeline
import AssetRender
import AssetStorage
import Foundation

/// `assetc worker`: claims thumbnail jobs that `index --defer-thumbnails` recorded, renders them
/// into the catalog's thumbnail store, and records each outcome. Any number of workers on any
/// number of machines share one catalog; each job goes to one of them. A worker that dies leaves
/// its jobs to be claimed again once their lease runs out; one whose database stops answering
/// keeps what it rendered and retries, with a growing pause, until the database is back.
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
    /// Asked between batches, between jobs and while waiting: true ends the run once what is in
    /// hand is recorded, jobs not yet started being handed back (a signal, in the CLI).
    public var shouldStop: @Sendable () -> Bool = { false }
    /// How long catalog calls are retried while the database is unreachable before the run fails
    /// with that error; nil retries without end (a `--watch` worker's default).
    public var unavailableRetrySeconds: Double? = 300
    /// Told each time a call finds the database unreachable, with the pause before the next try.
    public var onUnavailable: @Sendable (AssetError, Duration) -> Void = { _, _ in }
    /// What fetching a bucket asset's references met other than absence (an object over the read
    /// limit): the picture was made without it, and the reader could say only "not found".
    public var onStagingNote: @Sendable (String) -> Void = { _ in }
    package var registry: FormatRegistry = .standard
    /// The look every thumbnail is rendered with (lighting, environment, tone mapping, shadow);
    /// size and view come from each job. Workers sharing a catalog should share it, as the indexer's
    /// and the service's thumbnail names include it.
    public var render = RenderOptions()
    /// Opens `s3://` roots (the executable's S3 client); the library alone renders from folders.
    public var stores: StoreOpener = .localOnly
    /// Where thumbnails go; nil: the catalog's folder.
    public var thumbnailStore: (any ObjectStore)?

    public init(name: String = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)") {
        self.name = name
    }

    public struct Report: Sendable, Equatable {
        public var rendered = 0
        public var failed = 0
        /// Claimed but not started when a stop was asked for: pending again for any worker.
        public var released = 0
    }

    private enum Outcome: Sendable {
        case rendered
        case failed(String)
        case notStarted
    }

    public func run(catalog: any Catalog, progress: @Sendable (ThumbnailJob, String?) -> Void = { _, _ in }) async throws(AssetError) -> Report {
        var report = Report()
        while (maxJobs == 0 || report.rendered + report.failed < maxJobs) && !shouldStop() {
            let want = maxJobs == 0 ? batchSize : min(batchSize, maxJobs - report.rendered - report.failed)
            let jobs = try await retrying(stoppable: true) { () async throws(AssetError) in
                try await catalog.claimThumbnails(worker: name, limit: want, leaseSeconds: leaseSeconds)
            }
            if jobs.isEmpty {
                guard watch else { break }
                // In short steps, so a stop request is seen within a fifth of a second.
                let until = ContinuousClock.now + .seconds(pollSeconds)
                while ContinuousClock.now < until && !shouldStop() {
                    do { try await Task.sleep(for: .milliseconds(200)) } catch { return report }  // cancelled: stop
                }
                continue
            }
            let summaries = try await retrying(stoppable: false) { () async throws(AssetError) in try await self.summaries(of: jobs, catalog: catalog) }
            let outcomes = Locked([Outcome](repeating: .notStarted, count: jobs.count))
            let cache = thumbnailStore.map { ThumbnailCache(store: $0, catalogFolder: catalog.folder) } ?? ThumbnailCache(catalogFolder: catalog.folder)
            let sources = AssetSources(stores: stores)
            DispatchQueue.concurrentPerform(iterations: jobs.count) { k in
                guard !shouldStop() else { return }
                let outcome: Outcome = render(jobs[k], summary: summaries[k], cache: cache, sources: sources).map { .failed($0) } ?? .rendered
                outcomes.withLock { $0[k] = outcome }
            }
            let (unreachable, notes) = sources.close()
            notes.forEach(onStagingNote)
            // The store stopped answering: the jobs go back rather than fail for it.
            if let unreachable {
                try await retrying(stoppable: false) { () async throws(AssetError) in try await catalog.releaseThumbnails(jobs, worker: name) }
                throw unreachable
            }
            var finished: [ThumbnailOutcome] = [], handedBack: [ThumbnailJob] = []
            for (job, outcome) in zip(jobs, outcomes.value) {
                switch outcome {
                case .rendered:
                    finished.append(ThumbnailOutcome(job: job, thumbnail: ThumbnailCache.relativePath(contentHash: job.contentHash, size: job.size, view: job.view, look: render.lookDigest), error: nil))
                case .failed(let why): finished.append(ThumbnailOutcome(job: job, thumbnail: nil, error: why))
                case .notStarted: handedBack.append(job)
                }
            }
            // What was rendered is recorded even after a stop request: the files are in the store.
            try await retrying(stoppable: false) { () async throws(AssetError) in try await catalog.finishThumbnails(finished) }
            try await retrying(stoppable: false) { () async throws(AssetError) in try await catalog.releaseThumbnails(handedBack, worker: name) }
            for outcome in finished {
                if outcome.error == nil { report.rendered += 1 } else { report.failed += 1 }
                progress(outcome.job, outcome.error)
            }
            report.released += handedBack.count
        }
        return report
    }

    /// Runs a catalog call again while the database is unreachable, pausing half a second, then
    /// twice as long each time up to half a minute, for at most `unavailableRetrySeconds`.
    /// A `stoppable` call (claiming work) gives up at a stop request; recording work does not.
    private func retrying<T>(stoppable: Bool, _ call: () async throws(AssetError) -> T) async throws(AssetError) -> T {
        let start = ContinuousClock.now
        var pause: Duration = .milliseconds(500)
        while true {
            do { return try await call() } catch {
                guard case .unavailable = error.kind, !(stoppable && shouldStop()) else { throw error }
                if let limit = unavailableRetrySeconds, ContinuousClock.now + pause > start + .seconds(limit) { throw error }
                onUnavailable(error, pause)
                let until = ContinuousClock.now + pause
                while ContinuousClock.now < until {
                    if stoppable && shouldStop() { throw error }
                    do { try await Task.sleep(for: .milliseconds(100)) } catch { throw AssetError(.io("the worker was cancelled")) }
                }
                pause = min(pause * 2, .seconds(30))
            }
        }
    }

    private func summaries(of jobs: [ThumbnailJob], catalog: any Catalog) async throws(AssetError) -> [CatalogSummary?] {
        var out: [CatalogSummary?] = []
        for job in jobs { out.append(try await catalog.summary(id: job.assetId)) }
        return out
    }

    /// Renders one job; nil on success, else why not. References resolve under the asset's own
    /// indexed folder (or bucket prefix) only, as the service reads it.
    private func render(_ job: ThumbnailJob, summary: CatalogSummary?, cache: ThumbnailCache, sources: AssetSources) -> String? {
        guard let summary else { return "the asset is no longer in the catalog" }
        guard summary.contentHash == job.contentHash else { return "the asset changed after the job was recorded" }
        let view = job.view
        let relative = summary.id.split(separator: "/").dropFirst().joined(separator: "/")
        do throws(AssetError) {
            let (path, readOptions) = try sources.locate(root: summary.root, relative: relative)
            var renderer = ThumbnailUseCase(render: render, readOptions: readOptions)
            renderer.registry = registry
            _ = try cache.png(contentHash: job.contentHash, size: job.size, view: view, renderer: renderer) {
                () throws(AssetError) in try registry.read(URL(fileURLWithPath: path), options: readOptions).scene
            }
            return nil
        } catch {
            if case .unavailable = error.kind { sources.noteUnreachable(error) }
            return error.description
        }
    }
}

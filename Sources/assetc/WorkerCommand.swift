import ArgumentParser
import AssetCatalog
import AssetCore
import AssetKit
import Foundation

struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Render the thumbnail jobs that index --defer-thumbnails recorded; run any number, on any machines.",
        discussion: """
            Each job goes to one worker (PostgreSQL's FOR UPDATE SKIP LOCKED; SQLite's single writer). \
            Thumbnails are written to the catalog's thumbnail store, which every worker and server must \
            share (--thumbnail-store: a bucket, s3://BUCKET/PREFIX, or a shared folder for a PostgreSQL catalog). \
            Assets indexed from a bucket are fetched from it into a private folder, one batch at a time. Stops when no job is left, unless --watch. \
            A worker that dies leaves its jobs to others once their lease runs out.
            """)

    @OptionGroup var location: CatalogLocation

    @Flag(help: "Keep waiting for new jobs instead of stopping when none are left (until SIGINT or SIGTERM).")
    var watch = false

    @Option(help: "Jobs claimed at a time; they render on all cores.")
    var batch = 8

    @Option(help: "Stop after this many jobs (0: no limit).")
    var maxJobs = 0

    @Option(help: "Seconds a claimed job stays with this worker before another may take it.")
    var lease: Double = 600

    @Option(help: "The name recorded on claimed jobs (default: host:pid).")
    var name: String?

    @Option(help: ArgumentHelp("Seconds to keep retrying while the catalog's database or an S3 store is unreachable, then fail with status 75 (default: 300; with --watch, without end).",
                               valueName: "seconds"))
    var retryFor: Double?

    @OptionGroup(title: "Look of the thumbnails (the same as the indexer's)") var look: LookOptions

    func validate() throws {
        guard batch > 0 else { throw ValidationError("--batch takes a positive number") }
        guard maxJobs >= 0 else { throw ValidationError("--max-jobs takes 0 or more") }
        guard lease >= 1 else { throw ValidationError("--lease takes at least 1 second") }
        if let retryFor, !(retryFor >= 0 && retryFor.isFinite) { throw ValidationError("--retry-for takes 0 or more seconds") }
    }

    func run() async throws {
        var worker = name.map { ThumbnailWorkerUseCase(name: $0) } ?? ThumbnailWorkerUseCase()
        (worker.batchSize, worker.maxJobs, worker.leaseSeconds, worker.watch) = (batch, maxJobs, lease, watch)
        let stop = SignalStop()
        worker.shouldStop = { stop.requested }
        worker.unavailableRetrySeconds = retryFor ?? (watch ? nil : 300)
        worker.onUnavailable = { error, pause in
            var stderr = StandardError()
            print("assetc: worker: \(TerminalText.safe(error.description)); trying again in \(String(format: "%.1f", Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18)) s",
                  to: &stderr)
        }
        worker.onStagingNote = { note in
            var stderr = StandardError()
            print("assetc: worker: warning: \(TerminalText.safe(note))", to: &stderr)
        }
        let storeRetry = Stores.retry(for: worker.unavailableRetrySeconds ?? .infinity)
        worker.stores = Stores.opener(retry: storeRetry)
        worker.thumbnailStore = try location.bucketThumbnailStore(retry: storeRetry)
        let report = try await location.with { catalog in
            try look.apply(to: &worker.render, cacheFolder: ThumbnailCache(catalogFolder: catalog.folder).environmentFolder)
            return try await worker.run(catalog: catalog) { job, error in
                if let error {
                    var stderr = StandardError()
                    print("assetc: worker: \(TerminalText.safe(job.assetId)): \(TerminalText.safe(error))", to: &stderr)
                }
            }
        }
        var summary = "rendered \(report.rendered) thumbnails, \(report.failed) failed"
        if report.released > 0 { summary += ", \(report.released) handed back unstarted" }
        print(summary)
        if report.failed > 0 { throw ExitCode(1) }
    }
}

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
            share (--thumbnail-store for a PostgreSQL catalog). Stops when no job is left, unless --watch. \
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

    func validate() throws {
        guard batch > 0 else { throw ValidationError("--batch takes a positive number") }
        guard maxJobs >= 0 else { throw ValidationError("--max-jobs takes 0 or more") }
        guard lease >= 1 else { throw ValidationError("--lease takes at least 1 second") }
    }

    func run() async throws {
        var worker = name.map { ThumbnailWorkerUseCase(name: $0) } ?? ThumbnailWorkerUseCase()
        (worker.batchSize, worker.maxJobs, worker.leaseSeconds, worker.watch) = (batch, maxJobs, lease, watch)
        let stop = SignalStop()
        worker.shouldStop = { stop.requested }
        let report = try await location.with { catalog in
            try await worker.run(catalog: catalog) { job, error in
                if let error {
                    var stderr = StandardError()
                    print("assetc: worker: \(TerminalText.safe(job.assetId)): \(TerminalText.safe(error))", to: &stderr)
                }
            }
        }
        print("rendered \(report.rendered) thumbnails, \(report.failed) failed")
        if report.failed > 0 { throw ExitCode(1) }
    }
}

struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs", abstract: "Show how many thumbnail jobs are pending, running, done and failed.")

    @OptionGroup var location: CatalogLocation

    @Flag(help: "Print JSON.") var json = false

    @Flag(help: "Put failed jobs back to pending first (once what made them fail is fixed).")
    var retryFailed = false

    func run() async throws {
        let counts = try await location.with { catalog in
            if retryFailed {
                let n = try await catalog.retryFailedThumbnails()
                var stderr = StandardError()
                print("\(n) failed jobs back to pending", to: &stderr)
            }
            return try await catalog.jobCounts()
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(counts), as: UTF8.self))
        } else {
            print("pending \(counts.pending)  running \(counts.running)  done \(counts.done)  failed \(counts.failed)")
        }
    }
}

/// SIGINT and SIGTERM ask a long-running command to stop once the work in hand is recorded, so no
/// claimed job is left waiting for its lease; a second signal ends the process at once.
/// Unchecked: `sources` is set once in `init` and only kept alive afterwards.
final class SignalStop: @unchecked Sendable {
    private let flag = Locked(false)
    private let sources: [any DispatchSourceSignal]

    init() {
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [flag] in
                if flag.withLock({ $0 }) { exit(128 + number) }
                flag.withLock { $0 = true }
                var stderr = StandardError()
                print("assetc: stopping after the jobs in hand (signal again to stop now)", to: &stderr)
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    var requested: Bool { flag.withLock { $0 } }
}

import ArgumentParser
import AssetCatalog
import Foundation

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

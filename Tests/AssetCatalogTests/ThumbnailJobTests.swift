import AssetCatalog
import AssetCore
import AssetTestSupport
import CatalogTestSupport
import Foundation
import Testing
@testable import AssetKit

/// Thumbnail jobs, on both engines: each claimed by one worker, reclaimed after a dead worker's
/// lease, failed after too many tries, attached only to the content they were made for.
@Suite struct ThumbnailJobTests {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let temporary = TemporaryFolder("assetc-jobs")

    func catalog(_ backend: CatalogBackend, assets: Int) async throws -> any Catalog {
        let catalog = try await TestCatalog.make(backend, folder: temporary.appendingPathComponent("catalog-\(backend)").path)
        var entries: [CatalogEntry] = []
        for i in 0..<assets {
            entries.append(CatalogEntry(record: CatalogRecord(id: String(format: "r/m%03d.obj", i), root: "/r", kind: .model, format: .obj,
                                                              byteSize: 1, contentHash: "hash\(i)", modifiedAt: 0, indexedAt: 0)))
        }
        try await catalog.store(entries)
        try await catalog.enqueueThumbnails(entries.map { ThumbnailJob(assetId: $0.record.id, contentHash: $0.record.contentHash, size: 64, view: .iso) })
        return catalog
    }

    @Test(arguments: CatalogBackend.allCases) func concurrentClaimsNeverShareAJob(_ backend: CatalogBackend) async throws {
        let catalog = try await catalog(backend, assets: 60)
        #expect(try await catalog.jobCounts() == ThumbnailJobCounts(pending: 60))
        // Four claimers at once, each taking batches of 7 until none are left.
        let claimed = try await withThrowingTaskGroup(of: [String].self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var mine: [String] = []
                    while true {
                        let jobs = try await catalog.claimThumbnails(worker: "w\(worker)", limit: 7, leaseSeconds: 600)
                        if jobs.isEmpty { return mine }
                        #expect(jobs.allSatisfy { $0.attempts == 1 })
                        mine += jobs.map(\.assetId)
                    }
                }
            }
            var all: [String] = []
            for try await ids in group { all += ids }
            return all
        }
        #expect(claimed.count == 60 && Set(claimed).count == 60, "every job once")
        #expect(try await catalog.jobCounts() == ThumbnailJobCounts(running: 60))
        await catalog.close()
    }

    @Test(arguments: CatalogBackend.allCases) func aDeadWorkersJobsAreClaimedAgainThenFailed(_ backend: CatalogBackend) async throws {
        let catalog = try await catalog(backend, assets: 2)
        #expect(try await catalog.claimThumbnails(worker: "dies", limit: 1, leaseSeconds: 600).map(\.assetId) == ["r/m000.obj"])
        #expect(try await catalog.claimThumbnails(worker: "other", limit: 5, leaseSeconds: 600).map(\.assetId) == ["r/m001.obj"],
                "a job in its lease is not handed out again")
        // A lease that has run out: the job goes to the next claimer, until it has been tried enough.
        for attempt in 2...thumbnailJobMaxAttempts {
            let again = try await catalog.claimThumbnails(worker: "next", limit: 1, leaseSeconds: -1)
            #expect(again.map(\.assetId) == ["r/m000.obj"] && again.first?.attempts == attempt, "\(again)")
        }
        #expect(try await catalog.claimThumbnails(worker: "last", limit: 1, leaseSeconds: -1).map(\.assetId) == ["r/m001.obj"],
                "the other job's lease ran out too; the first is past its tries")
        let counts = try await catalog.jobCounts()
        #expect(counts.failed == 1 && counts.running == 1, "\(counts)")
        #expect(try await catalog.retryFailedThumbnails() == 1)
        #expect(try await catalog.jobCounts().pending == 1)
        await catalog.close()
    }

    @Test(arguments: CatalogBackend.allCases) func aFinishedJobAttachesOnlyToTheContentItWasMadeFor(_ backend: CatalogBackend) async throws {
        let catalog = try await catalog(backend, assets: 2)
        let jobs = try await catalog.claimThumbnails(worker: "w", limit: 2, leaseSeconds: 600)
        // The first asset changes while its job runs: its new content gets a new job.
        var changed = CatalogRecord(id: "r/m000.obj", root: "/r", kind: .model, format: .obj, byteSize: 2, contentHash: "new", modifiedAt: 1, indexedAt: 1)
        changed.triangles = 12
        try await catalog.store([CatalogEntry(record: changed)])
        try await catalog.enqueueThumbnails([ThumbnailJob(assetId: "r/m000.obj", contentHash: "new", size: 64, view: .iso)])
        try await catalog.finishThumbnails([ThumbnailOutcome(job: jobs[0], thumbnail: "thumbnails/hash0-64-iso.png", error: nil),
                                            ThumbnailOutcome(job: jobs[1], thumbnail: "thumbnails/hash1-64-iso.png", error: nil)])
        #expect(try await catalog.record(id: "r/m000.obj")?.record.thumbnail == nil, "no picture of the old content")
        #expect(try await catalog.record(id: "r/m001.obj")?.record.thumbnail == "thumbnails/hash1-64-iso.png")
        #expect(try await catalog.jobCounts() == ThumbnailJobCounts(pending: 1, done: 1))
        // Recording the same content again keeps a finished job finished.
        try await catalog.enqueueThumbnails([ThumbnailJob(assetId: "r/m001.obj", contentHash: "hash1", size: 64, view: .iso)])
        #expect(try await catalog.jobCounts() == ThumbnailJobCounts(pending: 1, done: 1))
        // Removing an asset removes its job.
        try await catalog.remove(["r/m000.obj"])
        #expect(try await catalog.jobCounts() == ThumbnailJobCounts(done: 1))
        await catalog.close()
    }

    /// A job row naming a view or size no assetc renders (written by hand, or by another version)
    /// is failed with the reason at the next claim, never handed out as an `iso` picture, and the
    /// other jobs are claimed as usual.
    @Test(arguments: CatalogBackend.allCases) func jobsWithAnUnknownViewOrSizeAreFailedNotGuessed(_ backend: CatalogBackend) async throws {
        let catalog = try await catalog(backend, assets: 4)
        try TestCatalog.execute("UPDATE thumbnailJob SET view = 'sideways' WHERE assetId = 'r/m001.obj'", on: catalog)
        try TestCatalog.execute("UPDATE thumbnailJob SET size = 200 WHERE assetId = 'r/m002.obj'", on: catalog)
        let claimed = try await catalog.claimThumbnails(worker: "w", limit: 10, leaseSeconds: 600)
        #expect(claimed.map(\.assetId) == ["r/m000.obj", "r/m003.obj"])
        #expect(claimed.allSatisfy { $0.view == .iso && $0.size == 64 })
        #expect(try await catalog.jobCounts() == ThumbnailJobCounts(running: 2, failed: 2))
        await catalog.close()
    }

    /// `index --defer-thumbnails` then the worker: the pictures the indexer would have made.
    @Test(arguments: CatalogBackend.allCases) func theWorkerRendersWhatTheIndexerDeferred(_ backend: CatalogBackend) async throws {
        let art = temporary.appendingPathComponent("Art-\(backend)")
        try FileManager.default.copyItem(at: repository.appendingPathComponent("Assets"), to: art)
        let leftover = art.appendingPathComponent(".assetc")
        if FileManager.default.fileExists(atPath: leftover.path) { try FileManager.default.removeItem(at: leftover) }
        let catalog = try await TestCatalog.make(backend, folder: art.appendingPathComponent(".assetc").path)
        var index = IndexUseCase()
        index.deferThumbnails = true
        index.render.size = 32
        let report = try await index.run(roots: [art.path], catalog: catalog)
        #expect(report.thumbnailJobs == 3 && report.thumbnailsFailed == 0)
        #expect(try await catalog.query("kind = model").allSatisfy { $0.thumbnail == nil }, "nothing rendered yet")

        var worker = ThumbnailWorkerUseCase(name: "test")
        worker.batchSize = 2
        let done = try await worker.run(catalog: catalog)
        #expect(done == ThumbnailWorkerUseCase.Report(rendered: 3, failed: 0))
        for record in try await catalog.query("kind = model") {
            #expect(record.thumbnail == "thumbnails/\(record.contentHash)-32-iso-\(ThumbnailUseCase().render.lookDigest).png", "\(record.id)")
            let png = try Data(contentsOf: URL(fileURLWithPath: catalog.folder).appendingPathComponent(record.thumbnail ?? "none"))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }
        // A file gone before its job ran: that job fails, saying why; the others carry on.
        let tiny = art.appendingPathComponent("tiny.usda"), other = art.appendingPathComponent("other.usda")
        let mesh = "#usda 1.0\ndef Mesh \"M\" {\n    int[] faceVertexCounts = [3]\n    int[] faceVertexIndices = [0, 1, 2]\n    point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]\n}\n"
        try Data(mesh.utf8).write(to: tiny)
        try Data(mesh.replacingOccurrences(of: "(1, 0, 0)", with: "(2, 0, 0)").utf8).write(to: other)
        #expect(try await index.run(roots: [art.path], catalog: catalog).thumbnailJobs == 2)
        try FileManager.default.removeItem(at: tiny)
        let failures = Locked([String]())
        let second = try await worker.run(catalog: catalog) { job, error in if let error { failures.withLock { $0.append("\(job.assetId): \(error)") } } }
        #expect(second == ThumbnailWorkerUseCase.Report(rendered: 1, failed: 1))
        #expect(failures.value.count == 1 && failures.value[0].hasPrefix("Art-\(backend)/tiny.usda: "), "\(failures.value)")
        #expect(try await catalog.jobCounts() == ThumbnailJobCounts(done: 4, failed: 1))
        await catalog.close()
    }

    /// A stop asked for mid-batch: the jobs already rendering finish and are recorded; the rest go
    /// back to pending, unclaimed and with the attempt not counted, for the next worker.
    @Test(arguments: CatalogBackend.allCases) func aStoppedWorkerHandsBackWhatItHadNotStarted(_ backend: CatalogBackend) async throws {
        let catalog = try await catalog(backend, assets: 6)
        var worker = ThumbnailWorkerUseCase(name: "stopping")
        worker.batchSize = 6
        // Asked once before the claim, then once per job: the stop comes before the third job starts
        // (two cores render at once, so one or two jobs may have been started by then).
        let asked = Locked(0)
        worker.shouldStop = { asked.withLock { $0 += 1; return $0 > 3 } }
        let report = try await worker.run(catalog: catalog)
        // The assets do not exist, so each started job fails; what matters is where each job ends.
        #expect(report.rendered == 0 && report.failed >= 1 && report.failed + report.released == 6, "\(report)")
        #expect(report.released >= 3)
        #expect(try await catalog.jobCounts() == ThumbnailJobCounts(pending: report.released, failed: report.failed))
        let again = try await catalog.claimThumbnails(worker: "next", limit: 10, leaseSeconds: 600)
        #expect(again.count == report.released && again.allSatisfy { $0.attempts == 1 }, "the handed-back claim is not counted")
        // Only the worker holding a job hands it back.
        try await catalog.releaseThumbnails(again, worker: "stopping")
        #expect(try await catalog.jobCounts() == ThumbnailJobCounts(running: report.released, failed: report.failed))
        await catalog.close()
    }
}

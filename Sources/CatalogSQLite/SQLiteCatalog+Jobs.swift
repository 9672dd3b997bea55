import AssetCatalog
import AssetCore
import Foundation
import GRDB

/// Thumbnail jobs on SQLite: one writer at a time, so a claim inside a write transaction is
/// already exclusive; workers on one machine share the file.
extension SQLiteCatalog {
    public func enqueueThumbnails(_ jobs: [ThumbnailJob]) async throws(AssetError) {
        let now = Date().timeIntervalSince1970
        try await write { db in
            for job in jobs {
                try db.execute(sql: """
                    INSERT INTO thumbnailJob (assetId, contentHash, size, view, state, attempts, updatedAt)
                    VALUES (?, ?, ?, ?, 'pending', 0, ?)
                    ON CONFLICT (assetId) DO UPDATE SET contentHash = excluded.contentHash, size = excluded.size,
                        view = excluded.view, state = 'pending', worker = NULL, claimedAt = NULL, attempts = 0,
                        error = NULL, updatedAt = excluded.updatedAt
                    WHERE thumbnailJob.contentHash <> excluded.contentHash OR thumbnailJob.size <> excluded.size OR thumbnailJob.view <> excluded.view OR thumbnailJob.state = 'failed'
                    """, arguments: [job.assetId, job.contentHash, job.size, job.view.rawValue, now])
            }
        }
    }

    public func claimThumbnails(worker: String, limit: Int, leaseSeconds: Double) async throws(AssetError) -> [ThumbnailJob] {
        let now = Date().timeIntervalSince1970
        return try await write { db in
            // A running job whose lease ran out belonged to a worker that died; past the attempt
            // limit it is failed rather than handed out again.
            try db.execute(sql: """
                UPDATE thumbnailJob SET state = 'failed', error = 'abandoned by its worker ' || attempts || ' times', updatedAt = ?
                WHERE state = 'running' AND claimedAt < ? AND attempts >= ?
                """, arguments: [now, now - leaseSeconds, thumbnailJobMaxAttempts])
            try db.execute(sql: "UPDATE thumbnailJob SET state = 'failed', error = ?, updatedAt = ? WHERE state IN ('pending', 'running') AND \(ThumbnailJob.unrenderableCondition)",
                           arguments: [ThumbnailJob.unrenderableError, now])
            let rows = try Row.fetchAll(db, sql: """
                UPDATE thumbnailJob SET state = 'running', worker = ?, claimedAt = ?, attempts = attempts + 1, updatedAt = ?
                WHERE assetId IN (SELECT assetId FROM thumbnailJob
                                  WHERE state = 'pending' OR (state = 'running' AND claimedAt < ?)
                                  ORDER BY assetId LIMIT ?)
                RETURNING assetId, contentHash, size, view, attempts
                """, arguments: [worker, now, now, now - leaseSeconds, limit])
            return try rows.map { row throws(AssetError) in
                try ThumbnailJob(assetId: row["assetId"], contentHash: row["contentHash"], size: row["size"], viewName: row["view"], attempts: row["attempts"])
            }.sorted { $0.assetId < $1.assetId }
        }
    }

    public func finishThumbnails(_ outcomes: [ThumbnailOutcome]) async throws(AssetError) {
        let now = Date().timeIntervalSince1970
        try await write { db in
            for outcome in outcomes {
                let job = outcome.job
                try db.execute(sql: "UPDATE thumbnailJob SET state = ?, error = ?, updatedAt = ? WHERE assetId = ? AND contentHash = ?",
                               arguments: [outcome.thumbnail != nil ? "done" : "failed", outcome.error, now, job.assetId, job.contentHash])
                if let thumbnail = outcome.thumbnail {
                    try db.execute(sql: "UPDATE asset SET thumbnail = ? WHERE id = ? AND contentHash = ?",
                                   arguments: [thumbnail, job.assetId, job.contentHash])
                }
            }
        }
    }

    public func releaseThumbnails(_ jobs: [ThumbnailJob], worker: String) async throws(AssetError) {
        guard !jobs.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        try await write { db in
            for job in jobs {
                try db.execute(sql: """
                    UPDATE thumbnailJob SET state = 'pending', worker = NULL, claimedAt = NULL, attempts = MAX(attempts - 1, 0), updatedAt = ?
                    WHERE assetId = ? AND contentHash = ? AND state = 'running' AND worker = ?
                    """, arguments: [now, job.assetId, job.contentHash, worker])
            }
        }
    }

    public func jobCounts() async throws(AssetError) -> ThumbnailJobCounts {
        try await read { db in
            var counts = ThumbnailJobCounts()
            for row in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS n FROM thumbnailJob GROUP BY state") {
                counts.add(row["state"], row["n"])
            }
            return counts
        }
    }

    public func retryFailedThumbnails() async throws(AssetError) -> Int {
        let now = Date().timeIntervalSince1970
        return try await write { db in
            try db.execute(sql: "UPDATE thumbnailJob SET state = 'pending', worker = NULL, claimedAt = NULL, attempts = 0, error = NULL, updatedAt = ? WHERE state = 'failed'",
                           arguments: [now])
            return db.changesCount
        }
    }
}

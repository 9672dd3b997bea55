import AssetCatalog
import AssetCore
import Foundation
import PostgresNIO

/// Thumbnail jobs on PostgreSQL, claimed by workers on any number of machines: `FOR UPDATE SKIP
/// LOCKED` hands each pending row to exactly one claimer without making the others wait.
extension PostgresCatalog {
    public func enqueueThumbnails(_ jobs: [ThumbnailJob]) async throws(AssetError) {
        guard !jobs.isEmpty else { return }
        let sorted = jobs.sorted { $0.assetId < $1.assetId }
        let now = Date().timeIntervalSince1970
        try await transaction { connection in
            try await connection.query("""
                INSERT INTO thumbnailJob (assetId, contentHash, size, view, state, attempts, updatedAt)
                SELECT t.assetId, t.contentHash, t.size, t.view, 'pending', 0, \(now)
                FROM unnest(\(sorted.map(\.assetId))::text[], \(sorted.map(\.contentHash))::text[],
                            \(sorted.map(\.size))::bigint[], \(sorted.map(\.view.rawValue))::text[]) AS t(assetId, contentHash, size, view)
                ON CONFLICT (assetId) DO UPDATE SET contentHash = EXCLUDED.contentHash, size = EXCLUDED.size, view = EXCLUDED.view,
                    state = 'pending', worker = NULL, claimedAt = NULL, attempts = 0, error = NULL, updatedAt = EXCLUDED.updatedAt
                WHERE thumbnailJob.contentHash <> excluded.contentHash OR thumbnailJob.size <> excluded.size OR thumbnailJob.view <> excluded.view OR thumbnailJob.state = 'failed'
                """, logger: self.logger)
        }
    }

    public func claimThumbnails(worker: String, limit: Int, leaseSeconds: Double) async throws(AssetError) -> [ThumbnailJob] {
        let now = Date().timeIntervalSince1970
        let expired = now - leaseSeconds
        return try await transaction { connection in
            // A running job whose lease ran out belonged to a worker that died; past the attempt
            // limit it is failed rather than handed out again.
            try await connection.query("""
                UPDATE thumbnailJob SET state = 'failed', error = 'abandoned by its worker ' || attempts || ' times', updatedAt = \(now)
                WHERE assetId IN (SELECT assetId FROM thumbnailJob
                                  WHERE state = 'running' AND claimedAt < \(expired) AND attempts >= \(thumbnailJobMaxAttempts)
                                  FOR UPDATE SKIP LOCKED)
                """, logger: self.logger)
            var binds = PostgresBindings(capacity: 2)
            binds.append(ThumbnailJob.unrenderableError)
            binds.append(now)
            try await connection.query(PostgresQuery(unsafeSQL: """
                UPDATE thumbnailJob SET state = 'failed', error = $1, updatedAt = $2
                WHERE state IN ('pending', 'running') AND \(ThumbnailJob.unrenderableCondition)
                """, binds: binds), logger: self.logger)
            let rows = try await connection.query("""
                WITH picked AS (
                    SELECT assetId FROM thumbnailJob
                    WHERE state = 'pending' OR (state = 'running' AND claimedAt < \(expired))
                    ORDER BY assetId LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                UPDATE thumbnailJob j SET state = 'running', worker = \(worker), claimedAt = \(now), attempts = j.attempts + 1, updatedAt = \(now)
                FROM picked WHERE j.assetId = picked.assetId
                RETURNING j.assetId, j.contentHash, j.size, j.view, j.attempts
                """, logger: self.logger)
            return try await rows.decode((String, String, Int, String, Int).self).collectAll()
                .map { row throws(AssetError) in
                    try ThumbnailJob(assetId: row.0, contentHash: row.1, size: row.2, viewName: row.3, attempts: row.4)
                }.sorted { $0.assetId < $1.assetId }
        }
    }

    /// The job's row is updated only while it still describes the same content: an asset indexed
    /// again meanwhile has a new job, and its record keeps no picture of the old content.
    /// One transaction, two statements, for the whole batch: with durable commits, a commit per
    /// job was half a worker's time. A job's row is updated only while it still describes the same
    /// content, and so is the asset's picture (an asset indexed again meanwhile has a new job).
    public func finishThumbnails(_ outcomes: [ThumbnailOutcome]) async throws(AssetError) {
        guard !outcomes.isEmpty else { return }
        let sorted = outcomes.sorted { $0.job.assetId < $1.job.assetId }
        let now = Date().timeIntervalSince1970
        let ids = sorted.map(\.job.assetId), hashes = sorted.map(\.job.contentHash)
        let states = sorted.map { $0.thumbnail != nil ? "done" : "failed" }, errors = sorted.map { $0.error ?? "" }
        let rendered = sorted.filter { $0.thumbnail != nil }
        try await transaction { connection in
            try await connection.query("""
                UPDATE thumbnailJob j SET state = t.state, error = NULLIF(t.error, ''), updatedAt = \(now)
                FROM unnest(\(ids)::text[], \(hashes)::text[], \(states)::text[], \(errors)::text[]) AS t(assetId, contentHash, state, error)
                WHERE j.assetId = t.assetId AND j.contentHash = t.contentHash
                """, logger: self.logger)
            try await connection.query("""
                UPDATE asset SET thumbnail = t.thumbnail
                FROM unnest(\(rendered.map(\.job.assetId))::text[], \(rendered.map(\.job.contentHash))::text[],
                            \(rendered.map { $0.thumbnail ?? "" })::text[]) AS t(id, contentHash, thumbnail)
                WHERE asset.id = t.id AND asset.contentHash = t.contentHash
                """, logger: self.logger)
        }
    }

    public func releaseThumbnails(_ jobs: [ThumbnailJob], worker: String) async throws(AssetError) {
        guard !jobs.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        let ids = jobs.map(\.assetId), hashes = jobs.map(\.contentHash)
        try await transaction { connection in
            try await connection.query("""
                UPDATE thumbnailJob j SET state = 'pending', worker = NULL, claimedAt = NULL, attempts = GREATEST(j.attempts - 1, 0), updatedAt = \(now)
                FROM unnest(\(ids)::text[], \(hashes)::text[]) AS t(assetId, contentHash)
                WHERE j.assetId = t.assetId AND j.contentHash = t.contentHash AND j.state = 'running' AND j.worker = \(worker)
                """, logger: self.logger)
        }
    }

    public func jobCounts() async throws(AssetError) -> ThumbnailJobCounts {
        try await read { connection in
            var counts = ThumbnailJobCounts()
            for try await (state, n) in try await connection.query("SELECT state::text, COUNT(*) FROM thumbnailJob GROUP BY state",
                                                               logger: self.logger).decode((String, Int).self) {
                counts.add(state, n)
            }
            return counts
        }
    }

    public func retryFailedThumbnails() async throws(AssetError) -> Int {
        let now = Date().timeIntervalSince1970
        return try await transaction { connection in
            try await connection.query("""
                UPDATE thumbnailJob SET state = 'pending', worker = NULL, claimedAt = NULL, attempts = 0, error = NULL, updatedAt = \(now)
                WHERE state = 'failed' RETURNING assetId
                """, logger: self.logger).decode(String.self).collectAll().count
        }
    }
}

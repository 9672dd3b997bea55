import AssetCatalog
import AssetCore
import Dispatch

/// Catalog summaries (id -> root, kind, content hash...) kept in memory for a short time, so a
/// request for a cached thumbnail or conversion touches neither SQLite nor the database pool's
/// queue: at tens of thousands of requests a second that hand-off was most of a request's cost.
/// An entry lives `maxAge` at most, so another process's reindex shows within that time; this
/// process's own reindex clears the cache when it finishes.
struct SummaryCache: Sendable {
    private struct Entry {
        var summary: CatalogSummary?
        var storedAt: UInt64
    }

    private let entries = Locked([String: Entry]())
    let maxAgeNanoseconds: UInt64
    let capacity: Int

    init(maxAgeSeconds: Double = 1, capacity: Int = 100_000) {
        maxAgeNanoseconds = UInt64(maxAgeSeconds * 1e9)
        self.capacity = capacity
    }

    /// The summary of `id` (nil when the catalog has none), from memory while fresh.
    func summary(_ id: String, load: (String) async throws -> CatalogSummary?) async rethrows -> CatalogSummary? {
        let now = DispatchTime.now().uptimeNanoseconds
        if let hit = entries.withLock({ $0[id] }), now &- hit.storedAt < maxAgeNanoseconds { return hit.summary }
        let loaded = try await load(id)
        entries.withLock { entries in
            // Bounded without bookkeeping: a full cache starts over, which only costs reloads.
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[id] = Entry(summary: loaded, storedAt: now)
        }
        return loaded
    }

    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}

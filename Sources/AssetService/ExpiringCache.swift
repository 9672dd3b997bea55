import AssetCatalog
import AssetKit
import Dispatch

/// Answers kept in memory for a short time, by key: catalog summaries (id -> root, kind, content
/// hash...) and the encoded JSON of records and listing pages. A request for a cached thumbnail or
/// a record then touches neither the database nor its pool's queue, and nothing is encoded again:
/// at tens of thousands of requests a second that hand-off and Foundation's JSONEncoder were most
/// of a request's cost. An entry lives `maxAge` at most, so another process's reindex shows within
/// that time; this process's own reindex clears the caches when it finishes.
struct ExpiringCache<Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var storedAt: UInt64
    }

    private let entries = Locked([String: Entry]())
    let maxAgeNanoseconds: UInt64
    let capacity: Int
    /// Whether a loaded value is kept; one that is not is loaded again on every request.
    let keeps: @Sendable (Value) -> Bool

    init(maxAgeSeconds: Double = 1, capacity: Int = 100_000, keeps: @escaping @Sendable (Value) -> Bool = { _ in true }) {
        maxAgeNanoseconds = UInt64(maxAgeSeconds * 1e9)
        self.capacity = capacity
        self.keeps = keeps
    }

    /// The value for `key`, from memory while fresh, else from `load` (a load that throws stores
    /// nothing, so errors are never served from memory).
    func value(_ key: String, load: (String) async throws -> Value) async rethrows -> Value {
        let now = DispatchTime.now().uptimeNanoseconds
        if let hit = entries.withLock({ $0[key] }), now &- hit.storedAt < maxAgeNanoseconds { return hit.value }
        let loaded = try await load(key)
        guard keeps(loaded) else { return loaded }
        entries.withLock { entries in
            // Bounded without bookkeeping: a full cache starts over, which only costs reloads.
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(value: loaded, storedAt: now)
        }
        return loaded
    }

    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}

/// Catalog summaries by asset id; an unknown id is remembered as unknown (nil) too.
typealias SummaryCache = ExpiringCache<CatalogSummary?>

extension ExpiringCache where Value == CatalogSummary? {
    /// The summary of `id` (nil when the catalog has none), from memory while fresh.
    func summary(_ id: String, load: (String) async throws -> CatalogSummary?) async rethrows -> CatalogSummary? {
        try await value(id, load: load)
    }
}

import AssetCore
import AssetStorage
import Foundation

/// The indexed roots one batch of work reads from: a folder as it is, a bucket prefix through a
/// staging opened on first use and closed (its files deleted) with the batch, so a long-running
/// worker's disk holds one batch's objects at a time.
final class BatchSources: Sendable {
    private let stores: StoreOpener
    private let stagings = Locked<[String: StagedPrefix]>([:])
    private let unreachable = Locked<AssetError?>(nil)

    init(stores: StoreOpener) {
        self.stores = stores
    }

    /// Where the asset `relative` under `root` is to be read: its local path, the folder that is
    /// its asset root, and the staging behind them for a bucket (nil for a folder).
    func locate(root: String, relative: String) throws(AssetError) -> (path: String, root: String, staging: StagedPrefix?) {
        guard StorageLocation.isBucket(root) else {
            return ((root as NSString).appendingPathComponent(relative), root, nil)
        }
        let staging = try stagingFor(root)
        return (try staging.stage(relative), staging.folder, staging)
    }

    private func stagingFor(_ root: String) throws(AssetError) -> StagedPrefix {
        if let known = stagings.withLock({ $0[root] }) { return known }
        let store = try stores.open(root)
        let made = try StagedPrefix(store: store, maxBytes: ReadLimits().maxFileBytes, rangedPackages: true)
        let winner = stagings.withLock { map -> StagedPrefix in
            if let other = map[root] { return other }
            map[root] = made
            return made
        }
        if winner !== made { made.close() }
        return winner
    }

    func noteUnreachable(_ error: AssetError) {
        unreachable.withLock { $0 = $0 ?? error }
    }

    /// Closes every staging: the first "store unreachable" met meanwhile, if any, and what else
    /// fetching references met (an object over the read limit), which readers saw as "not found".
    func close() -> (unreachable: AssetError?, notes: [String]) {
        let all = stagings.withLock { map in defer { map.removeAll() }; return Array(map.values) }
        var first = unreachable.value
        var notes: [String] = []
        for staging in all {
            first = first ?? staging.unreachable
            notes += staging.takeNotes()
            staging.close()
        }
        return (first, notes)
    }
}

extension AssetError {
    /// This error with a staging folder written as its bucket location.
    func displayed(by staging: StagedPrefix?) -> AssetError {
        guard let staging else { return self }
        var copy = self
        copy.location.file = copy.location.file.map(staging.display)
        switch kind {
        case .io(let text): copy.kind = .io(staging.display(text))
        case .malformed(let text): copy.kind = .malformed(staging.display(text))
        case .refusedPath(let text): copy.kind = .refusedPath(staging.display(text))
        case .unresolvedReference(let text): copy.kind = .unresolvedReference(staging.display(text))
        default: break
        }
        return copy
    }
}

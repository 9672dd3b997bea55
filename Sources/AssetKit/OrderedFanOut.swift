import AssetCore
import Foundation

/// Work on every item of a batch on all cores (GCD runs one per core at a time, so memory is
/// bounded by the cores, not the batch), the results kept in item order, and `progress` told of
/// each as it finishes, one at a time, with how many are done: what `thumbnail` and batch
/// `convert` share.
enum OrderedFanOut {
    static func run<T: Sendable>(count: Int, _ work: @Sendable (Int) -> T, progress: @Sendable (T, Int) -> Void) -> [T] {
        let results = Locked((slots: [T?](repeating: nil, count: count), done: 0))
        DispatchQueue.concurrentPerform(iterations: count) { k in
            let result = work(k)
            let done = results.withLock { state in
                state.slots[k] = result
                state.done += 1
                return state.done
            }
            progress(result, done)
        }
        return results.value.slots.map { $0! }
    }
}

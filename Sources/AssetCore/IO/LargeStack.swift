import Foundation

/// Runs work on a thread with a large stack and waits for it.
///
/// Readers parse nested structures recursively (prims in prims, nodes in nodes) up to their depth
/// caps. The caller may be a worker thread with a small stack; running the read here makes the caps,
/// not the caller's thread, decide how deep a file may go.
package enum LargeStack {
    package static let stackSize = 256 << 20

    /// Marks the threads this starts, so work already on one runs in place: a batch (validating a
    /// thousand files) runs each worker on one large stack instead of mapping and unmapping 256 MiB
    /// per file, whose TLB shootdowns cost more than the small files' reads. A pthread key, not
    /// Foundation's thread dictionary: every read asks, and the dictionary's lookup (a bridged
    /// string key, hashing) was a percent of validating a folder of small packages.
    private static let marker: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no pthread key left for LargeStack")
        return key
    }()

    package static var isOnLargeStack: Bool { pthread_getspecific(marker) != nil }

    package static func run<T: Sendable>(_ work: @escaping @Sendable () throws(AssetError) -> T) throws(AssetError) -> T {
        if isOnLargeStack { return try work() }
        let box = Locked<Result<T, AssetError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            pthread_setspecific(marker, UnsafeRawPointer(bitPattern: 1))
            // The result goes straight into the box, never into a local of this closure, so the
            // thread holds nothing of it in the moment between the signal and its own exit.
            box.withLock { $0 = Self.result(of: work) }
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
        // Taken out of the box, not copied: the thread may outlive this call by a moment, and what
        // it still holds must not keep the whole result (a scene) alive with it.
        let result = box.withLock { stored in
            defer { stored = nil }
            return stored!
        }
        return try result.get()
    }

    private static func result<T>(of work: () throws(AssetError) -> T) -> Result<T, AssetError> {
        do throws(AssetError) { return .success(try work()) } catch { return .failure(error) }
    }
}

import Foundation

/// Runs work on a thread with a large stack and waits for it.
///
/// Readers parse nested structures recursively (prims in prims, nodes in nodes) up to their depth
/// caps. The caller may be a worker thread with a small stack; running the read here makes the caps,
/// not the caller's thread, decide how deep a file may go.
package enum LargeStack {
    package static let stackSize = 256 << 20

    package static func run<T: Sendable>(_ work: @escaping @Sendable () throws(AssetError) -> T) throws(AssetError) -> T {
        let box = Locked<Result<T, AssetError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result: Result<T, AssetError>
            do throws(AssetError) { result = .success(try work()) } catch { result = .failure(error) }
            box.withLock { $0 = result }
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
        return try box.value!.get()
    }
}

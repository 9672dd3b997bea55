import Foundation

/// Runs work on a thread with a large stack and waits for it.
///
/// Readers parse nested structures recursively (prims in prims, nodes in nodes) up to their depth
/// caps. The caller may be a worker thread with a small stack; running the read here makes the caps,
/// not the caller's thread, decide how deep a file may go.
public enum LargeStack {
    public static let stackSize = 256 << 20

    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws(AssetError) -> T) throws(AssetError) -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do throws(AssetError) { box.result = .success(try work()) } catch { box.result = .failure(error) }
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
        return try box.result!.get()
    }
}

/// Written by the worker before it signals the semaphore, read by the caller after the wait, so the
/// semaphore orders the two accesses.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, AssetError>?
}

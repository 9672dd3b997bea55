import Synchronization

/// A value shared between threads and reached only under its lock: results that worker threads
/// write into their own slots, a cache the service's handlers share. One type, so no module keeps
/// an `@unchecked Sendable` box of its own.
package final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    package init(_ value: Value) {
        mutex = Mutex(value)
    }

    package func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { value in body(&value) }
    }

    package var value: Value { withLock { $0 } }
}

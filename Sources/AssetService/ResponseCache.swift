import Foundation
import Hummingbird

/// Rendered thumbnails and conversions kept in memory by key, so repeat requests cost no disk or
/// CPU. Bounded: when full, the oldest entries go.
final class ResponseCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: ByteBuffer] = [:]
    private var order: [String] = []
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func get(_ key: String) -> ByteBuffer? {
        lock.lock()
        defer { lock.unlock() }
        return entries[key]
    }

    func put(_ key: String, _ value: ByteBuffer) {
        lock.lock()
        defer { lock.unlock() }
        if entries[key] == nil { order.append(key) }
        entries[key] = value
        while order.count > capacity { entries[order.removeFirst()] = nil }
    }
}

/// Runs blocking work (rendering, converting, reading files) off the server's event loops.
enum Blocking {
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do { continuation.resume(returning: try work()) } catch { continuation.resume(throwing: error) }
            }
        }
    }
}

import AssetKit
import Foundation
import Hummingbird

/// Rendered thumbnails and conversions kept in memory by key, so repeat requests cost no disk or
/// CPU. Bounded: when full, the oldest entries go.
struct ResponseCache: Sendable {
    private let state = Locked((entries: [String: ByteBuffer](), order: [String]()))
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func get(_ key: String) -> ByteBuffer? {
        state.withLock { $0.entries[key] }
    }

    func put(_ key: String, _ value: ByteBuffer) {
        state.withLock { state in
            if state.entries[key] == nil { state.order.append(key) }
            state.entries[key] = value
            while state.order.count > capacity { state.entries[state.order.removeFirst()] = nil }
        }
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

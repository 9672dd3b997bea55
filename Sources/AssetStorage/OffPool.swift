import AssetCore
import Dispatch

/// Runs a blocking store call on a Dispatch thread and awaits it, so async callers (the index
/// loop, the service's handlers) never hold one of the cooperative pool's few threads while a
/// request waits on the network or a retry pauses.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws(AssetError) -> T) async throws(AssetError) -> T {
    let result: Result<T, AssetError> = await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            do throws(AssetError) { continuation.resume(returning: .success(try body())) } catch {
                continuation.resume(returning: .failure(error))
            }
        }
    }
    return try result.get()
}

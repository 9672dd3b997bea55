import AssetCore
import AssetKit
import AssetStorage
import Foundation
import StorageS3

/// How the commands open folders and buckets: S3 retries are said on standard error as they
/// happen, so a run waiting out a restarting store does not look hung.
enum Stores {
    static func open(_ text: String, retry: S3Client.RetryPolicy = .init()) throws(AssetError) -> any ObjectStore {
        try ObjectStores.open(text, retry: retry) { failure, pause in
            var stderr = StandardError()
            print("assetc: \(TerminalText.safe(StorageLocation.isBucket(text) ? text : "store")): \(TerminalText.safe(failure)); trying again in \(String(format: "%.1f", pause)) s",
                  to: &stderr)
        }
    }

    static func opener(retry: S3Client.RetryPolicy = .init()) -> StoreOpener {
        StoreOpener { text throws(AssetError) in try open(text, retry: retry) }
    }

    /// `--retry-for` seconds as the client's budget (the default client tries for a minute).
    static func retry(for seconds: Double?) -> S3Client.RetryPolicy {
        var policy = S3Client.RetryPolicy()
        if let seconds {
            policy.budget = seconds
            policy.attempts = Int.max
        }
        return policy
    }
}

import Foundation

/// A unique path under the system's temporary directory, removed with everything in it when the
/// last reference goes: a suite that holds one as a property cleans up after each test.
public final class TemporaryFolder: Sendable {
    public let url: URL

    /// Only names the folder; tests create it (or what goes inside) as they need.
    public init(_ prefix: String = "assetc-test") {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    public func appendingPathComponent(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit {
        // Cleanup is best effort: a folder a test already removed, or never made, is no failure.
        if FileManager.default.fileExists(atPath: url.path) {
            do { try FileManager.default.removeItem(at: url) } catch { print("could not remove \(url.path): \(error)") }
        }
    }
}

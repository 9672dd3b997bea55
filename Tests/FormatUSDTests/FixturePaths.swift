import Foundation

/// Fixtures live in Tests/Fixtures/usd/, found from this file's path so tests run from any folder.
enum Fixtures {
    static let usd = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/usd")

    static func usd(_ name: String) -> URL { usd.appendingPathComponent(name) }
}

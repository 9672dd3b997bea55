import ArgumentParser
import AssetCore
import Foundation

/// The exit statuses Docs/CLI.md documents, one per kind of failure a script may want to tell apart.
enum ExitStatus {
    static func code(for error: AssetError) -> Int32 {
        switch error.kind {
        case .unsupportedFormat: return 2
        case .fileNotFound, .io: return 3
        case .malformed, .unresolvedReference, .limitExceeded, .refusedPath, .unsupportedFeature, .strict: return 1
        }
    }
}

/// Prints `assetc: error: <location>: <message>` on standard error.
enum ErrorReporter {
    static func report(_ error: AssetError) {
        var stderr = StandardError()
        print("assetc: error: \(error)", to: &stderr)
    }
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}

import ArgumentParser
import AssetCore
import AssetKit
import Foundation

/// The exit statuses Docs/CLI.md documents, one per kind of failure a script may want to tell apart.
enum ExitStatus {
    static func code(for error: AssetError) -> Int32 {
        switch error.kind {
        case .unsupportedFormat: return 2
        case .fileNotFound, .io: return 3
        case .malformed, .unresolvedReference, .limitExceeded, .refusedPath, .unsupportedFeature, .strict: return 1
        // sysexits' EX_TEMPFAIL: a script may try the same command again later.
        case .unavailable: return 75
        }
    }

    /// Prints `assetc: error: <location>: <message>` on standard error and gives the exit code
    /// for its kind: the one way every command reports a failure.
    static func fail(_ error: AssetError) -> ExitCode {
        var stderr = StandardError()
        print("assetc: error: \(TerminalText.safe(error.description))", to: &stderr)
        return ExitCode(code(for: error))
    }

    /// Runs `body`; a failure is reported and ends the command with its exit status. Closures do not
    /// infer typed throws, so this takes any error; everything below the CLI throws `AssetError`.
    static func orExit<T>(_ body: () throws -> T) throws(ExitCode) -> T {
        do { return try body() } catch let error as AssetError { throw fail(error) } catch {
            throw fail(AssetError(.io("\(error)")))
        }
    }

    /// `orExit` for a body that awaits (the catalog's calls).
    static func orExit<T>(_ body: () async throws -> T) async throws(ExitCode) -> T {
        do { return try await body() } catch let error as AssetError { throw fail(error) } catch {
            throw fail(AssetError(.io("\(error)")))
        }
    }
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}

import Foundation

/// `validated 120/1000` on standard error, rewritten in place, only when standard error is a
/// terminal and the job is long enough to want it: scripts and CI logs get no carriage returns.
enum ProgressLine {
    static func forTerminal(total: Int, noun: String) -> (@Sendable (Int, Int) -> Void)? {
        guard total >= 20, isatty(STDERR_FILENO) != 0 else { return nil }
        return { done, total in
            // Every file would redraw a thousand times a second; a step of about 1% is plenty.
            guard done == total || done % max(1, total / 100) == 0 else { return }
            let end = done == total ? "\r\u{1B}[K" : ""
            FileHandle.standardError.write(Data("\r\(noun) \(done)/\(total)\(end)".utf8))
        }
    }
}

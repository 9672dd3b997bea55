import AssetCore
import Dispatch
import Foundation

/// SIGINT and SIGTERM ask a long-running command to stop once the work in hand is recorded, so no
/// claimed job is left waiting for its lease; a second signal ends the process at once.
/// Unchecked: `sources` is set once in `init` and only kept alive afterwards.
final class SignalStop: @unchecked Sendable {
    private let flag = Locked(false)
    private let sources: [any DispatchSourceSignal]

    init() {
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [flag] in
                if flag.withLock({ $0 }) { exit(128 + number) }
                flag.withLock { $0 = true }
                var stderr = StandardError()
                print("assetc: stopping after the jobs in hand (signal again to stop now)", to: &stderr)
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    var requested: Bool { flag.withLock { $0 } }
}

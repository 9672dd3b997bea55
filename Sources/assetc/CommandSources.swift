import ArgumentParser
import AssetCore
import AssetKit
import Foundation

extension AssetSources {
    /// The sources of `convert`, `validate`, `info` and `thumbnail`: buckets opened by the
    /// executable's S3 client, inputs under an `--asset-root s3://…` prefix staged together, and
    /// the keys a listing leaves out said on standard error as they are met.
    static func forCommand(assetRoot: String?, maxBytes: Int) throws(ExitCode) -> AssetSources {
        try ExitStatus.orExit {
            try AssetSources(stores: Stores.opener(), maxBytes: maxBytes, assetRoot: assetRoot) { warning in
                var stderr = StandardError()
                print("assetc: warning: \(TerminalText.safe(warning))", to: &stderr)
            }
        }
    }

    /// Deletes what was staged, first saying what fetching references met (an object over the
    /// read limit, a store that stopped answering): the readers saw those references as missing.
    func closeSaying() {
        var stderr = StandardError()
        for note in close().notes { print("assetc: warning: \(TerminalText.safe(note))", to: &stderr) }
    }
}

import AssetCore
import Crypto
import Foundation

/// SHA-256 of a file's bytes, read in chunks (swift-crypto), as lowercase hex.
public enum ContentHash {
    public static func file(_ path: String) throws(AssetError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw AssetError(.fileNotFound, at: SourceLocation(file: path)) }
        defer { try? handle.close() }  // nothing to flush on a read-only handle
        var hasher = SHA256()
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw AssetError(.io("cannot read: \(error.localizedDescription)"), at: SourceLocation(file: path))
            }
            if chunk.isEmpty { break }
            hasher.update(data: chunk)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

import AssetCore
import AssetTestSupport
import Foundation
import Testing
@testable import AssetKit

/// Content hashes key the catalog's fingerprints and cached thumbnails: they must be SHA-256,
/// byte for byte, whatever library computes them.
@Suite struct ContentHashTests {
    let temporary = TemporaryFolder("assetc-hash")

    func file(_ bytes: [UInt8]) throws -> String {
        try FileManager.default.createDirectory(at: temporary.url, withIntermediateDirectories: true)
        let url = temporary.appendingPathComponent("f-\(bytes.count)")
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test func knownVectors() throws {
        // FIPS 180-2 test vectors.
        #expect(try ContentHash.file(file(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(try ContentHash.file(file([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func filesLargerThanOneChunkHashWhole() throws {
        // The FIPS vector of a million 'a's fits in one 1 MiB read; 3 MiB of a pattern spans three
        // reads and must not hash like its first chunk alone.
        #expect(try ContentHash.file(file([UInt8](repeating: 0x61, count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        let big = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(try ContentHash.file(file(big)) != ContentHash.file(file(Array(big.prefix(1 << 20)))))
    }

    @Test func aMissingFileIsNotFound() {
        #expect(throws: AssetError(.fileNotFound, at: SourceLocation(file: "/no/such/file"))) {
            try ContentHash.file("/no/such/file")
        }
    }
}

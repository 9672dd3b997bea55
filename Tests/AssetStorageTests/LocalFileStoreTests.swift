import AssetCore
import AssetStorage
import AssetTestSupport
import Foundation
import Testing

struct LocalFileStoreTests {
    let folder = TemporaryFolder("assetc-store")

    @Test func writeReadListRemove() throws {
        let store = LocalFileStore(root: folder.url.path)
        try store.write("thumbnails/a.png", bytes: [1, 2, 3], contentType: "image/png")
        try store.write("b/c/d.bin", bytes: Array(repeating: 7, count: 100), contentType: "application/octet-stream")
        #expect(try store.read("thumbnails/a.png", maxBytes: 10) == [1, 2, 3])
        #expect(try store.read("b/c/d.bin", range: 10..<14) == [7, 7, 7, 7])
        #expect(try store.read("missing", maxBytes: 10) == nil)
        #expect(try store.head("b/c/d.bin")?.byteSize == 100)
        #expect(try store.list().map(\.key) == ["b/c/d.bin", "thumbnails/a.png"])
        try store.remove("thumbnails/a.png")
        try store.remove("thumbnails/a.png")  // removing what is not there is no error
        #expect(try store.read("thumbnails/a.png", maxBytes: 10) == nil)
        #expect(try store.presignedURL(for: "b/c/d.bin", expiresIn: 60) == nil)
    }

    @Test func anObjectOverTheLimitIsALocatedError() throws {
        let store = LocalFileStore(root: folder.url.path)
        try store.write("big.bin", bytes: Array(repeating: 0, count: 1000), contentType: "application/octet-stream")
        #expect(throws: AssetError.self) { try store.read("big.bin", maxBytes: 999) }
    }

    @Test func keysCannotLeaveTheFolder() throws {
        let store = LocalFileStore(root: folder.url.appendingPathComponent("inner").path)
        for key in ["../outside.png", "/etc/passwd", "a/../../x"] {
            #expect(throws: AssetError.self) { try store.write(key, bytes: [0], contentType: "image/png") }
            #expect(throws: AssetError.self) { try store.read(key, maxBytes: 10) }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("outside.png").path))
    }
}

import AssetCore
import AssetStorage
import AssetTestSupport
import Foundation
import Testing

/// Staging through `AssetRoot.real(_:staged:)`, with a folder store standing in for a bucket.
struct StagedPrefixTests {
    let folder = TemporaryFolder("assetc-staged")

    private func store() throws -> LocalFileStore {
        let store = LocalFileStore(root: folder.url.appendingPathComponent("bucket/library").path)
        try store.write("scenes/room.usda", bytes: Array("#usda 1.0\n".utf8), contentType: "model/vnd.usda")
        try store.write("textures/wood.png", bytes: [0x89, 0x50], contentType: "image/png")
        try store.write("caf\u{e9}.png", bytes: [1], contentType: "image/png")
        try store.write("cafe\u{301}.png", bytes: [2, 2], contentType: "image/png")
        let outside = LocalFileStore(root: folder.url.appendingPathComponent("bucket").path)
        try outside.write("secret.txt", bytes: [9], contentType: "text/plain")
        return store
    }

    @Test func referencesArriveWhenResolvedAndOnlyUnderThePrefix() throws {
        let staging = try StagedPrefix(store: try store(), maxBytes: 1 << 20, name: "library")
        defer { staging.close() }
        #expect((staging.folder as NSString).lastPathComponent == "library")
        let room = try staging.stage("scenes/room.usda")
        #expect(FileManager.default.fileExists(atPath: room))
        // What a reader does with `../textures/wood.png` from the room: join, then resolve.
        let texture = AssetRoot.real((room as NSString).deletingLastPathComponent + "/../textures/wood.png", staged: staging.files)
        #expect(texture == staging.folder + "/textures/wood.png")
        #expect(FileManager.default.contents(atPath: texture) == Data([0x89, 0x50]))
        // Climbing past the prefix fetches nothing, and the reader's root check refuses it.
        let escaped = AssetRoot.real(staging.folder + "/../secret.txt", staged: staging.files)
        #expect(!FileManager.default.fileExists(atPath: escaped))
        #expect(!AssetRoot.contains(staging.folder, escaped))
        // A missing object stays missing: the reader reports it.
        #expect(!FileManager.default.fileExists(atPath: AssetRoot.real(staging.folder + "/textures/none.png", staged: staging.files)))
        #expect(throws: AssetError.self) { try staging.stage("textures/none.png") }
    }

    @Test func unicodeTwinsStayTwoFiles() throws {
        let staging = try StagedPrefix(store: try store(), maxBytes: 1 << 20)
        defer { staging.close() }
        let composed = try staging.stage("caf\u{e9}.png")
        let decomposed = try staging.stage("cafe\u{301}.png")
        #expect(FileManager.default.contents(atPath: composed) == Data([1]))
        #expect(FileManager.default.contents(atPath: decomposed) == Data([2, 2]))
    }

    @Test func anObjectOverTheReadLimitIsNotStaged() throws {
        let staging = try StagedPrefix(store: try store(), maxBytes: 1)
        defer { staging.close() }
        #expect(throws: AssetError.self) { try staging.stage("scenes/room.usda") }
        _ = AssetRoot.real(staging.folder + "/textures/wood.png", staged: staging.files)
        #expect(staging.takeNotes().count == 1)
        #expect(!FileManager.default.fileExists(atPath: staging.folder + "/textures/wood.png"))
    }

    @Test func closeRemovesWhatWasStagedAndStopsFetching() throws {
        let staging = try StagedPrefix(store: try store(), maxBytes: 1 << 20)
        let room = try staging.stage("scenes/room.usda")
        staging.close()
        #expect(!FileManager.default.fileExists(atPath: room))
        _ = AssetRoot.real(room, staged: staging.files)
        #expect(!FileManager.default.fileExists(atPath: room))
    }

    @Test func stagedPathsAreNamedByTheLocationsTheyStandFor() throws {
        let source = try store()
        let staging = try StagedPrefix(store: source, maxBytes: 1 << 20)
        defer { staging.close() }
        let files = staging.files
        #expect(files.location(of: staging.folder + "/scenes/room.usda") == source.location + "/scenes/room.usda")
        #expect(files.location(of: staging.folder) == source.location, "the folder is the prefix")
        #expect(files.location(of: staging.folder + "/props/../scenes/./room.usda") == source.location + "/scenes/room.usda",
                "joined before resolved, as readers do")
        #expect(files.location(of: staging.folder + "/../elsewhere.usda") == nil, "a path that climbs out is not the bucket's")
        #expect(files.location(of: "/tmp/room.usda") == nil && files.name(ofPath: "/tmp/room.usda") == "/tmp/room.usda")
        #expect(files.refusal("../x.png", root: staging.folder).contains("outside the asset root \(source.location) "))
    }
}

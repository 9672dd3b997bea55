import AssetTestSupport
import Foundation
import Testing

@Suite struct IndexCrashTests {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func killedIndexerLeavesACatalogThatOpensAndCompletes() throws {
        let temporary = TemporaryFolder("assetc-crash")
        let work = temporary.url
        let art = work.appendingPathComponent("Art")
        try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
        let ship = try Data(contentsOf: repository.appendingPathComponent("Assets/Art.scnassets/ship.dae"))
        let head = try Data(contentsOf: repository.appendingPathComponent("Assets/SceneKitAssetCatalog.scnassets/LoomisHead/LoomisHead.usda"))
        let count = 240
        for i in 0..<count {
            // Distinct bytes per file, so every one is its own asset with its own thumbnail.
            let (data, ext) = i % 2 == 0 ? (ship, "dae") : (head, "usda")
            try (data + Data("\n<!-- \(i) -->\n".utf8.map { ext == "usda" && $0 == UInt8(ascii: "<") ? UInt8(ascii: "#") : $0 }))
                .write(to: art.appendingPathComponent("asset\(i).\(ext)"))
        }
        let db = work.appendingPathComponent("catalog.sqlite").path

        let indexer = Process()
        indexer.executableURL = AssetcBinary.url
        indexer.arguments = ["index", art.path, "--db", db, "--thumbnails"]
        indexer.standardOutput = FileHandle.nullDevice
        indexer.standardError = FileHandle.nullDevice
        try indexer.run()
        // Wait until the first transaction has landed, then kill without warning.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, (try? Data(contentsOf: URL(fileURLWithPath: db + "-wal")).count) ?? 0 < 64 * 1024 { usleep(20_000) }  // the WAL appears once the indexer writes
        kill(indexer.processIdentifier, SIGKILL)
        indexer.waitUntilExit()
        #expect(indexer.terminationReason == .uncaughtSignal, "the indexer finished before it could be killed; the test proves nothing")

        // The catalog opens, is consistent, and holds whole assets only.
        let partial = try AssetcBinary.run(["query", "", "--db", db, "--csv"])
        #expect(partial.status == 0, "\(partial.stderr)")
        let partialRows = partial.stdout.split(separator: "\n").count - 1
        #expect(partialRows < count, "killed mid-run: \(partialRows) of \(count)")
        // Every recorded model has its figures: no half-written asset.
        let empty = try AssetcBinary.run(["query", "error = null and triangles = null and kind = model", "--db", db, "--csv"])
        #expect(empty.stdout.split(separator: "\n").count == 1, "assets without figures: \(empty.stdout)")

        let rerun = try AssetcBinary.run(["index", art.path, "--db", db])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout.contains("\(count) models"))
        let all = try AssetcBinary.run(["query", "", "--db", db, "--csv"])
        #expect(all.stdout.split(separator: "\n").count - 1 == count)
    }
}

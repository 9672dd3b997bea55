import AssetTestSupport
import Foundation
import Testing
@testable import AssetCore

@Suite struct FolderNamesTests {
    let folder = TemporaryFolder("folder-names")

    private func make(_ relative: String) throws {
        let url = folder.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: url)
    }

    /// Nested folders are walked, hidden files and whole hidden folders are not, the name filter
    /// decides, and a link back to the top is listed as a name, never walked into (which would
    /// not end).
    @Test func walksNestedFoldersSkipsHiddenOnesAndNeverFollowsLinks() throws {
        for path in ["a.usdz", "b.txt", "sub/c.usda", "sub/deeper/d.usdc", "sub/.e.usda", ".hidden/f.usda", "sub2/g.usdz"] {
            try make(path)
        }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("sub/loop").path,
                                                   withDestinationPath: folder.url.path)
        let found = try #require(FolderNames.files(under: folder.url.path) { $0.hasSuffix(".usda") || $0.hasSuffix(".usdz") || $0.hasSuffix(".usdc") || $0 == "loop" })
        #expect(found.sorted() == ["a.usdz", "sub/c.usda", "sub/deeper/d.usdc", "sub/loop", "sub2/g.usdz"])
    }

    @Test func aFileOrAMissingPathIsNoFolder() throws {
        try make("only.usda")
        #expect(FolderNames.files(under: folder.appendingPathComponent("only.usda").path) { _ in true } == nil)
        #expect(FolderNames.files(under: folder.appendingPathComponent("missing").path) { _ in true } == nil)
    }

    /// A folder of many subfolders: the walk holds one folder open at a time, not one per
    /// subfolder waiting its turn (which would run out of descriptors where the limit is 1,024).
    /// Descriptors are counted while the walk runs; other tests running at once may hold a few.
    @Test func manySubfoldersAreOpenedOneAtATime() throws {
        for k in 0..<1_500 { try make("many/\(k)/m.usda") }
        func openDescriptors() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count }
        let before = try openDescriptors()
        var most = before
        var calls = 0
        var countError: (any Error)?
        let found = try #require(FolderNames.files(under: folder.appendingPathComponent("many").path) { _ in
            calls += 1
            if calls % 100 == 0 {
                do { most = max(most, try openDescriptors()) } catch { countError = error }
            }
            return true
        })
        if let countError { throw countError }
        #expect(found.count == 1_500)
        #expect(most - before < 100, "descriptors open during the walk: \(most - before) more than before it")
    }
}

import Foundation
import Testing
@testable import AssetCore
import AssetTestSupport

@Suite struct AssetRootTests {
    /// The asset's folder is cut from its resolved path by hand (for speed); it must be what
    /// NSString's deletingLastPathComponent gives for every shape `real` can return, or the fence
    /// would move.
    @Test func folderOfResolvedPathMatchesFoundation() {
        for path in ["/a/b/c.usdz", "/c.usdz", "/", "/a/b/", "/a//", "/tmp/x y/ü.usda", "relative.usda", "a/b.usdc", "/a/b/.hidden"] {
            #expect(AssetRoot.folder(ofResolved: path) == (path as NSString).deletingLastPathComponent, "\(path)")
        }
    }

    @Test func assetFolderIsTheResolvedFolder() throws {
        let temporary = TemporaryFolder()
        let folder = temporary.url
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("inner"), withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("inner/a.usda").path
        try Data("#usda 1.0\n".utf8).write(to: URL(fileURLWithPath: file))
        let link = folder.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.appendingPathComponent("inner").path)
        // Through a symlinked folder, the fence is the real folder the file sits in.
        #expect(AssetRoot.assetFolder.folder(for: link + "/a.usda") == AssetRoot.real(folder.appendingPathComponent("inner").path))
    }
}

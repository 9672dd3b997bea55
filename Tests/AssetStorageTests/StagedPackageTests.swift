import AssetCore
import AssetStorage
import AssetTestSupport
import Foundation
import Testing
@testable import FormatUSD

/// A folder store that counts whole and ranged reads, as the test proxy counts GETs.
final class CountingStore: ObjectStore, @unchecked Sendable {
    let inner: LocalFileStore
    private let counts = Locked<(whole: Int, ranged: Int, rangedBytes: Int)>((0, 0, 0))
    init(_ inner: LocalFileStore) { self.inner = inner }

    var whole: Int { counts.value.whole }
    var ranged: Int { counts.value.ranged }
    var rangedBytes: Int { counts.value.rangedBytes }

    var location: String { inner.location }
    var isLocal: Bool { false }
    func list() throws(AssetError) -> [StoredObject] { try inner.list() }
    func head(_ key: String) throws(AssetError) -> StoredObject? { try inner.head(key) }
    func read(_ key: String, maxBytes: Int) throws(AssetError) -> [UInt8]? {
        counts.withLock { $0.whole += 1 }
        return try inner.read(key, maxBytes: maxBytes)
    }
    func read(_ key: String, range: Range<Int>, matching etag: String?) throws(AssetError) -> [UInt8]? {
        counts.withLock { $0.ranged += 1; $0.rangedBytes += range.count }
        return try inner.read(key, range: range, matching: etag)
    }
    func write(_ key: String, bytes: [UInt8], contentType: String) throws(AssetError) { try inner.write(key, bytes: bytes, contentType: contentType) }
    func remove(_ key: String) throws(AssetError) { try inner.remove(key) }
    func presignedURL(for key: String, expiresIn seconds: Int) throws(AssetError) -> String? { nil }
}

/// A large usdz staged from a store is read member by member, and becomes whole only for what
/// opens it as a file.
struct StagedPackageTests {
    let folder = TemporaryFolder("assetc-staged-package")

    /// A 2 MiB package: the mesh's layer and a member nothing reads.
    private func store() throws -> (CountingStore, [UInt8]) {
        let layer = "#usda 1.0\n(\n    defaultPrim = \"Quad\"\n)\n\ndef Mesh \"Quad\"\n{\n    int[] faceVertexCounts = [3]\n"
            + "    int[] faceVertexIndices = [0, 1, 2]\n    point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]\n}\n"
        let package = try USDZPackageWriter.package([
            OutputFile(relativePath: "quad.usda", bytes: Array(layer.utf8)),
            OutputFile(relativePath: "extras/unused.bin", bytes: (0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }),
        ])
        let local = LocalFileStore(root: folder.url.appendingPathComponent("bucket/library").path)
        try local.write("props/quad.usdz", bytes: package, contentType: "model/vnd.usdz+zip")
        return (CountingStore(local), package)
    }

    @Test func aLargePackageIsReadByRangesThroughTheUSDReader() throws {
        let (store, package) = try store()
        let staging = try StagedPrefix(store: store, maxBytes: 64 << 20, rangedPackages: true)
        defer { staging.close() }
        let path = try staging.stage("props/quad.usdz")
        var status = stat()
        #expect(stat(path, &status) == 0 && Int(status.st_size) == package.count, "the stand-in has the object's size")
        #expect(status.st_blocks == 0, "and none of its bytes")

        let options = staging.readOptions(ReadOptions())
        let scene = try USDReader().read(from: URL(fileURLWithPath: path), options: options).scene
        var triangles = 0
        scene.forEachNode { node, _ in for instance in node.meshInstances { triangles += scene.meshes[instance.mesh].triangleCount } }
        #expect(triangles == 1)
        #expect(store.whole == 0, "the package was not fetched whole")
        #expect(store.ranged > 0 && store.rangedBytes < package.count / 4, "\(store.rangedBytes) of \(package.count) bytes fetched")

        // Whatever opens the file for its bytes gets all of them: one whole GET, then a plain file.
        let bytes = try FileBytes.read(path: path, display: path, budget: ReadBudget(ReadLimits()), staged: staging.files)
        #expect(bytes == package)
        #expect(store.whole == 1)
        #expect(staging.files.rangedBytes(at: path) == nil)
    }

    @Test func aWholeFetchThatFailsLeavesNoZeros() throws {
        let (store, package) = try store()
        let staging = try StagedPrefix(store: store, maxBytes: package.count - 1, rangedPackages: true)
        defer { staging.close() }
        let path = try staging.stage("props/quad.usdz")
        #expect(throws: AssetError.self) { try FileBytes.read(path: path, display: path, budget: ReadBudget(ReadLimits()), staged: staging.files) }
        #expect(!FileManager.default.fileExists(atPath: path), "the stand-in is gone, not left as zeros")
        let notes = staging.takeNotes()
        #expect(notes.count == 1 && notes[0].contains("limit exceeded"), "\(notes)")
    }

    @Test func smallPackagesAndStagingsWithoutRangesAreFetchedWhole() throws {
        let (store, package) = try store()
        let staging = try StagedPrefix(store: store, maxBytes: 64 << 20)
        defer { staging.close() }
        let path = try staging.stage("props/quad.usdz")
        #expect(FileManager.default.contents(atPath: path).map(Array.init) == package)
        #expect(store.whole == 1 && store.ranged == 0)
    }
}

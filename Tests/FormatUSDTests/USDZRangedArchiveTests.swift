import AssetCore
import Foundation
import Testing
@testable import FormatUSD

/// A package that is only reachable by ranges, as one in a bucket is; it counts what is asked.
final class MemoryRangedObject: RangedBytes, @unchecked Sendable {
    var bytes: [UInt8]
    var failure: AssetError?
    let name = "s3://assets/props/package.usdz"
    var byteCount: Int { bytes.count }

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(_ range: Range<Int>) throws(AssetError) -> [UInt8] {
        if let failure { throw failure }
        return Array(bytes[range])
    }
}

@Suite struct USDZRangedArchiveTests {
    /// A root layer, a 3 MiB member nothing reads, and a small texture, as the usdz writer lays them out.
    static func package() throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let root = try [UInt8](Data(contentsOf: Fixtures.usd("minimal_mesh.usda")))
        let large = (0..<(3 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return try USDZPackageWriter.package([
            OutputFile(relativePath: "scene.usda", bytes: root),
            OutputFile(relativePath: "extras/large.bin", bytes: large),
            OutputFile(relativePath: "textures/small.png", bytes: Array(repeating: 7, count: 1000)),
        ])
    }

    @Test func membersReadByRangesMatchTheWholePackageAndFetchOnlyWhatIsRead() throws {
        let bytes = try Self.package()
        let location = AssetLocation.file(path: "/staged/package.usdz")
        let whole = try USDZArchive(bytes: bytes, location: location, limits: ReadLimits())
        let ranged = try USDZArchive(ranged: MemoryRangedObject(bytes), location: location, limits: ReadLimits())
        let source = try #require(ranged.rangedSource)
        #expect(ranged.entries.map(\.name) == whole.entries.map(\.name))
        #expect(ranged.entries.map(\.size) == whole.entries.map(\.size))
        #expect(source.fetchedBytes < 2 * RangedZipSource.readAhead, "opening read the tail, not the package")

        #expect(try ranged.read(ranged.rootEntry) == whole.read(whole.rootEntry))
        #expect(source.fetchedBytes < 3 * RangedZipSource.readAhead, "\(source.fetchedBytes) bytes fetched for a small root layer")
        #expect(source.requests <= 3)

        let large = try #require(ranged.entry(named: "extras/large.bin"))
        #expect(try ranged.read(large) == whole.read(try #require(whole.entry(named: "extras/large.bin"))))
        #expect(source.fetchedBytes >= large.size)
        let small = try #require(ranged.entry(named: "textures/small.png"))
        #expect(try ranged.read(small) == Array(repeating: 7, count: 1000))
    }

    @Test func anUnreachableStoreKeepsItsKind() throws {
        let object = MemoryRangedObject(try Self.package())
        object.failure = AssetError(.unavailable("the store does not answer"), at: SourceLocation(file: object.name))
        let error = try #require(throws: AssetError.self) {
            try USDZArchive(ranged: object, location: .file(path: "/staged/package.usdz"), limits: ReadLimits())
        }
        #expect(error.kind == .unavailable("the store does not answer"), "a 503 must not become a damaged package")
    }

    @Test func bytesThatChangeUnderTheReadFailTheCRC() throws {
        let object = MemoryRangedObject(try Self.package())
        let archive = try USDZArchive(ranged: object, location: .file(path: "/staged/package.usdz"), limits: ReadLimits())
        let large = try #require(archive.entry(named: "extras/large.bin"))
        object.bytes[object.bytes.count / 2] ^= 0xFF
        let error = try #require(throws: AssetError.self) { try archive.read(large) }
        #expect(error.message.contains("CRC"), "\(error)")
    }

    @Test func aTruncatedPackageIsALocatedError() throws {
        let bytes = try Self.package()
        let error = try #require(throws: AssetError.self) {
            try USDZArchive(ranged: MemoryRangedObject(Array(bytes.prefix(bytes.count - 40))), location: .file(path: "/staged/package.usdz"),
                            limits: ReadLimits())
        }
        #expect(error.message.contains("not a readable usdz package"), "\(error)")
        #expect(error.location.file == "/staged/package.usdz")
    }
}

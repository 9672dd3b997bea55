import AssetCore
import Foundation
import FormatUSD
import Testing

@Suite struct USDZPackageLayoutTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/validate")

    static func layout(_ name: String) throws -> USDZPackageLayout {
        let bytes = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(name)))
        return try USDZPackageLayout(bytes: bytes, location: name)
    }

    @Test func alignedStoredPackageHasEveryEntryOn64Bytes() throws {
        let layout = try Self.layout("clean.usdz")
        #expect(layout.entries.map(\.name) == ["clean.usda", "textures/albedo.png", "textures/normal.png"])
        #expect(layout.entries.allSatisfy { $0.dataOffset % 64 == 0 && $0.compressionMethod == 0 && !$0.isEncrypted })
        // The offset is where the bytes really are: the root layer's text starts there.
        let bytes = [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent("clean.usdz")))
        #expect(bytes[layout.entries[0].dataOffset...].starts(with: Array("#usda 1.0".utf8)))
    }

    @Test func unalignedAndDeflatedEntriesAreSeen() throws {
        #expect(try Self.layout("unaligned.usdz").entries.contains { $0.dataOffset % 64 != 0 })
        let compressed = try Self.layout("compressed.usdz").entries.filter { $0.compressionMethod != 0 }
        #expect(compressed.map(\.name) == ["textures/albedo.png"])
        #expect(compressed[0].compressionMethod == 8 && compressed[0].compressedSize != compressed[0].size)
    }

    @Test(arguments: [0, 10, 21, 22, 60, 200])
    func truncatedPackagesFailWithALocatedError(keep: Int) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent("clean.usdz")))
        // Cut from the end, where the central directory is: every cut must be refused, never crash.
        let cut = Array(bytes.prefix(max(0, bytes.count - keep - 1)))
        #expect(throws: AssetError.self) { try USDZPackageLayout(bytes: keep == 0 ? [] : cut, location: "cut.usdz") }
    }

    /// Budget checks read only a texture's header: a prefix read gives the entry's first bytes,
    /// stored or deflated, and never more than the entry holds.
    @Test func prefixReadsGiveTheFirstBytesOfAnEntry() throws {
        for name in ["clean.usdz", "compressed.usdz"] {
            let bytes = Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
            let archive = try USDZArchive(bytes: bytes, location: .file(path: name), limits: ReadLimits(), allowsCompression: true)
            let entry = try #require(archive.entries.first { $0.name == "textures/albedo.png" })
            let whole = try archive.read(entry)
            #expect(whole.count == entry.size && whole.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            #expect(try archive.read(entry, upTo: 24) == Array(whole.prefix(24)), "\(name)")
            #expect(try archive.read(entry, upTo: entry.size + 100) == whole)
        }
    }
}

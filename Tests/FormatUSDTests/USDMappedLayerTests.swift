import AssetCore
import Foundation
import Testing
@testable import FormatUSD

/// Big usda layers are parsed in place in their mapped file, their arrays' pages dropped as they
/// are read; the layer must be the one a read of the bytes gives, and a file cut short while it
/// is mapped must give an error, not a crash.
@Suite struct USDMappedLayerTests {
    /// A layer of about 12 MB: over `MappedFile.threshold`, with arrays over a megabyte (so pages
    /// are released) and small values after them (so reading goes on past released pages).
    static func bigLayer() -> [UInt8] {
        var text = "#usda 1.0\n(\n    defaultPrim = \"M\"\n)\n\ndef Mesh \"M\"\n{\n    point3f[] points = ["
        text += (0..<300_000).map { "(\(Double($0) * 0.25), \(-Double($0) / 7), 1e-3)" }.joined(separator: ", ")
        text += "]\n    int[] faceVertexIndices = [" + (0..<600_000).map { String($0 % 99_991) }.joined(separator: ", ") + "]\n"
        text += "    token subdivisionScheme = \"none\"\n}\n\ndef Xform \"After\"\n{\n    double3 xformOp:translate = (1, 2, 3)\n}\n"
        return Array(text.utf8)
    }

    static func write(_ bytes: [UInt8], name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("assetc-mapped-\(UUID().uuidString)-\(name)")
        try Data(bytes).write(to: url)
        return url
    }

    @Test func aMappedLayerIsTheLayerItsBytesGive() throws {
        let bytes = Self.bigLayer()
        #expect(bytes.count >= MappedFile.threshold, "the layer must be big enough to be mapped")
        let url = try Self.write(bytes, name: "big.usda")
        defer { try? FileManager.default.removeItem(at: url) }
        let location = AssetLocation.file(path: url.path)
        let mapped = try #require(try MappedFile.mapIfLarge(path: url.path, display: "big.usda", budget: ReadBudget(ReadLimits())))
        let fromMapping = try USDAParser.parse(mapped, location: location, budget: ReadBudget(ReadLimits()))
        let fromBytes = try USDAParser.parse(bytes, location: location)
        #expect(USDAPrinter.print(fromMapping) == USDAPrinter.print(fromBytes))
        #expect(fromMapping.rootPrims.map(\.name) == ["M", "After"])
        // The released pages read back as the file's bytes, not zeros.
        #expect(Array(mapped.bytes) == bytes)
        #expect(!mapped.changedWhileRead)
        // The layer cache, which every USD read goes through, takes the same path to the same layer.
        let cache = USDLayerCache(resolver: USDAssetResolver(rootFile: url.path, options: ReadOptions(), budget: ReadBudget(ReadLimits())))
        let cached = cache.layer(try cache.load(location))
        #expect(USDAPrinter.print(cached) == USDAPrinter.print(fromBytes))
    }

    @Test func aFileCutShortWhileMappedIsAnErrorNotACrash() throws {
        let bytes = Self.bigLayer()
        let url = try Self.write(bytes, name: "shrinking.usda")
        defer { try? FileManager.default.removeItem(at: url) }
        let mapped = try #require(MappedFile(path: url.path, size: bytes.count))
        // Another process rewriting the file in place: it is now a few kilobytes long.
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 4096)
        try handle.close()
        #expect(mapped.bytes[bytes.count - 1] == 0, "past the new end the mapping reads zeros")
        #expect(mapped.changedWhileRead)
        let location = AssetLocation.file(path: url.path)
        #expect {
            _ = try USDAParser.parse(mapped, location: location, budget: ReadBudget(ReadLimits()))
        } throws: { error in
            "\(error)".contains("shrank while it was being read")
        }
    }

    @Test func smallFilesAreReadNotMapped() throws {
        let url = try Self.write(Array("#usda 1.0\ndef \"A\"\n{\n}\n".utf8), name: "small.usda")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try MappedFile.mapIfLarge(path: url.path, display: "small.usda", budget: ReadBudget(ReadLimits())) == nil)
    }
}

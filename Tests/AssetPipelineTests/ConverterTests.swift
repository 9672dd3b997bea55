import AssetTestSupport
import AssetCore
import Foundation
import Testing
@testable import AssetPipeline

@Suite struct ConverterTests {
    let temporary = TemporaryFolder("assetc-convert")
    var folder: URL { temporary.url }
    let source: URL

    init() throws {
        source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/usd/subsets_materials.usda")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func convert(_ name: String, force: Bool = false, textRootLayer: Bool = false) throws(AssetError) -> ConvertReport {
        var options = ConvertOptions()
        options.force = force
        options.textRootLayer = textRootLayer
        return try Converter().convert(input: source.path, output: folder.appendingPathComponent(name).path, options: options)
    }

    @Test(arguments: ["usda", "usdc", "usdz"])
    func usdRoundTripsAreAFixedPointAfterTheFirstWrite(ext: String) throws {
        // usda -> X -> X: the second write says what the first did (no new `Looks_2` scope, no
        // suffixes piling up on material names); only each output's own texture folder differs.
        let once = folder.appendingPathComponent("once.\(ext)").path, twice = folder.appendingPathComponent("twice.\(ext)").path
        var options = ConvertOptions()
        options.textRootLayer = true
        _ = try Converter().convert(input: source.path, output: once, options: options)
        _ = try Converter().convert(input: once, output: twice, options: options)
        let first = try FormatRegistry.standard.read(URL(fileURLWithPath: once)).scene
        let second = try FormatRegistry.standard.read(URL(fileURLWithPath: twice)).scene
        #expect(second.materials.map(\.name) == first.materials.map(\.name))
        #expect(first.materials.map(\.name) == ["Painted", "Checker"], "the source's names, no index suffix")
        var paths: [[String]] = []
        for scene in [first, second] {
            var names: [String] = []
            scene.forEachNode { _, visit in names.append(visit.path) }
            paths.append(names)
        }
        #expect(paths[0] == paths[1])
        #expect(!paths[1].contains { $0.contains("Looks_") }, "\(paths[1])")
        if ext == "usda" {
            let text = { (path: String, stem: String) in
                try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\(stem)_textures/", with: "TEXTURES/")
            }
            #expect(try text(once, "once") == text(twice, "twice"))
        }
    }

    @Test func everyWriterIsDeterministic() throws {
        // The same output name written twice into two folders: every file the same to the byte.
        for ext in ["usda", "usdc", "usdz", "dae", "gltf", "glb", "obj", "stl", "ply", "fbx"] {
            var listings: [[String: Data]] = []
            for run in ["one", "two"] {
                let dir = folder.appendingPathComponent("\(run)-\(ext)")
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                _ = try Converter().convert(input: source.path, output: dir.appendingPathComponent("model.\(ext)").path, options: ConvertOptions())
                var files: [String: Data] = [:]
                let walker = FileManager.default.enumerator(atPath: dir.path)
                while let path = walker?.nextObject() as? String {
                    var isDirectory: ObjCBool = false
                    if FileManager.default.fileExists(atPath: dir.appendingPathComponent(path).path, isDirectory: &isDirectory), !isDirectory.boolValue {
                        files[path] = try Data(contentsOf: dir.appendingPathComponent(path))
                    }
                }
                listings.append(files)
            }
            #expect(!listings[0].isEmpty)
            #expect(listings[0] == listings[1], "\(ext) differs between two runs")
        }
    }

    @Test func existingOutputNeedsForceAndFailuresLeaveNothing() throws {
        _ = try convert("x.glb")
        do {
            _ = try convert("x.glb")
            Issue.record("an existing output was replaced without --force")
        } catch {
            #expect(error.message.contains("exists; pass --force"))
        }
        _ = try convert("x.glb", force: true)
        // A folder where the output should go makes the final rename fail: no temporary file stays.
        let blocked = folder.appendingPathComponent("blocked.glb")
        try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
        try Data().write(to: blocked.appendingPathComponent("keep"))
        #expect(throws: AssetError.self) { try convert("blocked.glb", force: true) }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    /// A name near the file system's 255-byte limit is written (its temporary name is shortened),
    /// and a name past it is one located error with nothing left behind.
    @Test func outputNamesNearTheLimitAreWrittenAndPastItFailCleanly() throws {
        let longest = String(repeating: "n", count: 251) + ".glb"
        _ = try convert(longest)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(longest).path))
        let tooLong = String(repeating: "n", count: 252) + ".glb"
        do {
            _ = try convert(tooLong)
            Issue.record("a 256-byte file name was written")
        } catch {
            #expect(error.message.contains("File name too long"), "\(error.message)")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test(arguments: [false, true])
    func usdzEntriesAreStoredAnd64ByteAligned(textRootLayer: Bool) throws {
        _ = try convert("p.usdz", force: true, textRootLayer: textRootLayer)
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("p.usdz")))
        var offset = 0
        var names: [String] = []
        var dataOffsets: [Int] = []
        while offset + 30 <= bytes.count, bytes[offset..<(offset + 4)] == [0x50, 0x4B, 0x03, 0x04] {
            func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
            func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
            #expect(u16(offset + 8) == 0, "stored, not compressed")
            let nameLength = u16(offset + 26), extraLength = u16(offset + 28)
            names.append(String(decoding: bytes[(offset + 30)..<(offset + 30 + nameLength)], as: UTF8.self))
            let data = offset + 30 + nameLength + extraLength
            #expect(data % 64 == 0, "entry \(names.last!) data at \(data)")
            dataOffsets.append(data)
            offset = data + u32(offset + 22)
        }
        // The root layer first: binary usdc unless text was asked for.
        #expect(names == [textRootLayer ? "p.usda" : "p.usdc", "textures/checker.png"])
        let root = try #require(dataOffsets.first)
        #expect(Array(bytes[root..<(root + 8)]) == Array((textRootLayer ? "#usda 1." : "PXR-USDC").utf8))
    }

    @Test func glbChunksAreAlignedAndSized() throws {
        _ = try convert("g.glb")
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("g.glb")))
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        #expect(Array(bytes[0..<4]) == Array("glTF".utf8))
        #expect(u32(4) == 2)
        #expect(u32(8) == bytes.count)
        let jsonLength = u32(12)
        #expect(jsonLength % 4 == 0)
        #expect(Array(bytes[16..<20]) == Array("JSON".utf8))
        let binHeader = 20 + jsonLength
        #expect(u32(binHeader) % 4 == 0)
        #expect(binHeader + 8 + u32(binHeader) == bytes.count)
        let json = try JSONSerialization.jsonObject(with: Data(bytes[20..<(20 + jsonLength)])) as? [String: Any]
        let accessors = json?["accessors"] as? [[String: Any]] ?? []
        #expect(accessors.contains { $0["min"] != nil && $0["max"] != nil }, "POSITION accessors carry min and max")
        #expect((json?["images"] as? [[String: Any]])?.first?["bufferView"] != nil, "textures are embedded")
    }

    @Test func unknownTargetFormatNamesTheWriters() {
        #expect(throws: AssetError.self) { try convert("out.3ds") }
        do {
            _ = try convert("out.3ds")
        } catch {
            #expect(error.message.contains("usda, usdc, usdz, dae, gltf, glb, obj, stl, ply, spz, fbx"))
        }
    }
}

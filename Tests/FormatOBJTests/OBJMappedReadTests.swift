import AssetCore
import AssetTestSupport
import Foundation
import Testing
@testable import FormatOBJ

@Suite struct OBJMappedReadTests {
    let temporary = TemporaryFolder("assetc-obj-mapped")

    /// Files from `MappedFile.threshold` up are parsed in their mapping, each part's pages dropped
    /// behind it; the parse must be the one the bytes give, and the reader's scene the same.
    @Test func aMappedFileParsesAsItsBytesDo() throws {
        var text = "mtllib none.mtl\n"
        for k in 0..<220_000 { text += "v \(Float(k) * 0.5) \(Float(k % 977) / 3) -\(k % 13)\nvt 0.\(k % 1000) 0.5\nvn 0 0 1\n" }
        for g in 0..<2 {
            text += "g part\(g)\nusemtl m\(g)\n"
            for k in stride(from: g * 100_000, to: (g + 1) * 100_000, by: 1) { text += "f \(k + 1)/\(k + 1)/1 \(k + 2)/\(k + 2)/2 -\(k % 50 + 1)//3\n" }
        }
        let bytes = Array(text.utf8)
        #expect(bytes.count >= MappedFile.threshold && bytes.count >= 2 * OBJParser.dropStep, "big enough to be mapped and dropped behind")
        try FileManager.default.createDirectory(at: temporary.url, withIntermediateDirectories: true)
        let url = temporary.appendingPathComponent("big.obj")
        try Data(bytes).write(to: url)
        let budget = ReadBudget(ReadLimits())
        let mapped = try #require(try MappedFile.mapIfLarge(path: url.path, display: "big.obj", budget: budget))
        let fromMapping = try OBJSplitParse.parse(mapped.bytes, file: "big.obj", budget: budget, mapping: mapped)
        let fromBytes = try OBJSplitParse.parse(bytes, file: "big.obj", budget: ReadBudget(ReadLimits()))
        #expect(fromMapping.positions == fromBytes.positions)
        #expect(fromMapping.texcoords == fromBytes.texcoords)
        #expect(fromMapping.normals == fromBytes.normals)
        #expect(fromMapping.groups.map { $0.name } == ["part0", "part1"])
        for (a, b) in zip(fromMapping.groups, fromBytes.groups) {
            #expect(a.positions == b.positions)
            #expect(a.texcoords == b.texcoords)
            #expect(a.normals == b.normals)
            #expect(a.faceSizes == b.faceSizes)
            #expect(a.faceMaterials == b.faceMaterials)
            #expect(a.line == b.line)
        }
        #expect(Array(mapped.bytes) == bytes, "dropped pages read back as the file")
        let scene = try OBJReader().read(from: url, options: ReadOptions()).scene
        #expect(scene.meshes.map { $0.faceVertexIndices.count } == [300_000, 300_000])
    }
}

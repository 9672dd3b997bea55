import AssetCore
import AssetTestSupport
import Foundation
import Testing
@testable import FormatSTL

@Suite struct STLReaderTests {
    let temporary = TemporaryFolder("assetc-stl")

    func read(_ bytes: [UInt8]) throws -> Scene {
        try FileManager.default.createDirectory(at: temporary.url, withIntermediateDirectories: true)
        let url = temporary.appendingPathComponent("t.stl")
        try Data(bytes).write(to: url)
        return try STLReader().read(from: url, options: ReadOptions()).scene
    }

    @Test func aBinaryFileWhoseHeaderSaysSolidIsBinary() throws {
        var bytes = Array("solid exported by a CAD tool".utf8) + [UInt8](repeating: 0x20, count: 52)
        bytes += [1, 0, 0, 0]
        for v: Float in [0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 4, 0] { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes += $0 } }
        bytes += [0, 0]
        let scene = try read(bytes)
        #expect(scene.meshes[0].points == [SIMD3(0, 0, 0), SIMD3(3, 0, 0), SIMD3(0, 4, 0)])
        #expect(!scene.metadata.declaresUnits)
    }

    @Test func asciiSolidsBecomeNamedNodes() throws {
        let text = "solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1e0 0\nendloop\nendfacet\nendsolid a\n"
            + "solid b\nendsolid b\n"
        let scene = try read(Array(text.utf8))
        #expect(scene.root.children.map(\.name) == ["a", "b"])
        #expect(scene.stats.triangles == 1 && scene.meshes[1].points.isEmpty)
    }
}

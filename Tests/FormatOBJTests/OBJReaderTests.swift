import AssetCore
import AssetTestSupport
import Foundation
import Testing
@testable import FormatOBJ

@Suite struct OBJReaderTests {
    let temporary = TemporaryFolder("assetc-obj")

    func read(_ text: String, mtl: String? = nil) throws -> ReadResult {
        try FileManager.default.createDirectory(at: temporary.url, withIntermediateDirectories: true)
        if let mtl { try Data(mtl.utf8).write(to: temporary.appendingPathComponent("m.mtl")) }
        let url = temporary.appendingPathComponent("t.obj")
        try Data(text.utf8).write(to: url)
        return try OBJReader().read(from: url, options: ReadOptions())
    }

    @Test func negativeIndicesCountBackFromTheLatestDefinition() throws {
        let scene = try read("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\nv 5 5 5\nf 1 2 -1\n").scene
        #expect(scene.meshes[0].faceVertexIndices == [0, 1, 2, 0, 1, 3])
        #expect(scene.meshes[0].points.last == SIMD3(5, 5, 5))
    }

    @Test func groupsHoldOnlyThePositionsTheyUse() throws {
        let scene = try read("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 9 9 9\no A\nf 1 2 3\no B\ng B\nf 2 4 3\n").scene
        #expect(scene.root.children.map(\.name) == ["A", "B"], "'g' right after 'o' names the same group")
        #expect(scene.meshes[1].points == [SIMD3(1, 0, 0), SIMD3(9, 9, 9), SIMD3(0, 1, 0)])
        #expect(scene.meshes[1].faceVertexIndices == [0, 1, 2])
    }

    @Test func texcoordsAndNormalsKeepTheirOwnIndices() throws {
        let scene = try read("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvn 0 0 1\nf 1/2/1 2/1/1 3/1/1\n").scene
        let st = try #require(scene.meshes[0].primvar(named: "st"))
        #expect(st.interpolation == .faceVarying && st.indices == [0, 1, 1])
        #expect(st.values == .float2([SIMD2(1, 0), SIMD2(0, 0)]), "compacted in first-use order")
        #expect(scene.meshes[0].primvar(named: Primvar.normalsName)?.indices == [0, 0, 0])
    }

    @Test func materialRunsBecomeSubsetsWithMTLValues() throws {
        let result = try read("mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nusemtl A\nf 1 2 3\nusemtl B\nf 2 4 3\nusemtl A\nf 1 3 4\n",
                              mtl: "newmtl A\nKd 1 0 0\nNs 0\nnewmtl B\nPr 0.3\nPm 1\nKe 0 1 0\nmap_Kd -o 0.5 0.5 missing texture.png\n")
        let mesh = result.scene.meshes[0]
        #expect(mesh.subsets.map(\.name) == ["A", "B"] && mesh.subsets[0].faceIndices == [0, 2])
        let materials = result.scene.materials
        #expect(materials[0].baseColor.value == SIMD3(1, 0, 0) && materials[0].roughness.value == 1, "Ns 0: sqrt(2/2)")
        #expect(materials[1].roughness.value == 0.3 && materials[1].metallic.value == 1 && materials[1].emissive.value == SIMD3(0, 1, 0))
        #expect(result.scene.textures.first?.authoredPath == "missing texture.png", "options read past; a name may hold spaces")
        #expect(result.warnings.contains { $0.message.hasPrefix("texture 'missing texture.png' not found") })
    }

    @Test func aBadStatementIsLocated() {
        #expect(throws: AssetError(.malformed("normal index 1 is outside the 0 defined so far"), at: SourceLocation(file: temporary.appendingPathComponent("t.obj").relativePath, line: 4))) {
            try read("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1//1 2//1 3//1\n")
        }
    }
}

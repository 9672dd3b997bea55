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
        #expect(scene.meshes[1].points == [SIMD3(1, 0, 0), SIMD3(9, 9, 9), SIMD3(0, 1, 0)], "compacted in first-use order")
        #expect(scene.meshes[1].faceVertexIndices == [0, 1, 2])
    }

    @Test func texcoordsAndNormalsKeepTheirOwnIndices() throws {
        let scene = try read("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvn 0 0 1\nf 1/2/1 2/1/1 3/1/1\n").scene
        let st = try #require(scene.meshes[0].primvar(named: "st"))
        #expect(st.interpolation == .faceVarying && st.indices == [1, 0, 0], "every vt is used: the file's numbering is kept")
        #expect(st.values == .float2([SIMD2(0, 0), SIMD2(1, 0)]))
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

    /// A statement of the MTL that cannot be read costs that statement, named with its line, not the library.
    @Test func aBadMTLStatementIsLeftOutAndTheLibraryRead() throws {
        let result = try read("mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl A\nf 1 2 3\nusemtl B\nf 1 3 2\n",
                              mtl: "newmtl A\nKd 1 0 x\nNs 10\nNi 1.33\nnewmtl B\nKd 0 1 0\nd\nKs 0.5 0.5 0.5\nillum 2\nKa 1 1 1\n")
        let materials = result.scene.materials
        #expect(materials.map(\.name) == ["A", "B"] && materials[1].baseColor.value == SIMD3(0, 1, 0) && materials[0].ior == 1.33)
        let warnings = result.warnings.map { "\($0.location.line.map(String.init) ?? "-"): \($0.message)" }
        #expect(warnings.contains("2: 'Kd' needs 3 numbers; the statement is left out"))
        #expect(warnings.contains("7: 'd' needs 1 numbers; the statement is left out"))
        #expect(warnings.contains("-: statements with no place in a metallic-roughness material are not kept: Ks (1)"), "Ka and illum pass")
    }

    @Test func aBadStatementIsLocated() {
        #expect(throws: AssetError(.malformed("a 'vn' needs x y z"), at: SourceLocation(file: temporary.appendingPathComponent("t.obj").relativePath, line: 4))) {
            try read("v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 1\nf 1//1 2//1 3//1\n")
        }
    }

    /// `1//` and `1/` corners are positions alone; a corner whose position points at nothing drops
    /// its face; one whose texcoord or normal points at nothing keeps its face without that
    /// attribute (as trimesh reads them). Each kind is counted with its first line.
    @Test func unresolvableCornersLoseWhatTheyPointAtAndTheRestIsRead() throws {
        let text = """
            v 0 0 0
            v 1 0 0
            v 0 1 0
            v 1 1 0
            f 1// 2// 3//
            f 2/ 4/ 3/
            f 1//1 2//1 3//1
            f 1//2 2//1 4//1
            f 1 2 9
            f /1 2 3
            f 1 2x 3
            vt 0 0
            f 1/1 2/1 4/2
            """
        let result = try read(text)
        let mesh = try #require(result.scene.meshes.first)
        #expect(mesh.faceVertexIndices == [0, 1, 2, 1, 3, 2, 0, 1, 2, 0, 1, 3, 0, 1, 3], "every face but the three whose position is missing")
        #expect(mesh.primvars.first { $0.role == .textureCoordinate } == nil, "the one face with texcoords lost them")
        let warnings = result.warnings.map(\.message)
        #expect(warnings.contains("2 faces read without normals: normal index 1 past the 0 defined (the first)"))
        #expect(warnings.contains("1 face read without texture coordinates: texcoord index 2 past the 1 defined"))
        #expect(warnings.contains("1 face dropped: position index 9 past the 4 defined"))
        #expect(warnings.contains("1 face dropped: a corner with no position index"))
        #expect(warnings.contains("1 face dropped: a corner with unexpected text after its indices"))
        #expect(result.warnings.first { $0.message.hasPrefix("2 faces read without normals") }?.location.line == 7)
    }

    /// Texture coordinates on some faces of a group are kept; the faces without get (0, 0).
    @Test func texcoordsOnSomeFacesAreKeptAndTheRestZero() throws {
        let result = try read("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvt 0.5 0.5\nf 1/1 2/1 3/1\nf 2 4 3\n")
        let mesh = try #require(result.scene.meshes.first)
        let st = try #require(mesh.primvars.first { $0.role == .textureCoordinate })
        guard case .float2(let values) = st.values else { Issue.record("st is not float2"); return }
        #expect(st.indices.map { $0.map { values[Int($0)] } } == [SIMD2(0.5, 0.5), SIMD2(0.5, 0.5), SIMD2(0.5, 0.5), .zero, .zero, .zero])
        #expect(result.warnings.map(\.message).contains("texture coordinates on some faces of t only; 3 corners get (0, 0)"))
    }

    /// A `\\` at a line's end continues the statement (LF or CRLF); a keyword counts only where a
    /// statement starts, not inside a group's name.
    @Test func continuedStatementsAndKeywordsInNames() throws {
        let result = try read("v 0 0 0\nv 1 \\\n 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 \\\r\n 3 \\\n4\ng a f b v c\nf 1 3 4\n")
        #expect(result.scene.meshes.map(\.faceVertexCounts) == [[4], [3]])
        #expect(result.scene.meshes.map(\.name) == ["t", "a f b v c"] || result.scene.meshes.map(\.name) == ["group0", "a f b v c"])
        #expect(result.warnings.isEmpty, "\(result.warnings)")
    }
}

/// A file parsed in two halves on two threads gives what one pass gives, wherever the cut falls:
/// indices counting back across it, a group and a material running over it, colours on one side.
@Suite struct OBJSplitParseTests {
    static let text = """
        mtllib m.mtl
        v 0 0 0
        v 1 0 0
        v 0 1 0
        vt 0 0
        o First
        usemtl A
        f 1/1 2/1 3/1
        v 1 1 0
        v 2 2 0 1 0 0
        vn 0 0 1
        f -1//-1 -2//1 -3//1
        usemtl B
        f -4 -3 -2
        g Second
        v 5 5 5
        f -1 1 2
        usemtl A
        f 4 5 6
        o Third
        v 7 7 7 0 0 1
        f -1 -2 -3
        """

    func parse(_ text: String, threshold: Int) throws -> OBJParser {
        try OBJSplitParse.parse(Array(text.utf8), file: "t.obj", budget: ReadBudget(ReadLimits()), splitThreshold: threshold)
    }

    @Test func everyCutGivesTheOnePassResult() throws {
        let whole = try parse(Self.text, threshold: Int.max)
        let bytes = Array(Self.text.utf8)
        // Each threshold moves nothing; the cut is at five ninths, so vary the text's length instead.
        for padding in 0..<40 {
            let padded = String(repeating: "# padding\n", count: padding) + Self.text
            let split = try parse(padded, threshold: 1)
            #expect(split.positions == whole.positions && split.texcoords == whole.texcoords && split.normals == whole.normals, "padding \(padding)")
            #expect(split.colors == whole.colors, "padding \(padding)")
            #expect(split.materialNames.sorted() == whole.materialNames.sorted())
            #expect(split.groups.map(\.name) == whole.groups.map(\.name), "padding \(padding)")
            for (a, b) in zip(split.groups, whole.groups) {
                #expect(a.positions == b.positions && a.texcoords == b.texcoords && a.normals == b.normals && a.faceSizes == b.faceSizes, "padding \(padding)")
                #expect(a.faceMaterials.map { split.materialNames[Int($0)] } == b.faceMaterials.map { whole.materialNames[Int($0)] }, "padding \(padding)")
            }
        }
        #expect(!bytes.isEmpty && whole.groups.map(\.name) == ["First", "Second", "Third"])
    }

    @Test func anErrorInTheSecondHalfKeepsItsLine() {
        let text = String(repeating: "v 0 0 0\n", count: 20) + "v 1 2\n"
        #expect(throws: AssetError(.malformed("a 'v' needs x y z"), at: SourceLocation(file: "t.obj", line: 21))) {
            try parse(text, threshold: 1)
        }
    }

    @Test func droppedFacesInBothHalvesAddUpAndKeepTheFirstLine() throws {
        let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n" + String(repeating: "v 0 0 0\n", count: 20) + "f 1 2 99\nf 1 2 3\n"
        let split = try parse(text, threshold: 1), whole = try parse(text, threshold: Int.max)
        for parser in [split, whole] {
            let dropped = try #require(parser.droppedFaces["position"])
            #expect(dropped.count == 2 && dropped.firstLine == 4 && dropped.firstReason == "position index 7 past the 3 defined")
        }
    }

    /// The cut never falls after a line a `\\` continues.
    @Test func theCutKeepsAContinuedFaceWhole() throws {
        let face = "f 1 2 \\\n 3\n"
        for padding in 0..<12 {
            let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\n" + String(repeating: "# pad\n", count: padding) + String(repeating: face, count: 4)
            let split = try parse(text, threshold: 1)
            #expect(split.groups.flatMap(\.faceSizes) == [3, 3, 3, 3], "padding \(padding)")
            #expect(split.skippedStatements.isEmpty, "padding \(padding)")
        }
    }

    @Test func countsSeeStatementsAfterBlanksAndIgnoreLookalikes() {
        let text = "v 1 2 3\n  vt 0 0\n\tvn 0 0 1\nvp 1\nvertex\n# v 1 1 1\nv\t4 5 6\nvn 1 0 0\nf 1 2 3"
        let (counts, lines) = Array(text.utf8).withUnsafeBufferPointer { OBJSplitParse.counts($0) }
        #expect(counts.positions == 2 && counts.texcoords == 1 && counts.normals == 2)
        #expect(lines == 8)
    }
}

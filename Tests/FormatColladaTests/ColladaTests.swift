import AssetCore
import Foundation
import Testing
@testable import FormatCollada

enum ColladaFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/collada")

    static func read(_ name: String) throws(AssetError) -> ReadResult {
        try ColladaReader().read(from: folder.appendingPathComponent(name), options: ReadOptions())
    }

    /// Writes `text` to a temporary .dae and reads it.
    static func read(text: String) throws -> ReadResult {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("assetc-\(UUID().uuidString).dae")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try ColladaReader().read(from: url, options: ReadOptions())
    }
}

@Suite struct ColladaTransformTests {
    @Test func skewShiftsAlongTheTranslationAxisByTheRotationAxisComponent() {
        let m = ColladaTransforms.skew(degrees: 45, rotationAxis: [0, 2, 0], translationAxis: [3, 0, 0])
        #expect(m.transformPoint([0, 1, 0]).isApproximately([1, 1, 0]))
        #expect(m.transformPoint([1, 0, 0]) == [1, 0, 0])
        #expect(m.transformPoint([0, 0, 1]) == [0, 0, 1])
    }

    @Test func lookAtAimsMinusZAtTheInterest() {
        let m = ColladaTransforms.lookAt(eye: [3, 0, 0], interest: [0, 0, 0], up: [0, 1, 0])
        #expect(m.transformPoint([0, 0, 0]) == [3, 0, 0])
        #expect(m.transformDirection([0, 0, -1]).isApproximately([-1, 0, 0]))
        #expect(m.transformDirection([0, 1, 0]).isApproximately([0, 1, 0]))
        #expect(ColladaTransforms.lookAt(eye: [1, 1, 1], interest: [1, 1, 1], up: [0, 1, 0]) == .translation([1, 1, 1]))
    }

    @Test func documentOrderIsRightToLeftOnPoints() {
        let m = ColladaTransforms.matrix([(.translate([10, 0, 0]), 1, nil), (.rotate([0, 0, 2, 90]), 2, nil), (.scale([2, 2, 2]), 3, nil)])
        #expect(m.transformPoint([1, 0, 0]).isApproximately([10, 2, 0]), "scaled, then rotated about the normalised axis, then moved")
        #expect(ColladaTransforms.matrix(.matrix([1, 0, 0, 5, 0, 1, 0, 6, 0, 0, 1, 7, 0, 0, 0, 1])).translation == [5, 6, 7])
    }
}

@Suite struct ColladaReaderTests {
    @Test func sniffingWantsCOLLADAAsTheRootElement() {
        let reader = ColladaReader()
        func sniff(_ text: String) -> Bool { reader.sniff(prefix: Array(text.utf8), pathExtension: "") != nil }
        #expect(sniff("<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\">"))
        #expect(sniff("\u{FEFF}<?xml version=\"1.0\"?>\n<!-- exported -->\n<!DOCTYPE x>\n  <COLLADA version=\"1.4.1\">"))
        #expect(!sniff("{\"message\": \"the root element is <svg>, not <COLLADA>\"}"), "JSON that mentions the tag")
        #expect(!sniff("<?xml version=\"1.0\"?><svg><!-- <COLLADA --></svg>"), "another root element")
        #expect(!sniff("<?xml version=\"1.0\""), "a prolog cut off before any element")
    }

    @Test func numbersSplitAcrossChunkBoundariesParseWhole() throws {
        // Enough numbers that the float_array spans several 1 MiB chunks of the push parser.
        let count = 300_000
        let values = (0..<count).map { Float($0) * 0.001 - 17.5 }
        let text = values.map { String($0) }.joined(separator: " ")
        let root = try ColladaSAXReaderHarness.parse("<COLLADA><float_array>\(text)</float_array><p>\((0..<count).map(String.init).joined(separator: " "))</p></COLLADA>")
        #expect(root.child("float_array")?.floats == values.map { String($0).withCString { strtof($0, nil) } })
        #expect(root.child("p")?.ints == (0..<count).map(Int32.init))
    }

    /// Numbers are parsed in 64 KB runs on a second thread; a bad token deep in a long array must
    /// still be reported on its own line, whichever run it falls in.
    @Test(arguments: [3, 2_500, 7_999])
    func aBadNumberDeepInALongArrayKeepsItsLine(badRow: Int) throws {
        // Line 1 holds <COLLADA><float_array>, then one row of ten numbers per line.
        let rows = (0..<8_000).map { row in
            row == badRow ? "1 2 3 4 oops 6 7 8 9 10" : (0..<10).map { String(row * 10 + $0) }.joined(separator: " ")
        }
        let root = try ColladaSAXReaderHarness.parse("<COLLADA><float_array>\n" + rows.joined(separator: "\n") + "\n</float_array></COLLADA>")
        let array = try #require(root.child("float_array"))
        #expect(array.badNumber?.token == "oops")
        #expect(array.badNumber?.line == badRow + 2)
        #expect(array.floats.count == 8_000 * 10 - 1, "every other number is kept")
    }

    @Test func multiMaterialPrimitivesBecomeSubsetsWithTheirBindings() throws {
        let result = try ColladaFixtures.read("materials_textures.dae")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let scene = result.scene
        let mesh = scene.meshes[0]
        #expect(mesh.subsets.map(\.name) == ["brickSymbol", "glassSymbol"])
        #expect(mesh.subsets.map(\.faceIndices) == [[0], [1, 2]])
        let instance = try #require(scene.node(at: "/Wall")?.meshInstances.first)
        #expect(instance.subsetMaterials.map { $0.map { scene.materials[$0].name } } == ["Brick", "Glass"])
        #expect(mesh.texcoordSets.map(\.name) == ["st", "st1"])
        #expect(mesh.primvar(named: "displayColor")?.interpolation == .faceVarying)
        let brick = try #require(scene.materials.first { $0.name == "Brick" })
        #expect(brick.baseColor.texture?.texcoordSet == "st1", "bind_vertex_input maps UVA to TEXCOORD set 1")
        #expect(scene.textures.count == 1)
        #expect(scene.textures[0].resolves, "textures/bricks%2001.png is URL-decoded")
        let glass = try #require(scene.materials.first { $0.name == "Glass" })
        #expect(abs(glass.opacity.value - 0.4) < 1e-6, "A_ONE: alpha 0.5 times transparency 0.8")
        #expect(abs(glass.roughness.value - Float((2.0 / 52).squareRoot())) < 1e-6)
        #expect(glass.emissive.value == SIMD3(0, 0, 0.1))
    }

    @Test func instanceNodesAndSkinsPlaceGeometry() throws {
        let nodes = try ColladaFixtures.read("instance_nodes.dae").scene
        #expect(nodes.node(at: "/B/Tile")?.transform == .scale([2, 2, 1]))
        #expect(nodes.stats.meshes == 2)
        #expect(nodes.meshes.count == 1, "one mesh, placed twice")
        let skin = try ColladaFixtures.read("skin_bind_pose.dae").scene
        #expect(skin.worldBounds == Bounds3(min: [0, 0, 3], max: [1, 1, 3]))
    }

    @Test func camerasAndLightsAreKept() throws {
        let scene = try ColladaFixtures.read("camera_light.dae").scene
        #expect(scene.cameras.map(\.verticalFieldOfView) == [45])
        #expect(scene.lights.map(\.kind) == [.directional, .point])
        #expect(scene.node(at: "/CameraNode")?.camera == 0)
    }

    @Test func texturesOutsideTheFolderAreRefused() throws {
        let result = try ColladaFixtures.read(text: """
            <?xml version="1.0"?>
            <COLLADA version="1.4.1">
              <library_images><image id="i"><init_from>file:///etc/hostname</init_from></image></library_images>
              <library_effects><effect id="e"><profile_COMMON><technique sid="c"><lambert>
                <diffuse><texture texture="i" texcoord="t"/></diffuse></lambert></technique></profile_COMMON></effect></library_effects>
              <library_materials><material id="m"><instance_effect url="#e"/></material></library_materials>
              <library_geometries><geometry id="g"><mesh>
                <source id="s"><float_array id="a" count="9">0 0 0 1 0 0 0 1 0</float_array><technique_common>
                  <accessor source="#a" count="3" stride="3"><param name="X"/><param name="Y"/><param name="Z"/></accessor></technique_common></source>
                <vertices id="v"><input semantic="POSITION" source="#s"/></vertices>
                <triangles count="1" material="sym"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>
              </mesh></geometry></library_geometries>
              <library_visual_scenes><visual_scene id="vs"><node id="n"><instance_geometry url="#g"><bind_material><technique_common>
                <instance_material symbol="sym" target="#m"/></technique_common></bind_material></instance_geometry></node></visual_scene></library_visual_scenes>
            </COLLADA>
            """)
        #expect(result.warnings.map(\.message).contains { $0.hasPrefix("texture refused: 'file:///etc/hostname' is outside the asset root /") })
        #expect(result.scene.textures.first?.resolves == false)
    }
}

/// Runs the SAX reader on a string, through a temporary file like a real read.
enum ColladaSAXReaderHarness {
    static func parse(_ text: String) throws -> ColladaElement {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("assetc-sax-\(UUID().uuidString).dae")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try ColladaSAXReader.read(path: url.path, display: "t.dae", budget: ReadBudget(ReadLimits()))
    }
}

extension SIMD3 where Scalar == Double {
    func isApproximately(_ other: SIMD3<Double>, tolerance: Double = 1e-9) -> Bool {
        abs(x - other.x) <= tolerance && abs(y - other.y) <= tolerance && abs(z - other.z) <= tolerance
    }
}

@Suite struct ColladaCurvesTests {
    @Test func linesAndLineStripsAreReadAsCurvesWithTheirMaterials() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/collada/lines_and_strips.dae")
        let result = try ColladaReader().read(from: url, options: ReadOptions())
        let scene = result.scene
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        #expect(scene.curves.map(\.name) == ["edges", "path", "panel"])
        #expect(scene.curves[0].curveVertexCounts == Array(repeating: 2, count: 12))
        #expect(scene.curves[1].curveVertexCounts == [4, 2], "one polyline per <p>, the NORMAL offset skipped")
        #expect(scene.curves[1].points.last == SIMD3(-2, 4, 6))
        let stats = scene.stats
        #expect(stats.curves == 22 && stats.segments == 24 && stats.meshes == 2)
        let box = try #require(scene.root.children.first { $0.name == "Box" })
        #expect(box.meshInstances.isEmpty, "a geometry of lines only is not a mesh")
        #expect(box.curvesInstances.first?.material.map { scene.materials[$0].name } == "Red")
    }
}

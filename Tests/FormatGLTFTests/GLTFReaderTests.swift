import AssetCore
import AssetTestSupport
import Foundation
import Testing
@testable import FormatGLTF

@Suite struct GLTFReaderTests {
    let temporary = TemporaryFolder("assetc-gltf")

    func asset(_ json: String) throws -> GLTFAsset { try GLTFReader.decode(Array(json.utf8)[...], file: "t.gltf") }

    /// Bytes 0-3: two normalized unsigned bytes, then a signed short; an interleaved view with stride 8.
    @Test func componentTypesNormalizeAsTheSpecificationSays() throws {
        let json = """
            {"asset": {"version": "2.0"}, "buffers": [{"byteLength": 16}],
             "bufferViews": [{"buffer": 0, "byteLength": 16, "byteStride": 8}],
             "accessors": [{"bufferView": 0, "componentType": 5121, "normalized": true, "count": 2, "type": "VEC2"},
                           {"bufferView": 0, "byteOffset": 2, "componentType": 5122, "normalized": true, "count": 2, "type": "SCALAR"},
                           {"bufferView": 0, "byteOffset": 4, "componentType": 5123, "count": 2, "type": "SCALAR"}]}
            """
        var bytes = [UInt8](repeating: 0, count: 16)
        bytes[0] = 255; bytes[1] = 51          // element 0: (1, 0.2)
        bytes[2] = 0x01; bytes[3] = 0x80       // -32767 -> -1
        bytes[4] = 0x34; bytes[5] = 0x12       // 0x1234 as a plain unsigned short
        bytes[8] = 0; bytes[9] = 255           // element 1: (0, 1)
        bytes[10] = 0x00; bytes[11] = 0x80     // -32768 clamps to -1
        bytes[12] = 0xFF; bytes[13] = 0xFF
        let reader = GLTFAccessorReader(asset: try asset(json), buffers: [bytes[...]], budget: ReadBudget(ReadLimits()), file: "t.gltf")
        #expect(try reader.floats(0, allowedComponents: [2], what: "uv").values == [1, 0.2, 0, 1])
        #expect(try reader.floats(1, allowedComponents: [1], what: "s").values == [-1, -1])
        #expect(try reader.floats(2, allowedComponents: [1], what: "u").values == [0x1234, 65535])
        #expect(throws: AssetError.self) { try reader.floats(0, allowedComponents: [3], what: "POSITION") }
    }

    @Test func sparseValuesReplaceTheirElements() throws {
        let json = """
            {"asset": {"version": "2.0"}, "buffers": [{"byteLength": 20}],
             "bufferViews": [{"buffer": 0, "byteLength": 12}, {"buffer": 0, "byteOffset": 12, "byteLength": 2}, {"buffer": 0, "byteOffset": 16, "byteLength": 4}],
             "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "SCALAR",
                            "sparse": {"count": 1, "indices": {"bufferView": 1, "componentType": 5123}, "values": {"bufferView": 2}}},
                           {"componentType": 5126, "count": 3, "type": "SCALAR",
                            "sparse": {"count": 1, "indices": {"bufferView": 1, "componentType": 5123}, "values": {"bufferView": 2}}}]}
            """
        var bytes: [UInt8] = []
        for v: Float in [1, 2, 3] { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes += $0 } }
        bytes += [2, 0, 0, 0]
        withUnsafeBytes(of: Float(9).bitPattern.littleEndian) { bytes += $0 }
        let reader = GLTFAccessorReader(asset: try asset(json), buffers: [bytes[...]], budget: ReadBudget(ReadLimits()), file: "t.gltf")
        #expect(try reader.floats(0, allowedComponents: [1], what: "x").values == [1, 2, 9])
        #expect(try reader.floats(1, allowedComponents: [1], what: "x").values == [0, 0, 9], "no bufferView: zeros, then the sparse values")
    }

    @Test func aViewThatDoesNotHoldItsElementsIsLocated() throws {
        let json = """
            {"asset": {"version": "2.0"}, "buffers": [{"byteLength": 8}],
             "bufferViews": [{"buffer": 0, "byteLength": 8, "byteStride": 4}],
             "accessors": [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "VEC3"},
                           {"bufferView": 0, "componentType": 5126, "count": 4611686018427387904, "type": "SCALAR"}]}
            """
        let reader = GLTFAccessorReader(asset: try asset(json), buffers: [[UInt8](repeating: 0, count: 8)[...]], budget: ReadBudget(ReadLimits()), file: "t.gltf")
        #expect(throws: AssetError(.malformed("byteStride 4 is less than the 12-byte element"), at: SourceLocation(file: "t.gltf", elementPath: "accessors[0]"))) {
            try reader.floats(0, allowedComponents: [3], what: "POSITION")
        }
        #expect(throws: AssetError.self) { try reader.floats(1, allowedComponents: [1], what: "x") }
    }

    @Test func sniffsByContent() {
        let reader = GLTFReader()
        #expect(reader.sniff(prefix: Array("glTF\u{02}\u{00}".utf8), pathExtension: "bin") == AssetFormat.glb)
        #expect(reader.sniff(prefix: Array(" {\"asset\": {\"version\": \"2.0\"}}".utf8), pathExtension: "json") == AssetFormat.gltf)
        #expect(reader.sniff(prefix: Array("{\"name\": \"not a model\"}".utf8), pathExtension: "json") == nil)
    }

    /// What the glTF writer writes, the reader reads back: the same triangles at the same places.
    @Test func whatTheWriterWritesReadsBack() throws {
        var mesh = Mesh(name: "Tri", points: [[0, 0, 0], [1, 0, 0], [0, 2, 0], [3, 3, 3]], faceVertexCounts: [3, 3], faceVertexIndices: [0, 1, 2, 1, 3, 2])
        mesh.primvars = [Primvar(name: "st", interpolation: .vertex, values: .float2([[0, 0], [1, 0], [0, 1], [1, 1]]), role: .textureCoordinate)]
        var node = Node(name: "N", transform: .translation([1, 2, 3]), meshInstances: [MeshInstance(mesh: 0)])
        node.curvesInstances = [CurvesInstance(curves: 0)]
        let scene = Scene(root: Node(name: "", children: [node]), meshes: [mesh])
        var withCurves = scene
        withCurves.curves = [Curves(name: "L", points: [[0, 0, 0], [0, 0, 5], [5, 0, 5]], curveVertexCounts: [3])]
        let written = try GLTFWriter.glb.write(withCurves, context: WriteContext(outputName: "t.glb", textureBytes: { _ in nil }))
        let url = temporary.appendingPathComponent("t.glb")
        try FileManager.default.createDirectory(at: temporary.url, withIntermediateDirectories: true)
        try Data(written.files[0].bytes).write(to: url)
        let back = try GLTFReader().read(from: url, options: ReadOptions()).scene
        #expect(back.meshes.first?.points == mesh.points)
        #expect(back.meshes.first?.faceVertexIndices == mesh.faceVertexIndices)
        #expect(back.stats.segments == 2)
        #expect(back.worldBounds == withCurves.worldBounds)
        #expect(back.meshes.first?.primvar(named: "st")?.values == mesh.primvar(named: "st")?.values, "V flips on the way out and back")
    }
}

/// The material extensions, variants and animation pointers, read from the Blender-made and hand-written fixtures.
@Suite struct GLTFExtensionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gltf")

    func read(_ path: String) throws -> ReadResult {
        try GLTFReader().read(from: Self.folder.appendingPathComponent(path), options: ReadOptions())
    }

    @Test func specularGlossinessIsTheSpecularWorkflow() throws {
        let material = try #require(try read("material_extensions/spec_gloss_textured.gltf").scene.materials.first)
        #expect(material.usesSpecularWorkflow)
        #expect(material.specularColor.texture?.channels == .rgb)
        let roughness = try #require(material.roughness.texture)
        #expect(roughness.channels == .a && roughness.scale == SIMD4(repeating: -0.8) && roughness.bias == SIMD4(repeating: 1), "1 - 0.8 gloss")
        #expect(material.specularColor.texture?.texture == roughness.texture, "one image feeds both")
    }

    @Test func transmissionClearcoatAndIorLandOnTheirInputs() throws {
        let transmission = try #require(try read("material_extensions/ior.glb").scene.materials.first)
        #expect(abs(transmission.opacity.value - 0.5) < 1e-6 && abs(transmission.ior - 1.33) < 1e-6)
        let coat = try #require(try read("material_extensions/clearcoat.glb").scene.materials.first)
        #expect(abs(coat.clearcoat.value - 0.8) < 1e-6 && abs(coat.clearcoatRoughness.value - 0.2) < 1e-6)
    }

    @Test func variantsBindTheMaterialsTheirMappingsSay() throws {
        let scene = try read("material_extensions/variants.glb").scene
        #expect(scene.materialVariants == ["Crimson", "Navy"])
        var bound: [String: [String]] = [:]
        scene.forEachNode { node, _ in
            guard let instance = node.meshInstances.first else { return }
            bound[node.name] = scene.materialVariants.indices.map { v in instance.material(forSubset: nil, variant: v).map { scene.materials[$0].name } ?? "-" }
        }
        #expect(bound == ["Left": ["Red", "Blue"], "Right": ["Gold", "Red"]])
    }

    @Test func animationPointersDriveNodesAndMorphWeights() throws {
        let result = try read("animation_pointer/animation_pointer.gltf")
        let properties = result.scene.animations.first?.channels.map(\.property.name).sorted()
        #expect(properties == ["translation", "weights"])
        // The base colour factor of an opaque material: its colour animates, its alpha is ignored.
        let material = try #require(result.scene.animations.first?.materialChannels)
        #expect(material.map(\.input) == [.baseColor] && material[0].material == 0)
        #expect(material[0].values.count == material[0].times.count * 3 && material[0].times.count >= 2)
        #expect(result.warnings.isEmpty)
    }

    /// A textured material on a mesh with no texture coordinates: glTF requires the attribute the
    /// material reads, so the primitive gets zeros (where USD's primvar reader falls back to (0, 0)).
    @Test func aTextureOnAMeshWithoutCoordinatesReadsZeros() throws {
        let mesh = Mesh(name: "Bare", points: [[0, 0, 0], [1, 0, 0], [0, 1, 0]], faceVertexCounts: [3], faceVertexIndices: [0, 1, 2])
        var material = Material(name: "Painted")
        material.baseColor = MaterialProperty(SIMD3(1, 1, 1), texture: TextureReference(texture: 0, texcoordSet: "st1"))
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let scene = Scene(root: Node(name: "", children: [Node(name: "N", meshInstances: [MeshInstance(mesh: 0, material: 0)])]), meshes: [mesh],
                          materials: [material], textures: [Texture(name: "p.png", source: .embedded(bytes: png, mimeType: "image/png"))])
        let written = try GLTFWriter.gltf.write(scene, context: WriteContext(outputName: "t.gltf", textureBytes: { _ in png }))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(written.files[0].bytes)) as? [String: Any])
        let primitive = try #require(((json["meshes"] as? [[String: Any]])?.first?["primitives"] as? [[String: Any]])?.first)
        let attributes = try #require(primitive["attributes"] as? [String: Int])
        #expect(attributes["TEXCOORD_0"] != nil && attributes["TEXCOORD_1"] != nil)
        let accessors = try #require(json["accessors"] as? [[String: Any]])
        #expect(accessors[attributes["TEXCOORD_1"]!]["count"] as? Int == 3)
    }
}

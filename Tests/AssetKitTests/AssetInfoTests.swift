import AssetCore
import Foundation
import Testing
@testable import AssetKit

/// A scene with instancing, nesting, an n-gon, a material and a texture; every figure below is
/// worked out by hand from it.
func handBuiltScene() -> Scene {
    let quad = Mesh(name: "Quad", points: [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]],
                    faceVertexCounts: [4], faceVertexIndices: [0, 1, 2, 3])
    // A pentagon and a triangle: 2 faces, 3 + 1 triangles, 6 points.
    let roof = Mesh(name: "Roof", points: [[0, 0, 0], [2, 0, 0], [2, 1, 0], [1, 2, 0], [0, 1, 0], [5, 5, 5]],
                    faceVertexCounts: [5, 3], faceVertexIndices: [0, 1, 2, 3, 4, 0, 1, 5])
    let left = Node(name: "Left", typeName: "Mesh", transform: .translation([-3, 0, 0]),
                    meshInstances: [MeshInstance(mesh: 0, material: 0)])
    let right = Node(name: "Right", typeName: "Mesh", transform: .translation([3, 0, 0]),
                     meshInstances: [MeshInstance(mesh: 0, material: 0)])
    let top = Node(name: "Top", typeName: "Mesh", transform: .scale([1, 1, 2]), meshInstances: [MeshInstance(mesh: 1)])
    let house = Node(name: "House", typeName: "Xform", children: [left, right, top])
    var material = Material(name: "Brick")
    material.baseColor.texture = TextureReference(texture: 0)
    let texture = Texture(name: "brick", source: .file(authoredPath: "brick.png", resolvedPath: nil))
    return Scene(root: Node(name: "", children: [house]), meshes: [quad, roof], materials: [material],
                 textures: [texture],
                 metadata: SceneMetadata(upAxis: .z, metersPerUnit: 0.01, sourceFormat: .usda, defaultPrim: "House"))
}

@Suite struct AssetInfoTests {
    let result = ReadResult(scene: handBuiltScene(), diagnostics: [.warning("skipped Foo", at: SourceLocation(file: "h.usda", line: 4, column: 1))])

    @Test func figuresFollowTheContract() {
        let info = AssetInfo(file: "h.usda", result: result)
        #expect(info.format == .usda)
        #expect(info.upAxis == .z)
        #expect(info.metersPerUnit == 0.01)
        #expect(info.nodes == 4)
        #expect(info.meshes == 3)
        #expect(info.points == 4 + 4 + 6)
        #expect(info.faces == 1 + 1 + 2)
        #expect(info.triangles == 2 + 2 + 4)
        #expect(info.materials == 1)
        #expect(info.textures == 1)
        #expect(info.bounds == BoundsReport(Bounds3(min: [-3, 0, 0], max: [5, 5, 10])))
        #expect(info.boundsInMeters == BoundsReport(Bounds3(min: [-0.03, 0, 0], max: [0.05, 0.05, 0.1])))
        #expect(info.warnings == ["h.usda:4:1: skipped Foo"])
    }

    @Test func jsonHasEveryContractKey() throws {
        let data = try JSONEncoder().encode(AssetInfo(file: "h.usda", result: result))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for key in ["format", "upAxis", "metersPerUnit", "nodes", "meshes", "points", "faces", "triangles",
                    "materials", "textures", "bounds", "warnings"] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(object["upAxis"] as? String == "Z")
        #expect(object["triangles"] as? Int == 8)
        let bounds = try #require(object["bounds"] as? [String: [Double]])
        #expect(bounds["min"] == [-3, 0, 0])
        #expect(bounds["max"] == [5, 5, 10])
        #expect(object["warnings"] as? [String] == ["h.usda:4:1: skipped Foo"])
    }

    @Test func emptySceneHasNullBounds() throws {
        let info = AssetInfo(file: "e.usda", result: ReadResult(scene: Scene()))
        let text = String(decoding: try JSONEncoder().encode(info), as: UTF8.self)
        #expect(text.contains("\"bounds\":null"))
        #expect(info.nodes == 0)
        #expect(info.meshes == 0)
    }

    @Test func textFormShowsFiguresAndWarnings() {
        let text = InfoTextFormatter.format(AssetInfo(file: "h.usda", result: result))
        #expect(text.contains("up axis     Z, 0.01 m per unit"))
        #expect(text.contains("meshes      3  (points 14, faces 4, triangles 8)"))
        #expect(text.contains("min (-3, 0, 0)  max (5, 5, 10)"))
        #expect(text.contains("    - h.usda:4:1: skipped Foo"))
        #expect(InfoTextFormatter.grouped(1_234_567) == "1,234,567")
        #expect(InfoTextFormatter.grouped(999) == "999")
    }

    @Test func treeShowsHierarchyAndInstances() {
        let tree = SceneTreeFormatter.format(handBuiltScene())
        #expect(tree == """
            └─ House [Xform]
               ├─ Left [Mesh]  — mesh Quad: 4 points, 2 triangles, material Brick
               ├─ Right [Mesh]  — mesh Quad: 4 points, 2 triangles, material Brick
               └─ Top [Mesh]  — mesh Roof: 6 points, 4 triangles
            """)
    }
}

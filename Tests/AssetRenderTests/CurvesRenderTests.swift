import AssetCore
import Testing
@testable import AssetRender

/// Curves are drawn one pixel wide, in their material's colour, in front of what they lie on, and
/// a curves-only scene is framed like any other.
@Suite struct CurvesRenderTests {
    static func scene(_ curves: Curves, material: Material? = nil, behind mesh: Mesh? = nil) -> Scene {
        var scene = Scene()
        var node = Node(name: "Lines")
        node.curvesInstances = [CurvesInstance(curves: 0, material: material == nil ? nil : 0)]
        scene.curves = [curves]
        scene.materials = material.map { [$0] } ?? []
        if let mesh {
            scene.meshes = [mesh]
            scene.root.children.append(Node(name: "Wall", meshInstances: [MeshInstance(mesh: 0)]))
        }
        scene.root.children.append(node)
        return scene
    }

    /// Pixels in column x that something covers.
    static func covered(_ image: RGBAImage, column x: Int) -> [Int] {
        (0..<image.height).filter { image[x, $0].w > 0 }
    }

    @Test func aLineIsOnePixelWideAtEverySupersampling() throws {
        let line = Curves(name: "L", points: [[-1, 0.1, 0], [1, 0.3, 0]], curveVertexCounts: [2])
        let camera = RenderCamera(position: [0, 0, 3], target: .zero, near: 0.1, far: 10)
        for supersample in [1, 2, 4] {
            let image = try Renderer.render(Self.scene(line), options: RenderScenes.options(camera: camera, size: 64, supersample: supersample)).image
            for x in stride(from: 16, to: 48, by: 4) {  // the line spans about x = 14...50
                let rows = Self.covered(image, column: x)
                #expect(rows.count == 1, "supersample \(supersample), column \(x): \(rows)")
                #expect(image[x, rows.first ?? 0].w == 255, "a line pixel is fully covered")
            }
            // Rising to the right on screen: rows decrease as x grows.
            #expect(Self.covered(image, column: 46).first! < Self.covered(image, column: 18).first!)
        }
    }

    @Test func linesTakeTheirMaterialsColourAndDrawOverTheSurfaceTheyLieOn() throws {
        let wall = Mesh(name: "Wall", points: [[-2, -2, 0], [2, -2, 0], [2, 2, 0], [-2, 2, 0]], faceVertexCounts: [4], faceVertexIndices: [0, 1, 2, 3])
        let cross = Curves(name: "X", points: [[-1, 0, 0], [1, 0, 0], [0, -1, 0], [0, 1, 0]], curveVertexCounts: [2, 2])
        var red = Material(name: "Red")
        red.baseColor = MaterialProperty(SIMD3(1, 0, 0))
        let camera = RenderCamera(position: [0, 0, 3], target: .zero, near: 0.1, far: 10)
        let image = try Renderer.render(Self.scene(cross, material: red, behind: wall),
                                        options: RenderScenes.options(camera: camera, size: 64, supersample: 2)).image
        let onLine = image[16, 32], offLine = image[16, 20]
        #expect(onLine.x == 255 && onLine.y == 0 && onLine.z == 0, "\(onLine)")
        #expect(offLine.x == offLine.y, "the wall around the line stays grey: \(offLine)")
    }

    @Test func aCurvesOnlySceneIsFramed() throws {
        let far = Curves(name: "Far", points: [[100, 100, 100], [110, 100, 100], [110, 110, 100]], curveVertexCounts: [3])
        let result = try Renderer.render(Self.scene(far), options: RenderScenes.options(size: 64, supersample: 2))
        let drawn = (0..<64).flatMap { x in Self.covered(result.image, column: x) }
        #expect(drawn.count > 20, "both segments are in view")
    }
}

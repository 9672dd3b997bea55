import AssetCore
import AssetImage
import Foundation
import Testing
@testable import AssetRender

/// Scenes built by hand whose images can be worked out on paper.
enum RenderScenes {
    static func box(_ lo: SIMD3<Float>, _ hi: SIMD3<Float>) -> Mesh {
        var points: [SIMD3<Float>] = []
        for i in 0..<8 { points.append(SIMD3(i & 1 == 0 ? lo.x : hi.x, i & 2 == 0 ? lo.y : hi.y, i & 4 == 0 ? lo.z : hi.z)) }
        return Mesh(name: "Box", points: points, faceVertexCounts: Array(repeating: 4, count: 6),
                    faceVertexIndices: [0, 2, 3, 1, 4, 5, 7, 6, 0, 1, 5, 4, 2, 6, 7, 3, 0, 4, 6, 2, 1, 3, 7, 5])
    }

    static func scene(_ meshes: [Mesh], materials: [Material] = [], textures: [Texture] = [], upAxis: UpAxis = .y) -> Scene {
        let nodes = meshes.indices.map { Node(name: "N\($0)", meshInstances: [MeshInstance(mesh: $0, material: materials.isEmpty ? nil : 0)]) }
        return Scene(root: Node(name: "", children: nodes), meshes: meshes, materials: materials, textures: textures,
                     metadata: SceneMetadata(upAxis: upAxis))
    }

    static func options(camera: RenderCamera? = nil, size: Int = 256, supersample: Int = 4) -> RenderOptions {
        var o = RenderOptions()
        o.size = size
        o.supersample = supersample
        o.camera = camera
        return o
    }

    /// Covered pixels, counting partial coverage by alpha.
    static func coverage(_ image: RGBAImage) -> Double {
        stride(from: 3, to: image.pixels.count, by: 4).reduce(0.0) { $0 + Double(image.pixels[$1]) / 255 }
    }
}

@Suite struct RendererTests {
    /// Drawing reads separately indexed attributes per corner; the image must be the one the same
    /// mesh gives once unwelded into plain per-vertex buffers.
    @Test func perCornerAttributesDrawLikeTheUnweldedMesh() throws {
        var mesh = RenderScenes.box([-1, -1, -1], [1, 1, 1])
        let corners = mesh.faceVertexIndices.count
        // Flat normals per face and a colour per corner, each indexed in its own order.
        let faceNormals: [SIMD3<Float>] = [[0, 0, -1], [0, 0, 1], [0, -1, 0], [0, 1, 0], [-1, 0, 0], [1, 0, 0]]
        let colors: [SIMD3<Float>] = (0..<7).map { SIMD3(Float($0) / 6, 1 - Float($0) / 6, 0.5) }
        mesh.primvars = [
            Primvar(name: Primvar.normalsName, interpolation: .faceVarying, values: .float3(faceNormals),
                    indices: (0..<corners).map { Int32($0 / 4) }, role: .normal),
            Primvar(name: Primvar.displayColorName, interpolation: .faceVarying, values: .float3(colors),
                    indices: (0..<corners).map { Int32(($0 * 3) % 7) }, role: .color),
        ]
        let unwelded = mesh.unwelded(corners: (0..<UInt32(corners)).map { $0 })
        let plain = Mesh(name: "Plain", points: unwelded.positions, faceVertexCounts: mesh.faceVertexCounts,
                         faceVertexIndices: unwelded.indices.map { Int32($0) },
                         primvars: [Primvar(name: Primvar.normalsName, interpolation: .vertex, values: .float3(unwelded.normals ?? []), role: .normal),
                                    Primvar(name: Primvar.displayColorName, interpolation: .vertex, values: .float4(unwelded.colors ?? []), role: .color)])
        #expect(plain.points.count > mesh.points.count, "the fixture must need unwelding")
        let options = RenderScenes.options(size: 64, supersample: 2)
        let direct = try Renderer.render(RenderScenes.scene([mesh]), options: options)
        let viaUnwelded = try Renderer.render(RenderScenes.scene([plain]), options: options)
        #expect(RenderScenes.coverage(direct.image) > 100)
        #expect(direct.image.pixels == viaUnwelded.image.pixels)
    }

    @Test func supersamplingIsLoweredToFitTheSampleBudget() throws {
        #expect(Renderer.grid(size: 256, supersample: 2) == 2)
        #expect(Renderer.grid(size: 4096, supersample: 2) == 2, "4096² x 4 is exactly the budget")
        #expect(Renderer.grid(size: 4096, supersample: 8) == 2)
        #expect(Renderer.grid(size: 8192, supersample: 8) == 1)
        #expect(Renderer.grid(size: 64, supersample: 99) == Renderer.maxSupersample)
        for size in [1, 100, 3000, 5000, Renderer.maxSize] {
            let grid = Renderer.grid(size: size, supersample: Renderer.maxSupersample)
            #expect(size * size * grid * grid <= Renderer.maxSamples)
        }
    }

    @Test func unitCubeCoversTheAreaWorkedOutByHand() throws {
        let camera = RenderCamera(position: [0, 0, 3], target: .zero, verticalFieldOfView: 60, near: 0.1, far: 10)
        let image = try Renderer.render(RenderScenes.scene([RenderScenes.box([-0.5, -0.5, -0.5], [0.5, 0.5, 0.5])]),
                                    options: RenderScenes.options(camera: camera)).image
        // The front face, 2.5 from the eye, spans 0.5 / (2.5 tan 30°) of the half-height: the
        // silhouette is a square of side 256 * that, the side faces hidden inside it.
        let side = 256 * 0.5 / (2.5 * tan(Double.pi / 6))
        let covered = RenderScenes.coverage(image)
        #expect(abs(covered - side * side) < side * 4 * 0.5, "covered \(covered) px, expected \(side * side)")
        #expect(image[128, 128].w == 255)
        #expect(image[5, 5].w == 0)
    }

    @Test func planeSeenEdgeOnCoversNothing() throws {
        let plane = Mesh(name: "Plane", points: [[-1, 0, -1], [1, 0, -1], [1, 0, 1], [-1, 0, 1]],
                         faceVertexCounts: [4], faceVertexIndices: [0, 1, 2, 3])
        let camera = RenderCamera(position: [0, 0, 3], target: .zero, near: 0.1, far: 10)
        let image = try Renderer.render(RenderScenes.scene([plane]), options: RenderScenes.options(camera: camera)).image
        #expect(RenderScenes.coverage(image) == 0)
    }

    @Test func texturedQuadShowsItsTextureCornersWhereExpected() throws {
        // A 2x2 texture: red top-left, green top-right, blue bottom-left, white bottom-right.
        let texels: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]
        let png = try PNGCodec.encode(RGBAImage(width: 2, height: 2, pixels: texels))
        var quad = Mesh(name: "Quad", points: [[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], faceVertexCounts: [4], faceVertexIndices: [0, 1, 2, 3])
        quad.primvars = [Primvar(name: "st", interpolation: .vertex, values: .float2([[0, 0], [1, 0], [1, 1], [0, 1]]), role: .textureCoordinate)]
        var material = Material(name: "Tex", roughness: .init(1))
        material.baseColor = MaterialProperty(SIMD3(0.5, 0.5, 0.5), texture: TextureReference(texture: 0))
        let texture = Texture(name: "t", source: .embedded(bytes: png, mimeType: "image/png"), wrapS: .clamp, wrapT: .clamp)
        var options = RenderScenes.options(camera: RenderCamera(position: [0, 0, 4], target: .zero, near: 0.1, far: 10))
        options.textureBytes = { _ in png }
        let image = try Renderer.render(RenderScenes.scene([quad], materials: [material], textures: [texture]), options: options).image
        // The quad reaches 128 * 1/(4 tan 30°) ≈ 55 px from the centre each way; sample inside its corners.
        func dominant(_ pixel: SIMD4<UInt8>) -> String {
            let (r, g, b) = (Int(pixel.x), Int(pixel.y), Int(pixel.z))
            if r > 200 && g > 200 && b > 200 { return "white" }
            if r > max(g, b) + 60 { return "red" }
            if g > max(r, b) + 60 { return "green" }
            if b > max(r, g) + 60 { return "blue" }
            return "mixed \(pixel)"
        }
        #expect(dominant(image[128 - 45, 128 - 45]) == "red")
        #expect(dominant(image[128 + 45, 128 - 45]) == "green")
        #expect(dominant(image[128 - 45, 128 + 45]) == "blue")
        #expect(dominant(image[128 + 45, 128 + 45]) == "white")
    }

    @Test func geometryCrossingTheNearPlaneIsClippedNotLost() throws {
        // A long floor under the eye, from behind the camera to far ahead.
        let floor = Mesh(name: "Floor", points: [[-50, -1, 50], [50, -1, 50], [50, -1, -50], [-50, -1, -50]],
                         faceVertexCounts: [4], faceVertexIndices: [0, 1, 2, 3])
        let camera = RenderCamera(position: .zero, target: [0, 0, -1], near: 0.1, far: 200)
        let image = try Renderer.render(RenderScenes.scene([floor]), options: RenderScenes.options(camera: camera, size: 64, supersample: 2)).image
        #expect(image[32, 63].w == 255, "the floor fills the bottom of the view")
        #expect(image[32, 0].w == 0, "nothing above the horizon")
    }

    @Test func zUpModelsStandUpright() throws {
        let post = RenderScenes.box([-0.2, -0.2, 0], [0.2, 0.2, 3])
        var options = RenderScenes.options(size: 64, supersample: 1)
        options.view = .front
        let image = try Renderer.render(RenderScenes.scene([post], upAxis: .z), options: options).image
        var rows = Set<Int>(), columns = Set<Int>()
        for y in 0..<64 { for x in 0..<64 where image[x, y].w > 0 { rows.insert(y); columns.insert(x) } }
        #expect(rows.count > 3 * columns.count, "a post along +Z stands tall in a Z-up file (\(rows.count) x \(columns.count))")
    }

    @Test func missingTextureRendersInTheConstantColourWithAWarning() throws {
        let quad = Mesh(name: "Quad", points: [[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], faceVertexCounts: [4], faceVertexIndices: [0, 1, 2, 3])
        var material = Material(name: "Lost", roughness: .init(1))  // no highlight: the centre shows the base colour
        material.baseColor = MaterialProperty(SIMD3(0, 0.8, 0), texture: TextureReference(texture: 0))
        let texture = Texture(name: "gone.png", source: .file(authoredPath: "gone.png", resolvedPath: nil))
        let result = try Renderer.render(RenderScenes.scene([quad], materials: [material], textures: [texture]),
                                     options: RenderScenes.options(camera: RenderCamera(position: [0, 0, 3], target: .zero, near: 0.1, far: 10)))
        let centre = result.image[128, 128]
        #expect(centre.y > 150 && centre.x < 60 && centre.z < 60, "green, not black: \(centre)")
        #expect(result.diagnostics.contains { $0.message.contains("gone.png is missing") })
    }

    @Test func sameSceneSameBytes() throws {
        let scene = RenderScenes.scene([RenderScenes.box([-1, 0, -1], [1, 2, 1]), RenderScenes.box([2, 0, 0], [3, 1, 1])])
        let a = try PNGCodec.encode(Renderer.render(scene, options: RenderScenes.options()).image)
        let b = try PNGCodec.encode(Renderer.render(scene, options: RenderScenes.options()).image)
        #expect(a == b)
        let rendered = try Renderer.render(scene, options: RenderScenes.options()).image
        #expect(try PNGCodec.decode(a) == rendered, "PNG round trip is lossless")
    }
}

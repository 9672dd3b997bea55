import AssetCore
import Testing

@testable import AssetRender

/// Opaque fragments shaded after the opaque pass, once a sample, give the picture shading every
/// fragment as it is drawn gives, bit for bit: overlapping triangles drawn in any order,
/// cut-outs (shaded as drawn) in between, blended ones over them, every supersampling, both looks.
@Suite struct DeferredShadingTests {
    struct Random {
        var state: UInt64
        mutating func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24)
        }
    }

    /// `count` triangles crossing each other about the origin, with normals and vertex colours
    /// whose alpha the cut-out material tests.
    static func soup(_ count: Int, seed: UInt64) -> Mesh {
        var random = Random(state: seed)
        var points: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = [], colours: [SIMD4<Float>] = []
        for _ in 0..<(3 * count) {
            let p = SIMD3(random.next() - 0.5, random.next() - 0.5, random.next() - 0.5) * 2
            points.append(p)
            let n = SIMD3(random.next() - 0.5, random.next() - 0.5, 1)
            normals.append(n / (n * n).sum().squareRoot())
            colours.append(SIMD4(random.next(), random.next(), random.next(), random.next()))
        }
        return Mesh(name: "Soup", points: points, faceVertexCounts: [Int32](repeating: 3, count: count),
                    faceVertexIndices: (0..<Int32(3 * count)).map { $0 },
                    primvars: [Primvar(name: Primvar.normalsName, interpolation: .vertex, values: .float3(normals), role: .normal),
                               Primvar(name: Primvar.displayColorName, interpolation: .vertex, values: .float4(colours), role: .color)])
    }

    static func scene() -> Scene {
        var opaque = Material(name: "Opaque", baseColor: .init(SIMD3(0.8, 0.3, 0.2)), metallic: .init(0.3), roughness: .init(0.4))
        opaque.baseColorFromVertexColor = true
        var mask = Material(name: "Mask", baseColor: .init(SIMD3(0.2, 0.7, 0.3)), opacityThreshold: 0.5, isDoubleSided: true)
        mask.alphaMode = .mask
        mask.baseColorFromVertexColor = true
        var blend = Material(name: "Blend", baseColor: .init(SIMD3(0.1, 0.2, 0.9)), opacity: .init(0.5))
        blend.alphaMode = .blend
        let meshes = [soup(400, seed: 1), soup(300, seed: 2), soup(100, seed: 3), soup(500, seed: 4)]
        let nodes = [
            Node(name: "A", meshInstances: [MeshInstance(mesh: 0, material: 0)]),
            Node(name: "B", meshInstances: [MeshInstance(mesh: 1, material: 1)]),
            Node(name: "C", meshInstances: [MeshInstance(mesh: 2, material: 2)]),
            // A second placement of the first mesh, turned and moved, and an unbound mesh.
            Node(name: "D", transform: .rotation(axis: [0, 1, 0], degrees: 40) * .translation([0.2, 0.1, 0.3]), meshInstances: [MeshInstance(mesh: 0, material: 0)]),
            Node(name: "E", meshInstances: [MeshInstance(mesh: 3)]),
        ]
        return Scene(root: Node(name: "", children: nodes), meshes: meshes, materials: [opaque, mask, blend], metadata: SceneMetadata(upAxis: .y))
    }

    @Test(arguments: [(1, Lighting.environment), (2, .environment), (3, .environment), (2, .headlight)])
    func deferredShadingDrawsWhatShadingAsDrawnDraws(grid: Int, lighting: Lighting) throws {
        var options = RenderOptions()
        options.size = 96
        options.supersample = grid
        options.lighting = lighting
        let scene = Self.scene()
        let deferred = try Renderer.render(scene, options: options, defersShading: true).image
        let immediate = try Renderer.render(scene, options: options, defersShading: false).image
        let differing = zip(deferred.pixels, immediate.pixels).filter { $0 != $1 }.count
        #expect(deferred.pixels.count == immediate.pixels.count && differing == 0, "\(differing) bytes differ")
        #expect(deferred.pixels.enumerated().contains { $0.offset % 4 == 3 && $0.element == 255 }, "the soup covers pixels")
    }
}

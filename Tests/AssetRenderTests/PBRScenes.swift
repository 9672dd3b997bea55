#if canImport(Glibc)
import AssetImage
import Glibc
#endif
import AssetCore
import AssetKit
@testable import AssetRender

/// Spheres, planes and environments whose lit pictures can be worked out on paper.
enum PBRScenes {
    /// A UV sphere of radius 1 with outward normals and st, the one the material swatches draw.
    static func sphere(segments: Int = 64, rings: Int = 32) -> Mesh {
        let (points, counts, indices, st) = MaterialSwatches.sphere(segments: segments, rings: rings)
        return Mesh(name: "Sphere", points: points, faceVertexCounts: counts, faceVertexIndices: indices,
                    primvars: [Primvar(name: Primvar.normalsName, interpolation: .vertex, values: .float3(points), role: .normal),
                               Primvar(name: "st", interpolation: .vertex, values: .float2(st), role: .textureCoordinate)])
    }

    /// A square in z = `z` facing +Z, st running along +X and +Y (or -X when `mirrored`).
    static func quad(size: Float = 1, z: Float = 0, mirrored: Bool = false, colors: [SIMD4<Float>]? = nil) -> Mesh {
        let h = size / 2
        let points: [SIMD3<Float>] = [[-h, -h, z], [h, -h, z], [h, h, z], [-h, h, z]]
        let s: [Float] = mirrored ? [1, 0, 0, 1] : [0, 1, 1, 0]
        var primvars = [Primvar(name: Primvar.normalsName, interpolation: .vertex, values: .float3(Array(repeating: [0, 0, 1], count: 4)), role: .normal),
                        Primvar(name: "st", interpolation: .vertex, values: .float2([[s[0], 0], [s[1], 0], [s[2], 1], [s[3], 1]]), role: .textureCoordinate)]
        if let colors {
            primvars.append(Primvar(name: Primvar.displayColorName, interpolation: .vertex, values: .float4(colors), role: .color))
        }
        return Mesh(name: "Quad", points: points, faceVertexCounts: [4], faceVertexIndices: [0, 1, 2, 3], primvars: primvars)
    }

    static func scene(_ meshes: [Mesh], materials: [Material], textures: [Texture] = [], upAxis: UpAxis = .y) -> Scene {
        let nodes = meshes.indices.map { Node(name: "N\($0)", meshInstances: [MeshInstance(mesh: $0, material: min($0, materials.count - 1))]) }
        return Scene(root: Node(name: "", children: nodes), meshes: meshes, materials: materials, textures: textures,
                     metadata: SceneMetadata(upAxis: upAxis))
    }

    /// Looking down -Z from `distance` on +Z, the unit sphere filling most of the picture.
    static func options(environment: PrefilteredEnvironment?, size: Int = 64, distance: Double = 4, toneMapping: ToneMapping = .none) -> RenderOptions {
        var o = RenderOptions()
        o.size = size
        o.supersample = 1
        o.camera = RenderCamera(position: [0, 0, distance], target: .zero, verticalFieldOfView: 35)
        o.environment = environment
        o.toneMapping = toneMapping
        return o
    }

    /// An environment of `base` radiance with `spots`: small discs of colour around directions.
    static func environment(base: SIMD3<Float> = .zero, spots: [(SIMD3<Float>, SIMD3<Float>)] = [], width: Int = 256,
                            radiusDegrees: Float = 8, where custom: ((SIMD3<Float>) -> SIMD3<Float>?)? = nil) -> HDRImage {
        let height = width / 2
        var texels = [Float](repeating: 0, count: width * height * 3)
        let limit = cosf(radiusDegrees * .pi / 180)
        for y in 0..<height {
            for x in 0..<width {
                let d = HDRImage.direction(x: Double(x) + 0.5, y: Double(y) + 0.5, width: width, height: height)
                var c = custom?(d) ?? base
                for (direction, color) in spots where (direction * d).sum() > limit { c = color }
                let o = (y * width + x) * 3
                texels[o] = c.x; texels[o + 1] = c.y; texels[o + 2] = c.z
            }
        }
        return HDRImage(width: width, height: height, texels: texels)
    }

    /// Linear RGB of a pixel of an sRGB picture.
    static func linear(_ image: RGBAImage, _ x: Int, _ y: Int) -> SIMD3<Float> {
        let p = image[x, y]
        return SIMD3(ColorSpace.toLinear(Float(p.x) / 255), ColorSpace.toLinear(Float(p.y) / 255), ColorSpace.toLinear(Float(p.z) / 255))
    }

    /// Pixels whose coverage is whole.
    static func covered(_ image: RGBAImage) -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        for y in 0..<image.height { for x in 0..<image.width where image[x, y].w == 255 { out.append((x, y)) } }
        return out
    }
}

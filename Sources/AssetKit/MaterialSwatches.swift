import AssetCore
import AssetRender
import Foundation

/// One picture of a scene's materials, for pages that list them: each material on a small lit
/// sphere, in a grid read row by row, so a page shows material k by offsetting the picture
/// (a CSS sprite) without a request per material. Drawn by the thumbnail renderer with the scene's
/// own textures and the thumbnails' look (environment, tone mapping), so a swatch is shaded as
/// the thumbnails shade the material.
public enum MaterialSwatches {
    /// Past this many, materials are listed without a swatch: the picture stays one small request.
    public static let maxCount = 64

    /// Squares per row for `count` materials (the grid is square).
    public static func columns(count: Int) -> Int {
        let shown = min(max(count, 1), maxCount)
        var columns = 1
        while columns * columns < shown { columns += 1 }
        return columns
    }

    /// Where material `index`'s square starts in the picture, in cells.
    public static func cell(_ index: Int, count: Int) -> (column: Int, row: Int) {
        let columns = columns(count: count)
        return (index % columns, index / columns)
    }

    /// The scene the swatches are drawn from: a small sphere per material (up to `maxCount`), lit
    /// as thumbnails are, so metal, roughness, coats and normal maps show; texture coordinates wrap
    /// the whole texture once around, the scene's materials and textures unchanged.
    static func grid(of scene: Scene) -> Scene {
        let count = min(scene.materials.count, maxCount)
        let columns = columns(count: count)
        let radius: Float = 0.42
        let (unitPoints, faceVertexCounts, faceVertexIndices, st) = sphere(segments: 32, rings: 16)
        var meshes: [Mesh] = []
        var nodes: [Node] = []
        for index in 0..<count {
            let (column, row) = cell(index, count: count)
            let centre = SIMD3<Float>(Float(column) + 0.5, Float(columns - 1 - row) + 0.5, 0)
            // Named as the material's lookup asks, though the renderer falls back to the first set.
            let set = scene.materials[index].baseColor.texture?.texcoordSet ?? "st"
            meshes.append(Mesh(name: "Swatch\(index)", points: unitPoints.map { centre + $0 * radius }, faceVertexCounts: faceVertexCounts,
                               faceVertexIndices: faceVertexIndices,
                               primvars: [Primvar(name: set, interpolation: .vertex, values: .float2(st), role: .textureCoordinate),
                                          Primvar(name: Primvar.normalsName, interpolation: .vertex, values: .float3(unitPoints), role: .normal)]))
            nodes.append(Node(name: "Swatch\(index)", meshInstances: [MeshInstance(mesh: index, material: index)]))
        }
        return Scene(root: Node(name: "", children: nodes), meshes: meshes, materials: scene.materials, textures: scene.textures,
                     metadata: SceneMetadata(upAxis: .y))
    }

    /// A unit UV sphere facing +Z at s = 0.5, wound outward.
    package static func sphere(segments: Int, rings: Int) -> ([SIMD3<Float>], [Int32], [Int32], [SIMD2<Float>]) {
        var points: [SIMD3<Float>] = [], st: [SIMD2<Float>] = []
        for r in 0...rings {
            let theta = Double(r) / Double(rings) * .pi
            for k in 0...segments {
                let phi = Double(k) / Double(segments) * 2 * .pi - .pi / 2
                points.append(SIMD3(Float(sin(theta) * cos(phi)), Float(cos(theta)), Float(-sin(theta) * sin(phi))))
                st.append(SIMD2(Float(k) / Float(segments), 1 - Float(r) / Float(rings)))
            }
        }
        var counts: [Int32] = [], indices: [Int32] = []
        let row = segments + 1
        for r in 0..<rings {
            for k in 0..<segments {
                let a = Int32(r * row + k), b = Int32((r + 1) * row + k)
                counts.append(4)
                indices += [a, b, b + 1, a + 1]
            }
        }
        return (points, counts, indices, st)
    }

    /// The swatches of `scene`'s materials as a PNG, `cellSize` pixels a square; nil for a scene
    /// without materials. Textures are found as `thumbnails` finds them (its read options' root
    /// and limits); one that cannot be read leaves its swatch in the constant colour.
    public static func png(of scene: Scene, cellSize: Int, thumbnails: ThumbnailUseCase) throws(AssetError) -> [UInt8]? {
        guard !scene.materials.isEmpty else { return nil }
        let columns = columns(count: scene.materials.count)
        let middle = Double(columns) / 2
        var use = thumbnails
        // The cells' centres lie in one plane facing the camera: the grid fills the picture exactly
        // when the field's half-height at the distance `columns` is half the grid.
        use.render.camera = RenderCamera(position: [middle, middle, Double(columns)], target: [middle, middle, 0],
                                         verticalFieldOfView: 2 * atan(0.5) * 180 / .pi)
        use.render.size = cellSize * columns
        use.render.background = nil
        return try use.png(for: grid(of: scene)).bytes
    }
}

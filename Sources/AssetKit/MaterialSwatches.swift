import AssetCore
import AssetRender
import Foundation

/// One picture of a scene's materials, for pages that list them: each material on a square facing
/// the camera, in a grid read row by row, so a page shows material k by offsetting the picture
/// (a CSS sprite) without a request per material. Drawn by the thumbnail renderer with the scene's
/// own textures, so a swatch is the base colour, or the texture times it, as the thumbnails shade it.
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

    /// The scene the swatches are drawn from: a unit square per material (up to `maxCount`), with
    /// texture coordinates over the whole texture, the scene's materials and textures unchanged.
    static func grid(of scene: Scene) -> Scene {
        let count = min(scene.materials.count, maxCount)
        let columns = columns(count: count)
        let inset: Float = 0.06
        var meshes: [Mesh] = []
        var nodes: [Node] = []
        for index in 0..<count {
            let (column, row) = cell(index, count: count)
            let x = Float(column), y = Float(columns - 1 - row)
            let corners: [SIMD2<Float>] = [[0, 0], [1, 0], [1, 1], [0, 1]]
            let points = corners.map { SIMD3(x + inset + $0.x * (1 - 2 * inset), y + inset + $0.y * (1 - 2 * inset), 0) }
            // Named as the material's lookup asks, though the renderer falls back to the first set.
            let set = scene.materials[index].baseColor.texture?.texcoordSet ?? "st"
            meshes.append(Mesh(name: "Swatch\(index)", points: points, faceVertexCounts: [4], faceVertexIndices: [0, 1, 2, 3],
                               primvars: [Primvar(name: set, interpolation: .vertex, values: .float2(corners), role: .textureCoordinate),
                                          Primvar(name: Primvar.normalsName, interpolation: .vertex,
                                                  values: .float3(Array(repeating: [0, 0, 1], count: 4)), role: .normal)]))
            nodes.append(Node(name: "Swatch\(index)", meshInstances: [MeshInstance(mesh: index, material: index)]))
        }
        return Scene(root: Node(name: "", children: nodes), meshes: meshes, materials: scene.materials, textures: scene.textures,
                     metadata: SceneMetadata(upAxis: .y))
    }

    /// The swatches of `scene`'s materials as a PNG, `cellSize` pixels a square; nil for a scene
    /// without materials. Textures are found as `thumbnails` finds them (its read options' root
    /// and limits); one that cannot be read leaves its swatch in the constant colour.
    public static func png(of scene: Scene, cellSize: Int, thumbnails: ThumbnailUseCase) throws(AssetError) -> [UInt8]? {
        guard !scene.materials.isEmpty else { return nil }
        let columns = columns(count: scene.materials.count)
        let middle = Double(columns) / 2
        var use = thumbnails
        // Squares in one plane facing the camera project by one scale: the grid fills the picture
        // exactly when the field's half-height at the distance `columns` is half the grid.
        use.render.camera = RenderCamera(position: [middle, middle, Double(columns)], target: [middle, middle, 0],
                                         verticalFieldOfView: 2 * atan(0.5) * 180 / .pi)
        use.render.size = cellSize * columns
        use.render.background = nil
        return try use.png(for: grid(of: scene)).bytes
    }
}

import AssetCore
import AssetImage
import AssetKit
import AssetPipeline
import Foundation
import Testing
@testable import AssetRender

/// The swatch picture the asset page shows beside material names: a lit sphere per material in a
/// grid, in the material's colour or texture, where `MaterialSwatches.cell` says it is.
@Suite struct MaterialSwatchesTests {
    static func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> SIMD4<Int> {
        let i = 4 * (y * image.width + x)
        return SIMD4(Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]), Int(image.pixels[i + 3]))
    }

    @Test func gridColumnsCoverTheShownMaterials() {
        #expect(MaterialSwatches.columns(count: 1) == 1)
        #expect(MaterialSwatches.columns(count: 2) == 2)
        #expect(MaterialSwatches.columns(count: 4) == 2)
        #expect(MaterialSwatches.columns(count: 5) == 3)
        #expect(MaterialSwatches.columns(count: 64) == 8)
        #expect(MaterialSwatches.columns(count: 1000) == 8, "past the cap the grid stops growing")
        #expect(MaterialSwatches.cell(4, count: 5) == (1, 1))
    }

    /// Five constant colours: each sphere holds its own colour where the layout puts it, the
    /// gaps between spheres and the unused cells are clear.
    @Test func eachMaterialIsItsColourInItsCell() throws {
        let colours: [SIMD3<Float>] = [[0.8, 0.05, 0.05], [0.05, 0.8, 0.05], [0.05, 0.05, 0.8], [0.8, 0.8, 0.05], [0.05, 0.8, 0.8]]
        let materials = colours.enumerated().map { Material(name: "M\($0.offset)", baseColor: .init($0.element), roughness: .init(1)) }
        let scene = Scene(root: Node(name: ""), materials: materials)
        let cell = 16
        let png = try #require(try MaterialSwatches.png(of: scene, cellSize: cell, thumbnails: ThumbnailUseCase()))
        let image = try PNGCodec.decode(png)
        #expect(image.width == 3 * cell && image.height == 3 * cell)
        for (index, colour) in colours.enumerated() {
            let (column, row) = MaterialSwatches.cell(index, count: colours.count)
            let centre = Self.pixel(image, column * cell + cell / 2, row * cell + cell / 2)
            #expect(centre.w == 255)
            // The strongest channels of the colour are the strongest in the square.
            let strong = (0..<3).filter { colour[$0] > 0.5 }, weak = (0..<3).filter { colour[$0] < 0.5 }
            #expect(strong.allSatisfy { s in weak.allSatisfy { centre[s] > centre[$0] + 80 } }, "material \(index) is \(centre)")
            #expect(Self.pixel(image, column * cell, row * cell).w == 0, "the corner of cell \(index) is a gap")
        }
        #expect(Self.pixel(image, 2 * cell + cell / 2, 2 * cell + cell / 2).w == 0, "no sixth material")
        #expect(try MaterialSwatches.png(of: Scene(root: Node(name: "")), cellSize: cell, thumbnails: ThumbnailUseCase()) == nil)
    }

    /// The sample head's clay is a paper texture and its ink a constant colour: the first sphere
    /// shows the texture's grain from texel to texel, the second only the light's smooth change.
    @Test func aTexturedMaterialShowsItsTexture() throws {
        let file = GoldenImageTests.repository.appendingPathComponent("Assets/SceneKitAssetCatalog.scnassets/LoomisHead.usdz")
        let use = ThumbnailUseCase()
        let scene = try use.scene(at: file.path)
        #expect(scene.materials.map(\.name) == ["Clay", "Ink"])
        let image = try PNGCodec.decode(try #require(try MaterialSwatches.png(of: scene, cellSize: 32, thumbnails: use)))
        // Mean difference between neighbours: light changes slowly over a sphere, texture grain does not.
        func grain(column: Int) -> Double {
            var sum = 0, count = 0
            for y in 10..<22 { for x in (column * 32 + 10)..<(column * 32 + 22) { sum += abs(Self.pixel(image, x + 1, y).x - Self.pixel(image, x, y).x); count += 1 } }
            return Double(sum) / Double(count)
        }
        #expect(grain(column: 0) > 2 * grain(column: 1) + 1, "the paper's grain and lines show: \(grain(column: 0)) against \(grain(column: 1))")
        #expect(grain(column: 1) < 4, "the ink is one colour, but for its light: \(grain(column: 1))")
    }
}

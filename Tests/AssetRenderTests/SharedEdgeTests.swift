import AssetCore
import Testing
@testable import AssetRender

@Suite struct SharedEdgeTests {
    /// Squares split along a diagonal, each filling the picture exactly, off the origin and at
    /// sizes whose corners round differently: where the diagonal passes a sample, the sample must
    /// go to one triangle or the other, never to neither (a crack of see-through dots).
    @Test(arguments: [1, 2, 4])
    func aDiagonalThroughSamplesLeavesNoCrack(supersample: Int) throws {
        for (offset, side) in [(Float(0), Float(2)), (1.06, 0.88), (3.06, 0.88), (-7.3, 0.37), (12.5, 3.1)] {
            for indices: [Int32] in [[0, 1, 2, 3], [1, 2, 3, 0]] {
                let lo = offset, hi = offset + side
                let square = Mesh(name: "Square", points: [[lo, lo, 0], [hi, lo, 0], [hi, hi, 0], [lo, hi, 0]],
                                  faceVertexCounts: [4], faceVertexIndices: indices)
                let middle = Double(offset + side / 2)
                let camera = RenderCamera(position: [middle, middle, Double(side) / 2], target: [middle, middle, 0], verticalFieldOfView: 90)
                let image = try Renderer.render(RenderScenes.scene([square]), options: RenderScenes.options(camera: camera, size: 64, supersample: supersample)).image
                // The outermost ring may be partly covered where the square's edge rounds inward.
                var uncovered = 0
                for y in 1..<63 { for x in 1..<63 where image.pixels[4 * (y * 64 + x) + 3] != 255 { uncovered += 1 } }
                #expect(uncovered == 0, "square at \(offset) side \(side), diagonal from corner \(indices[0]), \(supersample)x\(supersample): \(uncovered) pixels not wholly covered")
            }
        }
    }
}

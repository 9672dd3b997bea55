import Foundation
import Testing

@testable import AssetRender

/// The splat blend's shortcuts (band lists, pixel boxes, opaque 8x8 blocks passed over, the sort and
/// band lists split over two cores) leave every sample as blending every splat in order into every
/// sample gives, bit for bit.
@Suite struct SplatBlendTests {
    typealias Splat2D = SplatRasterizer.Splat2D

    struct Random {
        var state: UInt64
        mutating func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24)
        }
    }

    /// `count` splats over a `size` picture, dense in its middle so whole blocks turn opaque, boxed
    /// as the projection boxes them.
    static func splats(_ count: Int, size: Int, seed: UInt64) -> [Splat2D] {
        var random = Random(state: seed)
        return (0..<count).map { k in
            let spread: Float = k % 3 == 0 ? 0.15 : 0.5
            let x = Float(size) * (0.5 + spread * (random.next() - 0.5) * 2), y = Float(size) * (0.5 + spread * (random.next() - 0.5) * 2)
            let sigma = 0.4 + 3 * random.next() * random.next()
            let (covA, covC) = (sigma * sigma + SplatRasterizer.lowPass, sigma * sigma * (0.3 + random.next()) + SplatRasterizer.lowPass)
            let covB = 0.4 * (random.next() - 0.5) * (covA * covC).squareRoot()
            let det = covA * covC - covB * covB
            let opacity = 0.2 + 0.8 * random.next()
            let cutoff = log(SplatRasterizer.minAlpha / opacity) - 1e-3
            let reach = (-2 * max(-4.5, cutoff)).squareRoot() * 1.0001
            let (halfWidth, halfHeight) = (reach * covA.squareRoot(), reach * covC.squareRoot())
            let right = Float(size)
            return Splat2D(x: x, y: y, left: Int16(max(x - halfWidth, 0)), right: Int16(min(x + halfWidth, right - 1)),
                           top: Int16(max(y - halfHeight, 0)), bottom: Int16(min(y + halfHeight, right - 1)),
                           conic: SIMD3(covC, -covB, covA) / det, colour: SIMD3(random.next(), random.next(), random.next()),
                           opacity: opacity, cutoff: cutoff, ndcDepth: 0.2 + 0.7 * Float(k) / Float(count))
        }
    }

    /// What every sample gets from every splat in order, with no list, box or block: the method itself.
    static func reference(_ splats: [Splat2D], size: Int, grid: Int, meshDepth: (Int) -> Float) -> [SIMD4<Float>] {
        let n = grid * grid
        var colour = [SIMD3<Float>](repeating: .zero, count: size * size * n), left = [Float](repeating: 1, count: size * size * n)
        for splat in splats {
            for py in 0..<size {
                for px in 0..<size {
                    let pixel = (py * size + px) * n
                    guard let alpha = SplatRasterizer.alpha(splat, dx: Float(px) + 0.5 - splat.x, dy: Float(py) + 0.5 - splat.y) else { continue }
                    for k in 0..<n where left[pixel + k] >= SplatRasterizer.minTransmittance && splat.ndcDepth < meshDepth(pixel + k) {
                        colour[pixel + k] += splat.colour * (alpha * left[pixel + k])
                        left[pixel + k] *= 1 - alpha
                    }
                }
            }
        }
        return (0..<(size * size * n)).map { s in
            left[s] < 1 ? SplatRasterizer.composite(colour[s], left[s], over: .zero) : .zero
        }
    }

    @Test(arguments: [1, 2, 3])
    func everySampleIsTheMethodsOwn(grid: Int) {
        let size = 48
        let splats = Self.splats(1500, size: size, seed: 7 + UInt64(grid))
        var framebuffer = Framebuffer(width: size, height: size, grid: grid)
        // A mesh in front of the splats over part of the picture, behind them elsewhere.
        let meshDepth: (Int) -> Float = { s in (s / (size * grid * grid)) % 5 == 0 ? 0.5 : .infinity }
        for s in framebuffer.depth.indices { framebuffer.depth[s] = meshDepth(s) }
        let camera = RenderCamera(position: [0, 0, 5], target: [0, 0, 0])
        SplatRasterizer(camera: camera, width: size, height: size).blend(splats, into: &framebuffer)
        let expected = Self.reference(splats, size: size, grid: grid, meshDepth: meshDepth)
        let differing = zip(framebuffer.color, expected).filter { $0 != $1 }.count
        #expect(framebuffer.color.count == expected.count && differing == 0, "\(differing) samples differ from blending every splat")
        // The middle is opaque throughout, so whole blocks were passed over there.
        let middle = ((size / 2) * size + size / 2) * grid * grid
        #expect(framebuffer.color[middle].w > 0.999)
    }

    @Test func frontToBackIsAStableSortOnBothCores() {
        var random = Random(state: 11)
        // Past the two-core threshold, with many ties and keys sharing their high bytes.
        let n = (1 << 18) + 1001
        let depths = (0..<n).map { _ in 1 + Float(Int(random.next() * 5000)) / 500 }
        let positions = (0..<Int32(n)).map { $0 * 3 + 1 }
        let order = SplatRasterizer.frontToBack(keys: depths.map(\.bitPattern), positions: positions)
        let expected = (0..<n).sorted { depths[$0] != depths[$1] ? depths[$0] < depths[$1] : $0 < $1 }.map { positions[$0] }
        #expect(order == expected)
        // One key for all: every pass is passed over, the order stays.
        #expect(SplatRasterizer.frontToBack(keys: [UInt32](repeating: 7, count: 5), positions: [4, 3, 2, 1, 0]) == [4, 3, 2, 1, 0])
    }

    @Test(arguments: [10, 300_000])
    func bandListsHoldExactlyTheSplatsThatReachEachBand(count: Int) {
        let height = 100
        var random = Random(state: 3)
        let splats = (0..<count).map { _ -> Splat2D in
            let top = Int16(random.next() * Float(height - 1)), tall = Int16(random.next() * 20)
            return Splat2D(x: 0, y: 0, left: 0, right: 0, top: top, bottom: min(top + tall, Int16(height - 1)), conic: .zero, colour: .zero,
                           opacity: 1, cutoff: 0, ndcDepth: 0)
        }
        let bands = SplatRasterizer.Bands(height: height, count: 32)
        let lists = SplatRasterizer(camera: RenderCamera(position: [0, 0, 5], target: [0, 0, 0]), width: 1, height: height)
            .bandLists(splats, bands: bands)
        for b in 0..<bands.count {
            let rows = SplatRasterizer.Bands.rows(b, height: height, count: bands.count)
            let expected = splats.indices.filter { Int(splats[$0].top) < rows.upperBound && Int(splats[$0].bottom) >= rows.lowerBound }.map(Int32.init)
            #expect(Array(lists.members[lists.starts[b]..<lists.starts[b + 1]]) == expected)
        }
    }

    @Test func aBlockClosesWhenEachOfItsPixelsHas() {
        var blocks = SplatRasterizer.OpenBlocks(rows: 16..<29, width: 20)
        #expect(blocks.anyOpen(0...7, 16...23))
        for row in 16...23 { for column in 0...7 { blocks.close(column: column, row: row) } }
        #expect(!blocks.anyOpen(0...7, 16...23) && !blocks.anyOpen(2...5, 18...19))
        #expect(blocks.anyOpen(0...8, 16...23) && blocks.anyOpen(0...7, 16...24))
        // The last, partial blocks (5 rows, 4 columns) close after their own pixels.
        for row in 24...28 { for column in 16...19 { blocks.close(column: column, row: row) } }
        #expect(!blocks.anyOpen(16...19, 24...28))
    }
}

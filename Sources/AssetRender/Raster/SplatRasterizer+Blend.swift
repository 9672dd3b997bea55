import AssetCore
import AssetImage
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SplatRasterizer {
    /// Blends `splats` (front to back) into every sample, band by band, then lays the result over
    /// the mesh colour each sample held.
    func blend(_ splats: [Splat2D], into framebuffer: inout Framebuffer) {
        let n = framebuffer.samplesPerPixel
        let bands = Bands(height: height, count: min(height, 32))
        let lists = bandLists(splats, bands: bands)
        framebuffer.color.withUnsafeMutableBufferPointer { colours in
        framebuffer.depth.withUnsafeBufferPointer { depths in
        splats.withUnsafeBufferPointer { splats in
        lists.members.withUnsafeBufferPointer { members in
            nonisolated(unsafe) let (colours, depths, splats, members) = (colours, depths, splats, members)
            DispatchQueue.concurrentPerform(iterations: bands.count) { band in
                let rows = Bands.rows(band, height: height, count: bands.count)
                guard !rows.isEmpty else { return }
                if n == 4 {
                    blendFourSamples(band, rows: rows, lists: lists, splats: splats, members: members, colours: colours, depths: depths)
                    return
                }
                let first = rows.lowerBound * width * n, count = rows.count * width * n
                var colour = [SIMD3<Float>](repeating: .zero, count: count)
                var transmittance = [Float](repeating: 1, count: count)
                var blocks = OpenBlocks(rows: rows, width: width)
                colour.withUnsafeMutableBufferPointer { colour in
                transmittance.withUnsafeMutableBufferPointer { transmittance in
                    for m in lists.starts[band]..<lists.starts[band + 1] {
                        let splat = splats[Int(members[m])]
                        guard let (columns, reached) = footprint(splat, rows: rows), blocks.anyOpen(columns, reached) else { continue }
                        let ink = splat.colour, z = splat.ndcDepth
                        for py in reached {
                            let dy = Float(py) + 0.5 - splat.y
                            for px in columns {
                                // Evaluated once, at the pixel's centre, as the 3DGS renderers do;
                                // each sample then blends it behind its own transmittance and in
                                // front of its own mesh depth.
                                let pixel = (py * width + px) * n
                                var open = false
                                for k in 0..<n where transmittance[pixel + k - first] >= Self.minTransmittance { open = true; break }
                                guard open else { continue }  // every sample there is already opaque
                                guard let alpha = Self.alpha(splat, dx: Float(px) + 0.5 - splat.x, dy: dy) else { continue }
                                var stillOpen = false
                                for k in 0..<n {
                                    let local = pixel + k - first
                                    let remaining = transmittance[local]
                                    guard remaining >= Self.minTransmittance, z < depths[pixel + k] else {
                                        stillOpen = stillOpen || remaining >= Self.minTransmittance
                                        continue
                                    }
                                    colour[local] += ink * (alpha * remaining)
                                    transmittance[local] = remaining * (1 - alpha)
                                    stillOpen = stillOpen || transmittance[local] >= Self.minTransmittance
                                }
                                if !stillOpen { blocks.close(column: px, row: py) }
                            }
                        }
                    }
                    for local in 0..<count where transmittance[local] < 1 {
                        colours[first + local] = Self.composite(colour[local], transmittance[local], over: colours[first + local])
                    }
                }
                }
            }
        }}}}
    }

    /// The pixels of `splat`'s footprint (its box) within the band's `rows`; nil when it reaches none.
    @inline(__always)
    func footprint(_ splat: Splat2D, rows: Range<Int>) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        let y0 = max(rows.lowerBound, Int(splat.top)), y1 = min(rows.upperBound - 1, Int(splat.bottom))
        guard y0 <= y1 else { return nil }
        return (Int(splat.left)...Int(splat.right), y0...y1)
    }

    /// The splat's alpha at offset (dx, dy) from its centre: opacity x G, capped at `maxAlpha`; nil
    /// past 3 sigma (a Mahalanobis distance over 3, where the splat has no say) or under `minAlpha`.
    @inline(__always)
    static func alpha(_ splat: Splat2D, dx: Float, dy: Float) -> Float? {
        let conic = splat.conic
        let power = -0.5 * (conic.x * dx * dx + conic.z * dy * dy) - conic.y * dx * dy
        guard power <= 0, power > -4.5, power >= splat.cutoff else { return nil }
        let alpha = min(maxAlpha, splat.opacity * exp(power))
        return alpha >= minAlpha ? alpha : nil
    }

    /// The splats' premultiplied sRGB `colour` with `transmittance` left, over the mesh sample
    /// `below` (linear, premultiplied), as a linear premultiplied sample: the two meet in display
    /// values, where the splats were made.
    static func composite(_ colour: SIMD3<Float>, _ transmittance: Float, over below: SIMD4<Float>) -> SIMD4<Float> {
        var behind = SIMD3<Float>.zero
        if below.w > 0 {
            let straight = SIMD3(below.x, below.y, below.z) / below.w
            behind = SIMD3(ColorSpace.toSRGB(min(max(straight.x, 0), 1)), ColorSpace.toSRGB(min(max(straight.y, 0), 1)),
                           ColorSpace.toSRGB(min(max(straight.z, 0), 1))) * below.w
        }
        let alpha = (1 - transmittance) + transmittance * below.w
        guard alpha > 0 else { return .zero }
        let display = (colour + behind * transmittance) / alpha
        let linear = SIMD3(ColorSpace.toLinear(min(max(display.x, 0), 1)), ColorSpace.toLinear(min(max(display.y, 0), 1)),
                           ColorSpace.toLinear(min(max(display.z, 0), 1)))
        return SIMD4(linear * alpha, alpha)
    }
}

extension SplatRasterizer {
    /// How many pixels of each 8 x 8 block of a band are still open: not yet opaque in every
    /// sample. A pixel closes once, when its last sample's transmittance falls under
    /// `minTransmittance`, and never opens again (transmittance only falls), so a splat whose
    /// footprint meets only closed blocks is passed over whole instead of pixel by pixel: in a
    /// dense capture most splats at the back land on pixels long opaque. The result is the same as
    /// testing every pixel.
    struct OpenBlocks {
        let top: Int, across: Int
        var open: [Int32]

        init(rows: Range<Int>, width: Int) {
            top = rows.lowerBound
            across = (width + 7) / 8
            let down = (rows.count + 7) / 8
            var open = [Int32](repeating: 0, count: across * down)
            for by in 0..<down {
                let height = min(8, rows.count - 8 * by)
                for bx in 0..<across { open[by * across + bx] = Int32(height * min(8, width - 8 * bx)) }
            }
            self.open = open
        }

        /// Whether any pixel of `columns` x `rows` (within the band) may still take colour.
        @inline(__always)
        func anyOpen(_ columns: ClosedRange<Int>, _ rows: ClosedRange<Int>) -> Bool {
            let x0 = columns.lowerBound >> 3, x1 = columns.upperBound >> 3
            for by in ((rows.lowerBound - top) >> 3)...((rows.upperBound - top) >> 3) {
                for bx in x0...x1 where open[by * across + bx] > 0 { return true }
            }
            return false
        }

        /// The pixel at `column`, `row` (of the picture) has just become opaque in every sample.
        @inline(__always)
        mutating func close(column: Int, row: Int) {
            open[((row - top) >> 3) * across + (column >> 3)] -= 1
        }
    }
}

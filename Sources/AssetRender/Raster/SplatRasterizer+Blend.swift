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
        let bands = min(height, 32)
        let lists = bandLists(splats, bands: bands)
        framebuffer.color.withUnsafeMutableBufferPointer { colours in
        framebuffer.depth.withUnsafeBufferPointer { depths in
        splats.withUnsafeBufferPointer { splats in
        lists.members.withUnsafeBufferPointer { members in
            nonisolated(unsafe) let (colours, depths, splats, members) = (colours, depths, splats, members)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let rows = (band * height / bands)..<((band + 1) * height / bands)
                guard !rows.isEmpty else { return }
                if n == 4 {
                    blendFourSamples(band, rows: rows, lists: lists, splats: splats, members: members, colours: colours, depths: depths)
                    return
                }
                let first = rows.lowerBound * width * n, count = rows.count * width * n
                var colour = [SIMD3<Float>](repeating: .zero, count: count)
                var transmittance = [Float](repeating: 1, count: count)
                colour.withUnsafeMutableBufferPointer { colour in
                transmittance.withUnsafeMutableBufferPointer { transmittance in
                    for m in lists.starts[band]..<lists.starts[band + 1] {
                        let splat = splats[Int(members[m])]
                        guard let (columns, reached) = footprint(splat, rows: rows) else { continue }
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
                                for k in 0..<n {
                                    let local = pixel + k - first
                                    let remaining = transmittance[local]
                                    guard remaining >= Self.minTransmittance, z < depths[pixel + k] else { continue }
                                    colour[local] += ink * (alpha * remaining)
                                    transmittance[local] = remaining * (1 - alpha)
                                }
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

    /// The pixels of `splat`'s footprint (its box, `halfWidth` by `halfHeight`) within the band's
    /// `rows` and the picture; nil when it reaches none.
    @inline(__always)
    func footprint(_ splat: Splat2D, rows: Range<Int>) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        let x0 = max(0, Int((splat.x - splat.halfWidth).rounded(.down))), x1 = min(width - 1, Int((splat.x + splat.halfWidth).rounded(.down)))
        let y0 = max(rows.lowerBound, Int((splat.y - splat.halfHeight).rounded(.down)))
        let y1 = min(rows.upperBound - 1, Int((splat.y + splat.halfHeight).rounded(.down)))
        guard x0 <= x1, y0 <= y1 else { return nil }
        return (x0...x1, y0...y1)
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

    /// For each band of rows, the splats whose footprint reaches it, front to back: one list after
    /// another in `members` (positions in `splats`, rising), band b's from `starts[b]` to
    /// `starts[b + 1]`. Made once, so a band walks its own splats instead of testing every one.
    func bandLists(_ splats: [Splat2D], bands: Int) -> (starts: [Int], members: [Int32]) {
        func span(_ splat: Splat2D) -> ClosedRange<Int>? {
            let top = Int((splat.y - splat.halfHeight).rounded(.down)), bottom = Int((splat.y + splat.halfHeight).rounded(.down))
            guard bottom >= 0, top < height else { return nil }
            // Band b holds rows b * height / bands ..< (b + 1) * height / bands; one band more on
            // each side than the division says covers its rounding (a band reached by no row of
            // the splat clips it away at once).
            let first = max(0, max(top, 0) * bands / height - 1), last = min(bands - 1, min(bottom, height - 1) * bands / height + 1)
            return first...last
        }
        var counts = [Int](repeating: 0, count: bands + 1)
        for splat in splats { if let range = span(splat) { for b in range { counts[b + 1] += 1 } } }
        for b in 0..<bands { counts[b + 1] += counts[b] }
        var members = [Int32](repeating: 0, count: counts[bands])
        var next = counts
        for (index, splat) in splats.enumerated() {
            guard let range = span(splat) else { continue }
            for b in range { members[next[b]] = Int32(index); next[b] += 1 }
        }
        return (counts, members)
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

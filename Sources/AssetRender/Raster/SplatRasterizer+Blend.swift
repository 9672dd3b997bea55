import AssetCore
import AssetImage
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SplatRasterizer {
    /// Blends the projected splats in `order` into every sample, band by band, then lays the
    /// result over the mesh colour each sample held.
    func blend(_ splats: Projected, order: [Int32], into framebuffer: inout Framebuffer) {
        let n = framebuffer.samplesPerPixel
        let offsets = (0..<n).map { framebuffer.offset($0) }
        let bands = min(height, 16)
        framebuffer.color.withUnsafeMutableBufferPointer { colours in
        framebuffer.depth.withUnsafeBufferPointer { depths in
            nonisolated(unsafe) let colours = colours
            nonisolated(unsafe) let depths = depths
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let rows = (band * height / bands)..<((band + 1) * height / bands)
                guard !rows.isEmpty else { return }
                let first = rows.lowerBound * width * n, count = rows.count * width * n
                var colour = [SIMD3<Float>](repeating: .zero, count: count)
                var transmittance = [Float](repeating: 1, count: count)
                let top = Float(rows.lowerBound), bottom = Float(rows.upperBound)
                for index in order {
                    let s = Int(index)
                    let x = splats.x[s], y = splats.y[s], r = splats.radius[s]
                    guard y + r >= top, y - r < bottom else { continue }
                    let x0 = max(0, Int((x - r).rounded(.down))), x1 = min(width - 1, Int((x + r).rounded(.down)))
                    let y0 = max(rows.lowerBound, Int((y - r).rounded(.down))), y1 = min(rows.upperBound - 1, Int((y + r).rounded(.down)))
                    guard x0 <= x1, y0 <= y1 else { continue }
                    let conic = splats.conic[s], opacity = splats.opacity[s], ink = splats.colour[s], z = splats.ndcDepth[s]
                    for py in y0...y1 {
                        for px in x0...x1 {
                            let pixel = (py * width + px) * n
                            for k in 0..<n {
                                let local = pixel + k - first
                                let remaining = transmittance[local]
                                guard remaining >= Self.minTransmittance, z < depths[pixel + k] else { continue }
                                let dx = Float(px) + offsets[k].x - x, dy = Float(py) + offsets[k].y - y
                                let power = -0.5 * (conic.x * dx * dx + conic.z * dy * dy) - conic.y * dx * dy
                                // Beyond 3 sigma (a Mahalanobis distance over 3) the splat has no say.
                                guard power <= 0, power > -4.5 else { continue }
                                let alpha = min(Self.maxAlpha, opacity * exp(power))
                                guard alpha >= Self.minAlpha else { continue }
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

import AssetCore
import AssetImage

/// Colour and depth per sample: `samplesPerPixel` samples in a square grid inside each pixel.
/// Colour is linear RGB with coverage alpha, premultiplied, so resolving is a plain average.
struct Framebuffer {
    let width: Int
    let height: Int
    let grid: Int
    var color: [SIMD4<Float>]
    var depth: [Float]

    init(width: Int, height: Int, grid: Int) {
        self.width = width
        self.height = height
        self.grid = grid
        let count = width * height * grid * grid
        color = [SIMD4<Float>](repeating: .zero, count: count)
        depth = [Float](repeating: .infinity, count: count)
    }

    /// Bands of rows, top first, as one framebuffer.
    init(stacking bands: [Framebuffer]) {
        width = bands[0].width
        grid = bands[0].grid
        height = bands.reduce(0) { $0 + $1.height }
        // Appended, not filled and then overwritten: each array is a copy of its bands' memory.
        color = []
        depth = []
        color.reserveCapacity(width * height * grid * grid)
        depth.reserveCapacity(width * height * grid * grid)
        for band in bands {
            color.append(contentsOf: band.color)
            depth.append(contentsOf: band.depth)
        }
    }

    var samplesPerPixel: Int { grid * grid }

    /// Sample k's offset inside its pixel.
    @inline(__always) func offset(_ k: Int) -> SIMD2<Float> {
        SIMD2((Float(k % grid) + 0.5) / Float(grid), (Float(k / grid) + 0.5) / Float(grid))
    }

    /// Averages each pixel's samples, un-premultiplies, encodes sRGB; over `background` if given.
    func resolve(background: SIMD3<Float>?) -> RGBAImage {
        let count = width * height * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            resolve(background: background, into: out.baseAddress!)
            initialized = count
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// `resolve`, writing the `width * height` RGBA pixels at `out`: bands resolve into their own
    /// rows of one picture, on their own cores (`BandedRasterizer.resolve`).
    func resolve(background: SIMD3<Float>?, into out: UnsafeMutablePointer<UInt8>) {
        let n = samplesPerPixel
        // AssetImage's table, fetched once: reached through `ColorSpace.encode` three times a pixel,
        // the call was not inlined across the module boundary and took 2.3% of rendering a folder of
        // small models (perf). The same lookup as `encode`, on the same table.
        let srgb = ColorSpace.srgb8FromLinear
        let steps = Float(srgb.count - 1)
        srgb.withUnsafeBufferPointer { srgb in
            // `Int(x + 0.5)` rather than `x.rounded()`: on this baseline x86-64 (no SSE4.1) `rounded()`
            // is a call to libm's roundf, 1,321 samples of a 2-worker thumbnail run by perf; for the
            // non-negative values here the two differ only within a float step of a half.
            @inline(__always) func encode(_ linear: Float) -> UInt8 { srgb[Int(min(max(linear, 0), 1) * steps + 0.5)] }
            color.withUnsafeBufferPointer { color in
                for p in 0..<(width * height) {
                    var sum = SIMD4<Float>.zero
                    for k in 0..<n { sum += color[p * n + k] }
                    var c = sum / Float(n)
                    if let background {
                        let rgb = SIMD3(c.x, c.y, c.z) + background * (1 - c.w)
                        c = SIMD4(rgb, 1)
                    } else if c.w > 0 {
                        c = SIMD4(c.x / c.w, c.y / c.w, c.z / c.w, c.w)
                    }
                    out[p * 4] = encode(c.x)
                    out[p * 4 + 1] = encode(c.y)
                    out[p * 4 + 2] = encode(c.z)
                    out[p * 4 + 3] = UInt8(min(max(c.w, 0), 1) * 255 + 0.5)
                }
            }
        }
    }
}

import AssetCore
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shrinks textures with Mitchell and Netravali's cubic filter, in the colour space the texture is
/// authored in: colour maps are filtered in linear light and stored back as sRGB, so a downscaled
/// checkerboard stays mid-grey instead of darkening; data maps (roughness, metalness, occlusion)
/// are filtered as plain numbers; normal maps are filtered as vectors and made unit length again,
/// since averaging unit vectors shortens them.
///
/// Written here rather than called from stb_image_resize: Debian's libstb carries its first
/// version, scalar, which took 0.95 s of CPU for the two 4096 px textures of
/// `Scripts/bench-optimize` (35% of the whole budget pipeline's samples by perf; this takes
/// 0.30 s); its SIMD successor is not packaged, and libvips, which has one, would bring GLib and
/// dozens of libraries. The filter is the same one, weighted the same way, and a test holds the
/// two within a level of each other.
public enum ImageResampler {
    public enum Content: Sendable {
        /// sRGB colour with straight alpha (base colour, emissive).
        case color
        /// Numbers stored as-is (metallic, roughness, occlusion, opacity).
        case data
        /// Tangent-space normals, xyz in rgb as 0.5 + 0.5 n.
        case normal
    }

    /// `image` filtered to `width` x `height`. `wrapsX`/`wrapsY` say whether the texture repeats
    /// along that side, so the filter reads across the opposite edge instead of clamping.
    public static func resized(_ image: RGBAImage, width: Int, height: Int, content: Content,
                               wrapsX: Bool = false, wrapsY: Bool = false) -> RGBAImage {
        resized(image, width: width, height: height, content: content, wrapsX: wrapsX, wrapsY: wrapsY, bands: bandCount)
    }

    static func resized(_ image: RGBAImage, width: Int, height: Int, content: Content, wrapsX: Bool, wrapsY: Bool, bands wanted: Int) -> RGBAImage {
        precondition(width > 0 && height > 0, "a resized image has at least one pixel")
        let columns = ResampleAxis(source: image.width, output: width), rows = ResampleAxis(source: image.height, output: height)
        var out = [UInt8](repeating: 0, count: width * height * 4)
        // Large outputs in bands of rows, one a core. Every output row is worked out from the
        // source alone, so where the bands are cut changes no pixel.
        let bands = width * height >= 512 * 512 ? min(wanted, height) : 1
        image.pixels.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                let source = UncheckedPointer(input.baseAddress!), target = UncheckedPointer(output.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: bands) { k in
                    var band = ResampleBand(source: source.value, width: image.width, columns: columns, rows: rows,
                                            content: content, wrapsX: wrapsX, wrapsY: wrapsY)
                    band.run(rows: (height * k / bands)..<(height * (k + 1) / bands), into: target.value)
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: out)
    }

    /// Bands a large resize is cut into: one a core, at most two (the pipeline's other work takes the rest).
    static let bandCount = max(1, min(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
}

/// One band's work: source rows widened to linear floats and filtered across into a ring of
/// `rows.count` filtered rows (consecutive output rows share most of their source rows), then each
/// output row filtered down from the ring and stored back as 8 bits.
private struct ResampleBand {
    let source: UnsafePointer<UInt8>
    let width: Int
    let columns: ResampleAxis, rows: ResampleAxis
    let content: ImageResampler.Content
    let wrapsX: Bool, wrapsY: Bool
    /// A padded source row in linear floats, then filtered across.
    private var padded: [SIMD4<Float>]
    private var ring: [SIMD4<Float>]
    /// The padded source row each ring slot holds, or -1.
    private var held: [Int]
    private var sum: [SIMD4<Float>]

    /// Weighs transparent texels a little, as stb_image_resize does, so a neighbourhood with no
    /// opaque texel keeps its colour rather than becoming black.
    static let alphaEpsilon: Float = 1.0 / Float(1 << 20) / Float(1 << 20)

    init(source: UnsafePointer<UInt8>, width: Int, columns: ResampleAxis, rows: ResampleAxis,
         content: ImageResampler.Content, wrapsX: Bool, wrapsY: Bool) {
        (self.source, self.width, self.columns, self.rows, self.content, self.wrapsX, self.wrapsY) =
            (source, width, columns, rows, content, wrapsX, wrapsY)
        padded = [SIMD4<Float>](repeating: .zero, count: columns.paddedLength)
        ring = [SIMD4<Float>](repeating: .zero, count: rows.count * columns.first.count)
        held = [Int](repeating: -1, count: rows.count)
        sum = [SIMD4<Float>](repeating: .zero, count: columns.first.count)
    }

    mutating func run(rows band: Range<Int>, into target: UnsafeMutablePointer<UInt8>) {
        let outWidth = columns.first.count, taps = rows.count
        for y in band {
            let start = Int(rows.first[y])
            for k in 0..<taps where held[(start + k) % taps] != start + k {
                filterAcross(rows.source(atPadded: start + k, wraps: wrapsY), slot: (start + k) % taps)
                held[(start + k) % taps] = start + k
            }
            ring.withUnsafeBufferPointer { ring in
                sum.withUnsafeMutableBufferPointer { sum in
                    rows.weights.withUnsafeBufferPointer { weights in
                        let w = weights.baseAddress! + y * taps
                        let first = ring.baseAddress! + (start % taps) * outWidth
                        for x in 0..<outWidth { sum[x] = w[0] * first[x] }
                        for k in 1..<taps where w[k] != 0 {
                            let row = ring.baseAddress! + ((start + k) % taps) * outWidth
                            for x in 0..<outWidth { sum[x] += w[k] * row[x] }
                        }
                    }
                }
            }
            store(target + y * outWidth * 4)
        }
    }

    /// Source row `y` widened into the padded line, then filtered across into ring slot `slot`.
    private mutating func filterAcross(_ y: Int, slot: Int) {
        let row = source + y * width * 4
        let (margin, content, wrapsX, columns) = (columns.margin, content, wrapsX, columns)
        padded.withUnsafeMutableBufferPointer { line in
            ColorSpace.linearFromSRGB8.withUnsafeBufferPointer { toLinear in
                let toLinear = toLinear.baseAddress!
                @inline(__always) func widened(_ texel: UnsafePointer<UInt8>) -> SIMD4<Float> {
                    switch content {
                    case .normal:
                        return SIMD4(Float(texel[0]), Float(texel[1]), Float(texel[2]), Float(texel[3])) * (1 / 255)
                    case .data:
                        let a = Float(texel[3]) * (1 / 255) + Self.alphaEpsilon
                        return SIMD4(Float(texel[0]), Float(texel[1]), Float(texel[2]), 255) * (a / 255)
                    case .color:
                        let a = Float(texel[3]) * (1 / 255) + Self.alphaEpsilon
                        return SIMD4(toLinear[Int(texel[0])], toLinear[Int(texel[1])], toLinear[Int(texel[2])], 1) * a
                    }
                }
                let n = columns.sourceLength
                for x in 0..<n { line[margin + x] = widened(row + 4 * x) }
                for p in 0..<margin {
                    line[p] = widened(row + 4 * columns.source(atPadded: p, wraps: wrapsX))
                    line[margin + n + p] = widened(row + 4 * columns.source(atPadded: margin + n + p, wraps: wrapsX))
                }
            }
        }
        let outWidth = columns.first.count, taps = columns.count
        padded.withUnsafeBufferPointer { line in
            ring.withUnsafeMutableBufferPointer { ring in
                columns.first.withUnsafeBufferPointer { first in
                    columns.weights.withUnsafeBufferPointer { weights in
                        let out = ring.baseAddress! + slot * outWidth
                        for x in 0..<outWidth {
                            let texels = line.baseAddress! + Int(first[x]), w = weights.baseAddress! + x * taps
                            var acc = SIMD4<Float>.zero
                            for k in 0..<taps { acc += w[k] * texels[k] }
                            out[x] = acc
                        }
                    }
                }
            }
        }
    }

    /// The filtered row in `sum` stored as 8-bit texels: colour and data divided by their alpha
    /// again, colour back to sRGB, normals made unit length.
    private func store(_ out: UnsafeMutablePointer<UInt8>) {
        sum.withUnsafeBufferPointer { sum in
            ColorSpace.srgb16FromLinear.withUnsafeBufferPointer { toSRGB in
                for x in 0..<sum.count {
                    var v = sum[x]
                    let texel = out + 4 * x
                    switch content {
                    case .normal:
                        // Made unit length from the 8-bit values, not the filtered floats: a smooth
                        // field's quantized plateaus then stay plateaus, where renormalized floats
                        // flicker between levels and the PNG came out 40% larger.
                        let q = SIMD3(Float(Self.unit8(v.x)), Float(Self.unit8(v.y)), Float(Self.unit8(v.z)))
                        var n = q / 127.5 - 1
                        let length = (n * n).sum().squareRoot()
                        if length > 1e-4 {
                            n /= length
                            texel[0] = Self.unit8((n.x + 1) * 0.5); texel[1] = Self.unit8((n.y + 1) * 0.5); texel[2] = Self.unit8((n.z + 1) * 0.5)
                        } else {
                            texel[0] = UInt8(q.x); texel[1] = UInt8(q.y); texel[2] = UInt8(q.z)
                        }
                    case .data, .color:
                        if v.w != 0 { v *= SIMD4(1 / v.w, 1 / v.w, 1 / v.w, 1) }
                        if content == .color {
                            texel[0] = toSRGB[Self.index16(v.x)]; texel[1] = toSRGB[Self.index16(v.y)]; texel[2] = toSRGB[Self.index16(v.z)]
                        } else {
                            texel[0] = Self.unit8(v.x); texel[1] = Self.unit8(v.y); texel[2] = Self.unit8(v.z)
                        }
                    }
                    texel[3] = Self.unit8(v.w)
                }
            }
        }
    }

    /// [0, 1] to 8 bits, rounded; out of range (the cubic's lobes overshoot) and NaN clamped.
    @inline(__always) static func unit8(_ v: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: rounded((v > 0 ? (v < 1 ? v : 1) : 0) * 255))
    }

    @inline(__always) static func index16(_ v: Float) -> Int {
        rounded((v > 0 ? (v < 1 ? v : 1) : 0) * 65535)
    }

    /// `v` in [0, 2^22] rounded to the nearest integer through its bits: adding 2^23 leaves it in
    /// the low bits of the sum's mantissa (ties go to even). `Int(Float)` would check for NaN and
    /// range at every channel of every texel.
    @inline(__always) static func rounded(_ v: Float) -> Int {
        Int((v + 8_388_608).bitPattern & 0x7F_FFFF)
    }
}

/// The source and output buffers handed to `concurrentPerform`'s bands, each writing rows of its own.
private struct UncheckedPointer<Pointee>: @unchecked Sendable {
    let value: Pointee
    init(_ value: Pointee) { self.value = value }
}

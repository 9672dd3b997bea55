import AssetCore
import CSTBImage
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shrinks textures with stb_image_resize's Mitchell filter (its default for downsampling), in the
/// colour space the texture is authored in: colour maps are filtered in linear light and stored
/// back as sRGB, so a downscaled checkerboard stays mid-grey instead of darkening; data maps
/// (roughness, metalness, occlusion) are filtered as plain numbers; normal maps are filtered as
/// vectors and made unit length again, since averaging unit vectors shortens them.
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
        var out = [UInt8](repeating: 0, count: width * height * 4)
        let edgeX = wrapsX ? STBIR_EDGE_WRAP : STBIR_EDGE_CLAMP
        let edgeY = wrapsY ? STBIR_EDGE_WRAP : STBIR_EDGE_CLAMP
        // Colour is weighted by alpha (stb premultiplies internally unless told the input already
        // is), so fully transparent texels do not bleed their hidden colour into the edge; normal
        // maps' alpha carries nothing to weight by.
        let alpha: Int32 = content == .normal ? Int32(assetc_stbir_alpha_none) : 3
        let space = content == .color ? STBIR_COLORSPACE_SRGB : STBIR_COLORSPACE_LINEAR
        // Large outputs in bands of rows, one a core: each band is the region of the source that
        // maps onto its rows, read with the whole source around it, so the filter sees across the
        // cut as in one pass.
        let bands = width * height >= 512 * 512 ? min(wanted, height) : 1
        let failed = Locked(false)
        image.pixels.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                let source = UncheckedPointer(input.baseAddress!), target = UncheckedPointer(output.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: bands) { k in
                    let top = height * k / bands, bottom = height * (k + 1) / bands
                    let status = stbir_resize_region(source.value, Int32(image.width), Int32(image.height), Int32(image.width * 4),
                                                     target.value + top * width * 4, Int32(width), Int32(bottom - top), Int32(width * 4),
                                                     STBIR_TYPE_UINT8, 4, alpha, 0, edgeX, edgeY, STBIR_FILTER_MITCHELL, STBIR_FILTER_MITCHELL,
                                                     space, nil, 0, Float(top) / Float(height), 1, Float(bottom) / Float(height))
                    if status == 0 { failed.withLock { $0 = true } }
                }
            }
        }
        precondition(!failed.value, "stb_image_resize fails only on allocation, which traps in Swift as well")
        if content == .normal { renormalize(&out) }
        return RGBAImage(width: width, height: height, pixels: out)
    }

    /// Bands a large resize is cut into: one a core, at most two (the pipeline's other work takes the rest).
    static let bandCount = max(1, min(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

    private static func renormalize(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let x = Float(p[i]) / 127.5 - 1, y = Float(p[i + 1]) / 127.5 - 1, z = Float(p[i + 2]) / 127.5 - 1
                let length = (x * x + y * y + z * z).squareRoot()
                if length > 1e-4 {
                    p[i] = encode(x / length); p[i + 1] = encode(y / length); p[i + 2] = encode(z / length)
                }
                i += 4
            }
        }
    }

    @inline(__always) private static func encode(_ v: Float) -> UInt8 {
        UInt8(min(max((v + 1) * 127.5, 0), 255).rounded())
    }
}

/// The source and output buffers handed to `concurrentPerform`'s bands, each writing rows of its own.
private struct UncheckedPointer<Pointee>: @unchecked Sendable {
    let value: Pointee
    init(_ value: Pointee) { self.value = value }
}

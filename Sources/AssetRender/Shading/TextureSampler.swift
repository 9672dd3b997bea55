import AssetCore
import AssetImage

/// Bilinear texture lookups with the scene's wrap modes. Texture coordinates have their origin at
/// the bottom left (USD, Collada), image rows run top to bottom.
struct TextureSampler {
    let image: RGBAImage
    let wrapS: Texture.WrapMode
    let wrapT: Texture.WrapMode
    /// Colour textures are sRGB; data textures (roughness, normals) would be raw.
    let isColor: Bool

    /// Linear RGBA at `uv`.
    func sample(_ uv: SIMD2<Float>) -> SIMD4<Float> {
        let x = uv.x * Float(image.width) - 0.5
        let y = (1 - uv.y) * Float(image.height) - 0.5
        let x0 = x.rounded(.down), y0 = y.rounded(.down)
        let fx = x - x0, fy = y - y0
        let ix = Int(x0), iy = Int(y0)
        let a = texel(ix, iy), b = texel(ix + 1, iy), c = texel(ix, iy + 1), d = texel(ix + 1, iy + 1)
        let top = a + (b - a) * fx, bottom = c + (d - c) * fx
        return top + (bottom - top) * fy
    }

    private func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
        guard let tx = Self.wrap(x, image.width, wrapS), let ty = Self.wrap(y, image.height, wrapT) else { return .zero }
        let i = (ty * image.width + tx) * 4
        let p = image.pixels
        if isColor {
            let lut = ColorSpace.linearFromSRGB8
            return SIMD4(lut[Int(p[i])], lut[Int(p[i + 1])], lut[Int(p[i + 2])], Float(p[i + 3]) / 255)
        }
        return SIMD4(Float(p[i]), Float(p[i + 1]), Float(p[i + 2]), Float(p[i + 3])) / 255
    }

    /// The texel index along one axis, or nil for `black` outside the image.
    static func wrap(_ i: Int, _ n: Int, _ mode: Texture.WrapMode) -> Int? {
        switch mode {
        case .repeat: return ((i % n) + n) % n
        case .clamp: return min(max(i, 0), n - 1)
        case .black: return (0..<n).contains(i) ? i : nil
        case .mirror:
            let period = 2 * n
            let m = ((i % period) + period) % period
            return m < n ? m : period - 1 - m
        }
    }
}

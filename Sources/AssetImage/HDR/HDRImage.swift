#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Linear RGB radiance in an equirectangular layout, rows top to bottom, three floats a texel.
/// The mapping is three.js's and Blender's, in the Y-up frame: the centre column looks down +X,
/// three quarters across looks down +Z, the top row is +Y.
public struct HDRImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// `width * height * 3` floats.
    public var texels: [Float]

    public init(width: Int, height: Int, texels: [Float]) {
        precondition(texels.count == width * height * 3, "RGB needs three floats per texel")
        self.width = width
        self.height = height
        self.texels = texels
    }

    /// One value everywhere: the white furnace's environment.
    public static func uniform(_ radiance: SIMD3<Float>, width: Int = 64, height: Int = 32) -> HDRImage {
        var texels = [Float](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) { texels[3 * i] = radiance.x; texels[3 * i + 1] = radiance.y; texels[3 * i + 2] = radiance.z }
        return HDRImage(width: width, height: height, texels: texels)
    }

    @inlinable @inline(__always) package func texel(_ x: Int, _ y: Int) -> SIMD3<Float> {
        let i = (y * width + x) * 3
        return SIMD3(texels[i], texels[i + 1], texels[i + 2])
    }

    /// The direction through the centre of texel (x, y).
    package static func direction(x: Double, y: Double, width: Int, height: Int) -> SIMD3<Float> {
        let phi = (x / Double(width) - 0.5) * 2 * .pi
        let theta = y / Double(height) * .pi
        let s = sin(theta)
        return SIMD3(Float(cos(phi) * s), Float(cos(theta)), Float(sin(phi) * s))
    }

    /// atan2 within 2e-6 radians (a thousandth of a 4096-wide texel) at a fraction of libm's cost:
    /// the prefilter maps 64 samples a texel and the shader one a pixel through it, and libm's
    /// atan2f and acosf were a tenth of a default thumbnail's time. A minimax odd polynomial on
    /// [0, 1], then the octant folded back.
    @inlinable @inline(__always) package static func fastAtan2(_ y: Float, _ x: Float) -> Float {
        let ax = abs(x), ay = abs(y)
        let big = max(ax, ay)
        guard big > 0 else { return 0 }
        let a = min(ax, ay) / big
        let s = a * a
        var r = a * (0.99997726 + s * (-0.33262347 + s * (0.19354346 + s * (-0.11643287 + s * (0.05265332 + s * -0.01172120)))))
        if ay > ax { r = .pi / 2 - r }
        if x < 0 { r = .pi - r }
        return y < 0 ? -r : r
    }

    /// Where a unit direction lands, in texel units (x across, y down; texel centres at +0.5).
    @inlinable @inline(__always) package static func coordinates(of d: SIMD3<Float>, width: Int, height: Int) -> (x: Float, y: Float) {
        let u = fastAtan2(d.z, d.x) * (0.5 / Float.pi) + 0.5
        let y = min(max(d.y, -1), 1)
        let v = fastAtan2((1 - y * y).squareRoot(), y) * (1 / Float.pi)
        return (u * Float(width), v * Float(height))
    }

    /// Bilinear radiance in direction `d` (unit length), wrapping around and clamped at the poles.
    @inlinable @inline(__always) package func sample(_ d: SIMD3<Float>) -> SIMD3<Float> {
        let (cx, cy) = Self.coordinates(of: d, width: width, height: height)
        return sample(x: cx - 0.5, y: cy - 0.5)
    }

    @inlinable @inline(__always) package func sample(x: Float, y: Float) -> SIMD3<Float> {
        texels.withUnsafeBufferPointer { Self.bilinear($0.baseAddress!, width: width, height: height, x: x, y: y) }
    }

    /// Bilinear RGB from `width` x `height` texels at `t`, x wrapping around and y clamped, at
    /// texel-index coordinates (centres on whole numbers). On raw memory, so hot loops that hold a
    /// whole pyramid in one buffer pay no reference counting per lookup.
    @inlinable @inline(__always) package static func bilinear(_ t: UnsafePointer<Float>, width: Int, height: Int, x: Float, y: Float) -> SIMD3<Float> {
        let x0f = x.rounded(.down), y0f = y.rounded(.down)
        let fx = x - x0f, fy = y - y0f
        var x0 = Int(x0f) % width
        if x0 < 0 { x0 += width }
        let x1 = x0 + 1 == width ? 0 : x0 + 1
        let y0 = min(max(Int(y0f), 0), height - 1), y1 = min(max(Int(y0f) + 1, 0), height - 1)
        @inline(__always) func at(_ x: Int, _ y: Int) -> SIMD3<Float> {
            let i = (y * width + x) * 3
            return SIMD3(t[i], t[i + 1], t[i + 2])
        }
        let a = at(x0, y0), b = at(x1, y0), c = at(x0, y1), d = at(x1, y1)
        let top = a + (b - a) * fx
        let bottom = c + (d - c) * fx
        return top + (bottom - top) * fy
    }

    /// Bilinear radiance toward unit direction `d` from raw texels, as `sample(_:)`.
    @inlinable @inline(__always) package static func bilinear(_ t: UnsafePointer<Float>, width: Int, height: Int, direction d: SIMD3<Float>) -> SIMD3<Float> {
        let (cx, cy) = coordinates(of: d, width: width, height: height)
        return bilinear(t, width: width, height: height, x: cx - 0.5, y: cy - 0.5)
    }

    /// Half the size, each texel the mean of the 2x2 below it (an odd last row or column is
    /// averaged with itself). Solid angle is not weighted: the rows it merges are neighbours.
    package func halved() -> HDRImage {
        texels.withUnsafeBufferPointer { Self.halved($0, width: width, height: height) }
    }

    package static func halved(_ t: UnsafeBufferPointer<Float>, width: Int, height: Int) -> HDRImage {
        let w = max(width / 2, 1), h = max(height / 2, 1)
        var out = [Float](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            let ya = min(2 * y, height - 1), yb = min(2 * y + 1, height - 1)
            for x in 0..<w {
                let xa = min(2 * x, width - 1), xb = min(2 * x + 1, width - 1)
                for c in 0..<3 {
                    let sum = t[(ya * width + xa) * 3 + c] + t[(ya * width + xb) * 3 + c] + t[(yb * width + xa) * 3 + c] + t[(yb * width + xb) * 3 + c]
                    out[(y * w + x) * 3 + c] = sum * 0.25
                }
            }
        }
        return HDRImage(width: w, height: h, texels: out)
    }

    /// This image halved until it is at most `maxWidth` wide.
    package func reduced(toWidth maxWidth: Int) -> HDRImage {
        var image = self
        while image.width > maxWidth { image = image.halved() }
        return image
    }
}

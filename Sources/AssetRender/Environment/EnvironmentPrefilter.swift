import AssetImage
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns an equirectangular HDR into a `PrefilteredEnvironment`: spherical harmonics for the
/// diffuse light, and a GGX-prefiltered chain for the specular, importance sampled with the
/// source's own mip chain ("filtered importance sampling", Křivánek and Colbert 2008: each sample
/// reads the mip whose texels are about as large as the solid angle it stands for), so 64
/// samples a texel give smooth lobes without fireflies from small bright lights.
public enum EnvironmentPrefilter {
    /// Widths of the specular levels, roughness 0 to 1 in equal steps.
    static let levelWidths = [256, 128, 64, 32, 32, 32]
    static let samplesPerTexel = 64
    /// The source is reduced to this width before anything reads it: twice the mirror level, so
    /// the finest convolved level still reads texels finer than its lobe.
    public static let sourceWidth = 512
    static let harmonicsWidth = 64

    public static func prefilter(_ image: HDRImage, key: String) -> PrefilteredEnvironment {
        var pyramid = [image.reduced(toWidth: sourceWidth)]
        while pyramid[pyramid.count - 1].width > 4 { pyramid.append(pyramid[pyramid.count - 1].halved()) }
        let irradiance = harmonics(pyramid.first { $0.width <= harmonicsWidth } ?? pyramid[pyramid.count - 1])
        var levels: [HDRImage] = []
        for (k, width) in levelWidths.enumerated() {
            let roughness = Float(k) / Float(levelWidths.count - 1)
            let w = min(width, pyramid[0].width), h = max(w / 2, 1)
            if k == 0 {
                // The mirror reads the source as it is, reduced to the level's size.
                levels.append(pyramid.first { $0.width <= w } ?? pyramid[pyramid.count - 1])
            } else {
                levels.append(convolve(pyramid, width: w, height: h, roughness: roughness))
            }
        }
        return PrefilteredEnvironment(irradiance: irradiance, specularLevels: levels, key: key)
    }

    /// The environment convolved with the GGX lobe of `roughness`, with n = v = r as split-sum
    /// prefiltering assumes; rows are shared between the cores.
    static func convolve(_ pyramid: [HDRImage], width: Int, height: Int, roughness: Float) -> HDRImage {
        let alpha = roughness * roughness
        let n = samplesPerTexel
        // The half vectors and their pdf-derived mip levels are the same for every texel: draw them once.
        let base = pyramid[0]
        let texelSolidAngle = 4 * Float.pi / Float(base.width * base.height)
        var drawnHalfVectors: [SIMD3<Float>] = []
        var drawnMips: [Float] = []
        for i in 0..<n {
            let h = BRDF.sampleHalfVector(BRDF.hammersley(i, n), alpha: alpha)
            drawnHalfVectors.append(h)
            // pdf(l) = D(h) (n·h) / (4 v·h) = D / 4 when n = v.
            let pdf = BRDF.distribution(nDotH: h.z, alpha: max(alpha, 1e-4)) / 4
            let sampleSolidAngle = 1 / (Float(n) * pdf + 1e-6)
            drawnMips.append(max(0.5 * log2f(sampleSolidAngle / texelSolidAngle) + 1, 0))
        }
        let halfVectors = drawnHalfVectors, mips = drawnMips
        // The pyramid in one buffer, so a lookup is arithmetic on a pointer.
        let packed = PackedLevels(pyramid)
        var texels = [Float](repeating: 0, count: width * height * 3)
        let rows = texels.withUnsafeMutableBufferPointer { out -> Int in
            let pointer = SendablePointer(out.baseAddress!)
            packed.texels.withUnsafeBufferPointer { source in
            let base = SendableSource(source.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: height) { y in
                for x in 0..<width {
                    let normal = HDRImage.direction(x: Double(x) + 0.5, y: Double(y) + 0.5, width: width, height: height)
                    let (t, b) = BRDF.frame(normal)
                    var sum = SIMD3<Float>.zero, weight: Float = 0
                    for i in 0..<n {
                        let h = halfVectors[i]
                        let hw = t * h.x + b * h.y + normal * h.z
                        let l = 2 * h.z * hw - normal
                        let nDotL = (normal * l).sum()
                        guard nDotL > 0 else { continue }
                        sum += packed.sample(base.base, l, level: mips[i]) * nDotL
                        weight += nDotL
                    }
                    let c = weight > 0 ? sum / weight : .zero
                    let o = (y * width + x) * 3
                    pointer.base[o] = c.x; pointer.base[o + 1] = c.y; pointer.base[o + 2] = c.z
                }
            }
            }
            return height
        }
        precondition(rows == height)
        return HDRImage(width: width, height: height, texels: texels)
    }

    /// The environment's projection on the first nine real spherical harmonics, each texel weighed
    /// by its solid angle, then convolved with the clamped cosine (Ramamoorthi and Hanrahan 2001:
    /// bands scaled by π, 2π/3, π/4) and divided by π.
    static func harmonics(_ image: HDRImage) -> [SIMD3<Float>] {
        var c = [SIMD3<Double>](repeating: .zero, count: 9)
        let w = image.width, h = image.height
        for y in 0..<h {
            let theta = (Double(y) + 0.5) / Double(h) * .pi
            let solidAngle = (2 * .pi / Double(w)) * (.pi / Double(h)) * sin(theta)
            for x in 0..<w {
                let d = HDRImage.direction(x: Double(x) + 0.5, y: Double(y) + 0.5, width: w, height: h)
                let (dx, dy, dz) = (Double(d.x), Double(d.y), Double(d.z))
                let t = image.texel(x, y)
                let radiance = SIMD3<Double>(Double(t.x), Double(t.y), Double(t.z)) * solidAngle
                let basis = [0.282_095, 0.488_603 * dy, 0.488_603 * dz, 0.488_603 * dx, 1.092_548 * dx * dy, 1.092_548 * dy * dz,
                             0.315_392 * (3 * dz * dz - 1), 1.092_548 * dx * dz, 0.546_274 * (dx * dx - dy * dy)]
                for k in 0..<9 { c[k] += radiance * basis[k] }
            }
        }
        let band: [Double] = [1, 2.0 / 3, 2.0 / 3, 2.0 / 3, 0.25, 0.25, 0.25, 0.25, 0.25]
        return (0..<9).map { k in SIMD3<Float>(c[k] * band[k]) }
    }
}

/// Levels of equirectangular images, one after another in one buffer.
struct PackedLevels: Sendable, Equatable {
    let texels: [Float]
    /// Per level: where its texels start, its width and height.
    let levels: [SIMD3<Int32>]

    init(texels: [Float], levels: [SIMD3<Int32>]) {
        self.texels = texels
        self.levels = levels
    }

    init(_ images: [HDRImage]) {
        var texels: [Float] = []
        var levels: [SIMD3<Int32>] = []
        texels.reserveCapacity(images.reduce(0) { $0 + $1.texels.count })
        for image in images {
            levels.append(SIMD3(Int32(texels.count), Int32(image.width), Int32(image.height)))
            texels += image.texels
        }
        self.texels = texels
        self.levels = levels
    }

    /// Radiance toward `d` at a fractional level, blended between the two levels around it.
    @inline(__always) func sample(_ t: UnsafePointer<Float>, _ d: SIMD3<Float>, level: Float) -> SIMD3<Float> {
        let last = levels.count - 1
        let l0 = min(Int(level), last), l1 = min(l0 + 1, last)
        let f = min(level - Float(l0), 1)
        // Where the direction lands as a fraction of the map, worked out once for both levels.
        let (u, v) = HDRImage.coordinates(of: d, width: 1, height: 1)
        let a = levels[l0]
        let first = HDRImage.bilinear(t + Int(a.x), width: Int(a.y), height: Int(a.z), x: u * Float(a.y) - 0.5, y: v * Float(a.z) - 0.5)
        guard l1 != l0, f > 0 else { return first }
        let b = levels[l1]
        return first + (HDRImage.bilinear(t + Int(b.x), width: Int(b.y), height: Int(b.z), x: u * Float(b.y) - 0.5, y: v * Float(b.z) - 0.5) - first) * f
    }
}

struct SendableSource: @unchecked Sendable {
    let base: UnsafePointer<Float>
    init(_ base: UnsafePointer<Float>) { self.base = base }
}

/// A buffer's base address handed to `concurrentPerform`'s iterations, each writing rows of its own.
struct SendablePointer: @unchecked Sendable {
    let base: UnsafeMutablePointer<Float>
    init(_ base: UnsafeMutablePointer<Float>) { self.base = base }
}

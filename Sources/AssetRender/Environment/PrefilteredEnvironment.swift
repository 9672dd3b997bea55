import AssetImage

/// An environment made ready to light with: diffuse light as nine spherical-harmonic
/// coefficients of irradiance (already convolved with the cosine lobe and divided by π, so a
/// Lambert surface's radiance is albedo times `diffuse(n)`), and specular light as a chain of
/// equirectangular images, each the environment convolved with the GGX lobe of one roughness.
/// Computed once per environment (`EnvironmentPrefilter`), keyed by its content hash.
public struct PrefilteredEnvironment: Sendable, Equatable {
    /// Nine RGB coefficients, bands 0-2.
    public let irradiance: [SIMD3<Float>]
    /// The hash of the image it was made from (hex), or the name of a built-in environment.
    public let key: String
    /// The levels in one buffer for the shader's lookups, and the only copy of them: the built-in
    /// studio is unpacked straight into it at every start (`BuiltInTables`), where making the
    /// levels and then joining them copied half a megabyte twice.
    let packed: PackedLevels

    public init(irradiance: [SIMD3<Float>], specularLevels: [HDRImage], key: String) {
        self.init(irradiance: irradiance, packed: PackedLevels(specularLevels), key: key)
    }

    init(irradiance: [SIMD3<Float>], packed: PackedLevels, key: String) {
        self.irradiance = irradiance
        self.key = key
        self.packed = packed
    }

    /// Level k holds perceptual roughness k / (count - 1); level 0 is the mirror.
    public var specularLevels: [HDRImage] { packed.levels.indices.map(specularLevel) }

    /// One of `specularLevels`, copied out of the packed buffer alone (the viewer's backdrop is level 0).
    public func specularLevel(_ k: Int) -> HDRImage {
        let level = packed.levels[k]
        let start = Int(level.x), count = Int(level.y) * Int(level.z) * 3
        return HDRImage(width: Int(level.y), height: Int(level.z), texels: Array(packed.texels[start..<(start + count)]))
    }

    /// Darkness: what the headlight carries where it needs no environment.
    static let none = PrefilteredEnvironment(irradiance: Array(repeating: .zero, count: 9),
                                             specularLevels: [HDRImage(width: 1, height: 1, texels: [0, 0, 0])], key: "none")

    /// Irradiance / π from direction `n` (unit, in the environment's Y-up frame).
    @inline(__always) func diffuse(_ n: SIMD3<Float>) -> SIMD3<Float> {
        let c = irradiance
        var e = c[0] * 0.282_095
        e += c[1] * (0.488_603 * n.y) + c[2] * (0.488_603 * n.z) + c[3] * (0.488_603 * n.x)
        e += c[4] * (1.092_548 * n.x * n.y) + c[5] * (1.092_548 * n.y * n.z) + c[6] * (0.315_392 * (3 * n.z * n.z - 1))
        e += c[7] * (1.092_548 * n.x * n.z) + c[8] * (0.546_274 * (n.x * n.x - n.y * n.y))
        return simd_max0(e)
    }

    /// Prefiltered radiance toward `r` (unit, environment frame) for a perceptual roughness,
    /// blended between the two nearest levels.
    @inline(__always) func specular(_ r: SIMD3<Float>, roughness: Float) -> SIMD3<Float> {
        let lod = min(max(roughness, 0), 1) * Float(packed.levels.count - 1)
        return packed.texels.withUnsafeBufferPointer { packed.sample($0.baseAddress!, r, level: lod) }
    }
}

@inline(__always) func simd_max0(_ v: SIMD3<Float>) -> SIMD3<Float> { SIMD3(max(v.x, 0), max(v.y, 0), max(v.z, 0)) }

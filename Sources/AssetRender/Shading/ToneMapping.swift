/// How linear scene light becomes display values in [0, 1] before sRGB encoding.
public enum ToneMapping: String, Sendable, CaseIterable {
    /// Khronos PBR Neutral: colours below 0.76 pass unchanged (hue and saturation kept), brighter ones
    /// roll off toward white. model-viewer's, three.js's and Blender's choice for product pictures.
    case neutral
    /// The ACES filmic curve as three.js applies it (Stephen Hill's fit of the RRT and ODT).
    case aces
    /// Clamp at 1: Blender's "Standard" view.
    case none

    @inline(__always) public func map(_ c: SIMD3<Float>) -> SIMD3<Float> {
        switch self {
        case .neutral: return Self.neutral(c)
        case .aces: return Self.aces(c)
        case .none: return SIMD3(min(max(c.x, 0), 1), min(max(c.y, 0), 1), min(max(c.z, 0), 1))
        }
    }

    /// The Khronos PBR Neutral operator as its specification gives it.
    @inline(__always) static func neutral(_ input: SIMD3<Float>) -> SIMD3<Float> {
        let startCompression: Float = 0.8 - 0.04
        let desaturation: Float = 0.15
        var c = simd_max0(input)
        let x = min(c.x, c.y, c.z)
        let offset: Float = x < 0.08 ? x - 6.25 * x * x : 0.04
        c -= SIMD3(repeating: offset)
        let peak = max(c.x, c.y, c.z)
        guard peak >= startCompression else { return c }
        let d = 1 - startCompression
        let newPeak = 1 - d * d / (peak + d - startCompression)
        c *= newPeak / peak
        let g = 1 - 1 / (desaturation * (peak - newPeak) + 1)
        return c + (SIMD3(repeating: newPeak) - c) * g
    }

    /// Hill's fit: into the ACES working space with the exposure bias three.js uses (1/0.6),
    /// the RRT+ODT rational fit, back to linear Rec.709, clamped.
    @inline(__always) static func aces(_ input: SIMD3<Float>) -> SIMD3<Float> {
        let c = simd_max0(input) / 0.6
        let a = SIMD3<Float>(0.59719 * c.x + 0.35458 * c.y + 0.04823 * c.z,
                             0.07600 * c.x + 0.90834 * c.y + 0.01566 * c.z,
                             0.02840 * c.x + 0.13383 * c.y + 0.83777 * c.z)
        let fitted = (a * (a + 0.024_578_6) - 0.000_090_537) / (a * (0.983_729 * a + 0.432_951) + 0.238_081)
        let o = SIMD3<Float>(1.60475 * fitted.x - 0.53108 * fitted.y - 0.07367 * fitted.z,
                             -0.10208 * fitted.x + 1.10813 * fitted.y - 0.00605 * fitted.z,
                             -0.00327 * fitted.x - 0.07276 * fitted.y + 1.07602 * fitted.z)
        return SIMD3(min(max(o.x, 0), 1), min(max(o.y, 0), 1), min(max(o.z, 0), 1))
    }
}

#if canImport(Glibc)
import AssetImage
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The environment thumbnails are lit by when none is given: a neutral photo studio, as
/// model-viewer's "neutral" and three.js's RoomEnvironment light products. A grey room (darker
/// floor, lighter ceiling) with four soft round lights: a key above and in front (+Z, toward the
/// default views' camera), a top light, a dimmer fill on +X and a rim light behind. Made
/// procedurally, so nothing is shipped or read, and identical on every machine.
/// `Docs/Rendering.md` shows it and a sphere grid lit by it.
public enum StudioEnvironment {
    public static let key = "builtin:studio-1"

    struct Light {
        var direction: SIMD3<Float>
        /// Angular radius of the full-strength disc, and of the soft edge beyond it, in cosines.
        var innerCosine: Float
        var outerCosine: Float
        var radiance: Float
    }

    static let lights: [Light] = [
        light(toward: [0.35, 0.65, 1.0], degrees: 16, radiance: 9),   // key
        light(toward: [0, 1, 0], degrees: 28, radiance: 3.5),         // top
        light(toward: [1.0, 0.25, -0.25], degrees: 20, radiance: 2),  // fill
        light(toward: [-0.7, 0.45, -0.9], degrees: 12, radiance: 5),  // rim
    ]

    static func light(toward d: SIMD3<Float>, degrees: Float, radiance: Float) -> Light {
        let n = d / (d * d).sum().squareRoot()
        let radians = degrees * .pi / 180
        return Light(direction: n, innerCosine: Float(cosf(radians * 0.7)), outerCosine: Float(cosf(radians)), radiance: radiance)
    }

    /// The room's radiance in direction `d`: walls graded from floor to ceiling, plus the lights.
    static func radiance(_ d: SIMD3<Float>) -> Float {
        let up = d.y
        var value: Float = up < 0 ? 0.12 + 0.06 * (1 + up) : 0.18 + 0.22 * up
        for light in lights {
            let c = (light.direction * d).sum()
            guard c > light.outerCosine else { continue }
            let t = min((c - light.outerCosine) / (light.innerCosine - light.outerCosine), 1)
            value += light.radiance * t * t * (3 - 2 * t)
        }
        return value
    }

    /// The studio as an equirectangular image.
    public static func image(width: Int = 512) -> HDRImage {
        let height = width / 2
        var texels = [Float](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let v = radiance(HDRImage.direction(x: Double(x) + 0.5, y: Double(y) + 0.5, width: width, height: height))
                let o = (y * width + x) * 3
                texels[o] = v; texels[o + 1] = v; texels[o + 2] = v
            }
        }
        return HDRImage(width: width, height: height, texels: texels)
    }

    /// The studio prefiltered: as Scripts/generate-studio-tables computed it ahead of time, else
    /// (tables not generated for these sizes) computed the first time it is asked for.
    public static let prefiltered: PrefilteredEnvironment = BuiltInTables.studio() ?? computed()

    /// The studio prefiltered by this build's own code: what the built-in tables must equal.
    static func computed() -> PrefilteredEnvironment { EnvironmentPrefilter.prefilter(image(), key: key) }
}

import AssetCore
import AssetImage
import Foundation
import Testing
@testable import AssetRender

/// Environments that are not images, too large or hold bad numbers; cached prefilters that are damaged.
@Suite struct EnvironmentInputTests {
    @Test func notAnImageIsALocatedError() {
        #expect(throws: AssetError.self) { try EnvironmentDecoder.decode(Array("hello, not an image".utf8), source: "env.hdr") }
        do {
            _ = try EnvironmentDecoder.decode([], source: "empty.hdr")
            Issue.record("an empty environment decoded")
        } catch {
            #expect(error.location.file == "empty.hdr")
            #expect(error.message.contains("empty"))
        }
    }

    @Test func aHeaderPastThePixelBudgetIsRefusedBeforeDecoding() throws {
        let header = Array("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 20000 +X 40000\n".utf8) + [UInt8](repeating: 0, count: 64)
        do {
            _ = try EnvironmentDecoder.decode(header, source: "huge.hdr")
            Issue.record("a 40000 x 20000 environment was accepted")
        } catch {
            guard case .limitExceeded = error.kind else { Issue.record("wrong error: \(error)"); return }
        }
    }

    @Test func aRadianceFileDecodesToLinearLight() throws {
        // Two texels in flat RGBE: (1, 0.5, 0.25) as mantissas 128, 64, 32 with exponent 129.
        let bytes = Array("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 2\n".utf8) + [128, 64, 32, 129, 128, 128, 128, 128]
        let (image, warnings) = try EnvironmentDecoder.decode(bytes)
        #expect(image.width == 2 && image.height == 1)
        #expect(abs(image.texels[0] - 1) < 0.01 && abs(image.texels[1] - 0.5) < 0.01 && abs(image.texels[2] - 0.25) < 0.01)
        #expect(abs(image.texels[3] - 0.5) < 0.01)
        #expect(warnings.isEmpty, "2:1 and finite: \(warnings)")
        // Past `maxWidth` it is halved as it leaves stb_image's buffer: the two texels' mean.
        let (reduced, _) = try EnvironmentDecoder.decode(bytes, maxWidth: 1)
        #expect(reduced.width == 1 && reduced.height == 1)
        #expect(abs(reduced.texels[0] - 0.75) < 0.01 && abs(reduced.texels[1] - 0.5) < 0.01 && abs(reduced.texels[2] - 0.375) < 0.01)
    }

    /// What the service hands the page's RGBELoader decodes (through stb_image) to the same light,
    /// and a turn moves features the way the renderer's rotation does.
    @Test func radianceEncodingRoundTripsAndTurnsLikeTheRenderer() throws {
        let source = PBRScenes.environment(base: SIMD3(0.02, 0.5, 3), spots: [([1, 0, 0], [900, 40, 0.001])], width: 64)
        let (decoded, _) = try EnvironmentDecoder.decode(RadianceEncoder.encode(source))
        // RGBE keeps 8 bits a channel under the texel's brightest channel's exponent.
        var worst: Float = 0
        for i in 0..<(source.width * source.height) {
            let brightest = max(source.texels[3 * i], source.texels[3 * i + 1], source.texels[3 * i + 2])
            for c in 0..<3 { worst = max(worst, abs(decoded.texels[3 * i + c] - source.texels[3 * i + c]) / brightest) }
        }
        #expect(worst < 0.01, "\(worst)")
        // Turned 90° counter-clockwise seen from above, the +X spot is at -Z, as the renderer sees it.
        let turned = RadianceEncoder.turned(source, degrees: 90)
        #expect(turned.sample(SIMD3(0, 0, -1)).x > 100)
        #expect(turned.sample(SIMD3(1, 0, 0)).x < 1)
    }

    @Test func invalidTexelsAreClampedAndCounted() {
        var texels: [Float] = [1, .nan, -2, .infinity, 0.5, 0]
        #expect(EnvironmentDecoder.clampInvalid(&texels) == 3)
        #expect(texels == [1, 0, 0, 0, 0.5, 0])
    }

    @Test func aSerializedPrefilterRoundTripsAndDamageIsCaught() throws {
        let environment = EnvironmentPrefilter.prefilter(PBRScenes.environment(base: SIMD3(0.2, 0.3, 0.4), spots: [([0, 1, 0], [5, 5, 5])], width: 64), key: "sha256:abc")
        let bytes = environment.serialized()
        #expect(try PrefilteredEnvironment(serialized: bytes) == environment)
        var damaged = bytes
        damaged[damaged.count / 2] ^= 0x40
        #expect(throws: AssetError.self) { try PrefilteredEnvironment(serialized: damaged) }
        #expect(throws: AssetError.self) { try PrefilteredEnvironment(serialized: Array(bytes.prefix(bytes.count - 9))) }
        #expect(throws: AssetError.self) { try PrefilteredEnvironment(serialized: Array("ASTCENV2".utf8)) }
    }

    /// The harmonics give a uniform environment's irradiance back exactly, and a sky brighter
    /// above lights an upward face more than a downward one.
    @Test func harmonicsMatchIrradianceWorkedOutByHand() {
        let uniform = EnvironmentPrefilter.prefilter(.uniform(SIMD3(repeating: 0.7)), key: "u")
        for n: SIMD3<Float> in [[0, 1, 0], [1, 0, 0], [0, 0, -1]] { #expect(abs(uniform.diffuse(n).x - 0.7) < 0.005) }
        // Radiance max(y, 0): irradiance/π facing up is 2/3, facing down 0.
        let sky = EnvironmentPrefilter.prefilter(PBRScenes.environment(width: 128, where: { d in SIMD3(repeating: max(d.y, 0)) }), key: "sky")
        #expect(abs(sky.diffuse([0, 1, 0]).x - 2.0 / 3) < 0.03)
        #expect(sky.diffuse([0, -1, 0]).x < 0.03)
    }

    /// The lookup's arctangent against libm's over every octant, axes and zero included.
    @Test func fastArctangentMatchesLibm() {
        var worst: Float = 0
        for i in 0..<720 {
            let angle = Float(i) * .pi / 360 - .pi + 0.0001
            for r: Float in [1e-3, 0.5, 1, 40] {
                let y = r * sinf(angle), x = r * cosf(angle)
                worst = max(worst, abs(HDRImage.fastAtan2(y, x) - atan2f(y, x)))
            }
        }
        for (y, x): (Float, Float) in [(0, 1), (1, 0), (0, -1), (-1, 0), (0, 0)] {
            worst = max(worst, abs(HDRImage.fastAtan2(y, x) - atan2f(y, x)))
        }
        #expect(worst < 3e-6, "\(worst)")
    }
}

import AssetCore
import AssetImage
import Foundation
import Testing
@testable import AssetRender

/// OpenEXR environments written by OpenEXR's own bindings (`Tests/Fixtures/render/make_exr_environments.py`)
/// hold the sky of `sky_64.hdr`: scanline ZIP halves, PIZ float tiles in an offset data window with
/// an alpha channel, PXR24 luminance. Each must read as the Radiance file does.
@Suite struct OpenEXREnvironmentTests {
    static let fixtures = GoldenImageTests.repository.appendingPathComponent("Tests/Fixtures/render")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    /// The largest difference, relative to the texel's brightest channel (RGBE keeps 8 bits under it).
    static func worstDifference(_ a: HDRImage, _ b: HDRImage) -> Float {
        var worst: Float = 0
        for i in 0..<(a.width * a.height) {
            let brightest = max(b.texels[3 * i], b.texels[3 * i + 1], b.texels[3 * i + 2], 1e-6)
            for c in 0..<3 { worst = max(worst, abs(a.texels[3 * i + c] - b.texels[3 * i + c]) / brightest) }
        }
        return worst
    }

    @Test(arguments: ["sky_64.exr", "sky_64_tiled.exr"])
    func readsAsTheRadianceFileDoes(_ name: String) throws {
        let (radiance, _) = try EnvironmentDecoder.decode(try Self.bytes("sky_64.hdr"))
        let (exr, warnings) = try EnvironmentDecoder.decode(try Self.bytes(name), source: name)
        #expect(exr.width == 64 && exr.height == 32)
        #expect(Self.worstDifference(exr, radiance) < 0.012, "\(Self.worstDifference(exr, radiance))")
        if name == "sky_64_tiled.exr" {
            #expect(warnings.map(\.message) == ["1 OpenEXR channels that are not R, G, B or Y are not light and are left out"])
        } else {
            #expect(warnings.isEmpty, "\(warnings)")
        }
    }

    @Test func luminanceIsGrey() throws {
        let (radiance, _) = try EnvironmentDecoder.decode(try Self.bytes("sky_64.hdr"))
        let (exr, _) = try EnvironmentDecoder.decode(try Self.bytes("sky_64_luminance.exr"))
        var worst: Float = 0
        for i in 0..<(exr.width * exr.height) {
            let mean = (radiance.texels[3 * i] + radiance.texels[3 * i + 1] + radiance.texels[3 * i + 2]) / 3
            #expect(exr.texels[3 * i] == exr.texels[3 * i + 1] && exr.texels[3 * i] == exr.texels[3 * i + 2])
            worst = max(worst, abs(exr.texels[3 * i] - mean) / max(mean, 1e-6))
        }
        #expect(worst < 0.012, "\(worst)")
    }

    @Test func pastThePixelBudgetIsRefused() throws {
        let bytes = try Self.bytes("sky_64.exr")
        do {
            _ = try EnvironmentDecoder.decode(bytes, source: "sky.exr", maxPixels: 1000)
            Issue.record("a 64 x 32 EXR passed a 1000-texel budget")
        } catch {
            guard case .limitExceeded = error.kind else { Issue.record("wrong error: \(error)"); return }
            #expect(error.location.file == "sky.exr")
        }
    }

    /// Every truncation, and a damaged byte at every offset, is an error or an image: never a crash.
    @Test(arguments: ["sky_64.exr", "sky_64_luminance.exr"])
    func damagedFilesAreErrors(_ name: String) throws {
        let bytes = try Self.bytes(name)
        var refused = 0
        for length in stride(from: 0, to: bytes.count, by: 7) {
            do { _ = try EnvironmentDecoder.decode(Array(bytes.prefix(length)), source: name) } catch {
                refused += 1
                #expect(error.location.file == name)
            }
        }
        #expect(refused > bytes.count / 7 / 2, "most truncations must be refused (\(refused))")
        for offset in 0..<bytes.count {
            var damaged = bytes
            damaged[offset] ^= 0xA5
            do { _ = try EnvironmentDecoder.decode(damaged, source: name) } catch {
                #expect(error.location.file == name)
            }
        }
    }
}

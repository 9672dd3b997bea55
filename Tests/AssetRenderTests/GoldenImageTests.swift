import AssetCore
import AssetImage
import AssetKit
import AssetPipeline
import Foundation
import Testing
@testable import AssetRender

/// The sample assets' thumbnails against reviewed golden PNGs, with a per-pixel tolerance.
/// `ASSETC_RECORD_GOLDEN=1 swift test --filter GoldenImageTests` re-records them; a recording run
/// fails, so a new baseline is never accepted without a look.
@Suite struct GoldenImageTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let golden = repository.appendingPathComponent("Tests/Fixtures/render/golden")
    static let samples = ["Assets/SceneKitAssetCatalog.scnassets/LoomisHead.usdz", "Assets/SceneKitAssetCatalog.scnassets/LoomisHead/LoomisHead.usda", "Assets/Art.scnassets/ship.dae"]

    @Test(arguments: samples)
    func sampleMatchesGolden(_ sample: String) throws {
        let result = try FormatRegistry.standard.read(Self.repository.appendingPathComponent(sample))
        var options = RenderOptions()
        options.textureBytes = { TextureBytes.load($0) }
        let rendered = try Renderer.render(result.scene, options: options)
        #expect(rendered.diagnostics.isEmpty, "\(rendered.diagnostics)")
        let name = sample.replacingOccurrences(of: "/", with: "_") + ".png"
        let url = Self.golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["ASSETC_RECORD_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.golden, withIntermediateDirectories: true)
            try Data(try PNGCodec.encode(rendered.image)).write(to: url)
            Issue.record("recorded \(name); look at it, then run again without ASSETC_RECORD_GOLDEN")
            return
        }
        let expected = try PNGCodec.decode([UInt8](try Data(contentsOf: url)))
        #expect(expected.width == rendered.image.width && expected.height == rendered.image.height)
        var off = 0
        for i in stride(from: 0, to: expected.pixels.count, by: 4) {
            let differs = (0..<4).contains { abs(Int(expected.pixels[i + $0]) - Int(rendered.image.pixels[i + $0])) > 3 }
            if differs { off += 1 }
        }
        // Float rounding may move a few edge pixels across toolchains; anything more is a change.
        #expect(off <= expected.width * expected.height / 200, "\(off) pixels differ from \(name)")
    }
}

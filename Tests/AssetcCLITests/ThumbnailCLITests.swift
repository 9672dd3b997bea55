import AssetTestSupport
import Foundation
import Testing

@Suite struct ThumbnailCLITests {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func foldersRenderMirroredWithAGalleryAndFailuresDoNotStopTheRest() throws {
        let temporary = TemporaryFolder("assetc-thumbs")
        let work = temporary.url
        let art = work.appendingPathComponent("Art.scnassets")
        try FileManager.default.createDirectory(at: art.appendingPathComponent("textures"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repository.appendingPathComponent("Assets/Art.scnassets/ship.dae"), to: art.appendingPathComponent("ship.dae"))
        try FileManager.default.copyItem(at: repository.appendingPathComponent("Assets/Art.scnassets/textures/planks.png"),
                                         to: art.appendingPathComponent("textures/planks.png"))
        try Data("#usda 1.0\ndef Mesh \"Broken\" {\n  int[] faceVertexCounts = [3\n".utf8).write(to: art.appendingPathComponent("broken.usda"))
        let out = work.appendingPathComponent("thumbs")
        let run = try AssetcBinary.run(["thumbnail", art.path, "--out", out.path, "--size", "64", "--html"])
        #expect(run.status == 1, "a failed file makes the exit status non-zero")
        #expect(run.stderr.contains("broken.usda:3:28: '[' is never closed"), "the failure is reported where the bracket opens")
        #expect(run.stdout.contains("1 thumbnails written"))
        let png = out.appendingPathComponent("Art.scnassets/ship.dae.png")
        let bytes = [UInt8](try Data(contentsOf: png))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(Int(bytes[16]) << 24 | Int(bytes[17]) << 16 | Int(bytes[18]) << 8 | Int(bytes[19]) == 64, "width from the IHDR chunk")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("Art.scnassets/textures/planks.png.png").path),
                "textures are not assets")
        let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("Art.scnassets/ship.dae.png"))
        #expect(html.contains("<h2>Failed</h2>"))
        // Same input, same bytes.
        let again = try AssetcBinary.run(["thumbnail", art.appendingPathComponent("ship.dae").path, "--out", work.appendingPathComponent("again").path, "--size", "64"])
        #expect(again.status == 0)
        #expect(try Data(contentsOf: work.appendingPathComponent("again/ship.dae.png")) == Data(bytes))
    }

    @Test func badOptionsAreUsageErrors() throws {
        #expect(try AssetcBinary.run(["thumbnail", "x", "--out", "y", "--view", "sideways"]).status == 64)
        #expect(try AssetcBinary.run(["thumbnail", "x", "--out", "y", "--background", "red"]).status == 64)
        #expect(try AssetcBinary.run(["thumbnail", "x", "--out", "y", "--camera-position", "1,2,3"]).status == 64)
    }

    @Test func vectorAndNumberOptionsTakeANegativeFirstValueAsWritten() throws {
        let temporary = TemporaryFolder("assetc-negative")
        let head = repository.appendingPathComponent("Assets/SceneKitAssetCatalog.scnassets/LoomisHead.usdz").path
        let spaced = temporary.url.appendingPathComponent("spaced"), joined = temporary.url.appendingPathComponent("joined")
        let run = try AssetcBinary.run(["thumbnail", head, "--out", spaced.path, "--size", "32", "--camera-position", "-4.5,0.6,0",
                                        "--camera-target", "-0.1,0.3,0", "--exposure", "-1", "--environment-rotation", "-90"])
        #expect(run.status == 0, "\(run.stderr)")
        let same = try AssetcBinary.run(["thumbnail", head, "--out", joined.path, "--size", "32", "--camera-position=-4.5,0.6,0",
                                         "--camera-target=-0.1,0.3,0", "--exposure=-1", "--environment-rotation=-90"])
        #expect(same.status == 0, "\(same.stderr)")
        // Both spellings give the same picture: the values were read, not dropped for defaults.
        #expect(try Data(contentsOf: spaced.appendingPathComponent("LoomisHead.usdz.png"))
                == Data(contentsOf: joined.appendingPathComponent("LoomisHead.usdz.png")))
        let plain = temporary.url.appendingPathComponent("plain")
        #expect(try AssetcBinary.run(["thumbnail", head, "--out", plain.path, "--size", "32"]).status == 0)
        #expect(try Data(contentsOf: spaced.appendingPathComponent("LoomisHead.usdz.png"))
                != Data(contentsOf: plain.appendingPathComponent("LoomisHead.usdz.png")), "the camera and look changed the picture")
    }

    @Test func framebuffersOverTheSampleBudgetAreRefusedBeforeRendering() throws {
        for (size, supersample) in [("8192", "2"), ("4096", "8")] {
            let run = try AssetcBinary.run(["thumbnail", "Assets", "--out", "y", "--size", size, "--supersample", supersample])
            #expect(run.status == 64, "--size \(size) --supersample \(supersample)")
            #expect(run.stderr.contains("at most 67108864 fit the renderer's memory budget"), "\(run.stderr)")
        }
    }
}

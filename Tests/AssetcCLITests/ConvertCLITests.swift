import AssetTestSupport
import Foundation
import Testing

@Suite struct ConvertCLITests {
    let temporary = TemporaryFolder("assetc-cli-convert")
    var folder: URL { temporary.url }
    let ship = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets/Art.scnassets/ship.dae")

    @Test func convertsAndTheResultReadsBackWithTheSameFigures() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("ship.usdz").path
        let run = try AssetcBinary.run(["convert", ship.path, out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("wrote \(out)"))
        let before = try JSONSerialization.jsonObject(with: Data(try AssetcBinary.run(["info", "--json", ship.path]).stdout.utf8)) as? [String: Any]
        let after = try JSONSerialization.jsonObject(with: Data(try AssetcBinary.run(["info", "--json", out]).stdout.utf8)) as? [String: Any]
        for key in ["meshes", "points", "faces", "triangles", "materials", "textures"] {
            #expect("\(before?[key] ?? "-")" == "\(after?[key] ?? "-")", "\(key)")
        }
        // A usdz follows ARKit's rules: the Z-up ship is turned to Y up, and says so.
        #expect(before?["upAxis"] as? String == "Z")
        #expect(after?["upAxis"] as? String == "Y")
    }

    @Test func upAxisAndUnitOptionsApply() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("ship-y.usda").path
        let run = try AssetcBinary.run(["convert", "--up-axis", "y", "--meters-per-unit", "0.01", ship.path, out])
        #expect(run.status == 0, "\(run.stderr)")
        let info = try JSONSerialization.jsonObject(with: Data(try AssetcBinary.run(["info", "--json", out]).stdout.utf8)) as? [String: Any]
        #expect(info?["upAxis"] as? String == "Y")
        #expect(info?["metersPerUnit"] as? Double == 0.01)
        // The mast (5.15 m up Z in the source) now rises 515 cm up Y.
        let bounds = info?["bounds"] as? [String: [Double]]
        #expect(abs((bounds?["max"]?[1] ?? 0) - 515) < 0.01)
    }

    @Test func errorsExitWithTheirStatus() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let unsupported = try AssetcBinary.run(["convert", ship.path, folder.appendingPathComponent("x.3ds").path])
        #expect(unsupported.status == 2)
        #expect(unsupported.stderr.contains("supported formats: usda, usdc, usdz, dae, gltf, glb, obj, stl, ply, spz, fbx"))
        let missing = try AssetcBinary.run(["convert", "no/such.dae", folder.appendingPathComponent("x.glb").path])
        #expect(missing.status == 3)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.glb").path), "nothing written on failure")
        let badAxis = try AssetcBinary.run(["convert", "--up-axis", "w", ship.path, folder.appendingPathComponent("x.glb").path])
        #expect(badAxis.status == 64)
    }
}

@Suite struct ConvertWarningTests {
    @Test func formatsThatNeedTrianglesSayWhatTheySplit() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/usd/ngons_concave.usda").path
        let temporary = TemporaryFolder("assetc-ngons")
        try FileManager.default.createDirectory(at: temporary.url, withIntermediateDirectories: true)
        let out = temporary.appendingPathComponent("ngons.glb").path
        let run = try AssetcBinary.run(["convert", source, out])
        #expect(run.status == 0)
        #expect(run.stderr == "assetc: warning: glb holds triangles only: 2 polygons with more than 3 vertices were triangulated\n")
        let asked = try AssetcBinary.run(["convert", "--force", "--triangulate", source, out])
        #expect(asked.stderr.isEmpty, "no warning when the user asked for triangles")
    }
}

import AssetKit
import Foundation
import Testing

/// What another Swift package gets from `.product(name: "AssetKit", package: "assetc")` and
/// `import AssetKit` alone: this target names no other module of assetc, and no catalog engine is
/// in AssetKit's build (Scripts/check-imports checks its dependency closure).
@Suite struct AssetKitAloneTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// A scratch folder removed when the test's body returns or throws.
    func inScratchFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("assetkit-alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { _ = try? FileManager.default.removeItem(at: folder) }  // cleanup only: the body's outcome is what is tested
        return try body(folder)
    }

    @Test func convertsAGLTFToAnARKitValidUsdz() throws {
        try inScratchFolder { folder in
            let input = Self.fixtures.appendingPathComponent("gltf/materials.gltf").path
            let output = folder.appendingPathComponent("materials.usdz").path

            // README.md's example, with the fixtures for models/.
            var options = ConvertOptions()
            options.readOptions = ReadOptions().rooted(at: Self.fixtures.appendingPathComponent("gltf").path)
            let report = try ConvertUseCase().run(input: input, output: output, options: options)
            #expect(report.format == .usdz)
            #expect(report.writtenFiles == [output])
            #expect(FileManager.default.fileExists(atPath: output))

            let outcomes = ValidateUseCase().run(files: [output])
            guard case .report(let verdict)? = outcomes.first else {
                Issue.record("the usdz assetc wrote could not be validated: \(outcomes)")
                return
            }
            #expect(verdict.format == .usdz)
            #expect(verdict.errorCount == 0, "findings: \(verdict.findings.map(\.message))")
        }
    }

    @Test func validationFindsWhatIsWrong() throws {
        let file = Self.fixtures.appendingPathComponent("validate/missing_texture.usda").path
        guard case .report(let verdict)? = ValidateUseCase().run(files: [file]).first else {
            Issue.record("missing_texture.usda could not be validated")
            return
        }
        #expect(verdict.errorCount > 0)
        #expect(verdict.findings.contains { $0.location.file?.hasSuffix("missing_texture.usda") == true })
    }

    @Test func aFileThatIsNoAssetIsALocatedError() throws {
        try inScratchFolder { folder in
            let input = folder.appendingPathComponent("notes.txt")
            try Data("not a model\n".utf8).write(to: input)
            #expect(throws: AssetError.self) {
                try ConvertUseCase().run(input: input.path, output: folder.appendingPathComponent("notes.usdz").path, options: ConvertOptions())
            }
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("notes.usdz").path), "no half-written output")
        }
    }
}

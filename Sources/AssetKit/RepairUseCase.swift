import AssetCore
import AssetImage
import AssetPipeline
import AssetRender
import AssetValidate
import Foundation

/// `assetc validate FILE --fix OUT.usdz`: a repaired copy of one USD file, packaged for AR Quick
/// Look, with the verdict on the input and on the copy, so the report says what changed and what
/// is still wrong. A copy past the budget (`--budget`) is brought under it by `convert`'s passes.
/// The input is only read; the copy is written atomically.
public struct RepairUseCase: Sendable {
    package var registry: FormatRegistry = .standard
    public var options: ReadOptions
    public var budget = ValidationBudget()

    public init(options: ReadOptions = ReadOptions()) {
        self.options = options
    }

    public struct Outcome: Sendable {
        public var output: String
        public var before: ValidationReport
        public var changes: [ValidationChange]
        public var skipped: [ValidationChange]
        public var after: ValidationReport
    }

    public func run(file: String, output: String, force: Bool) throws(AssetError) -> Outcome {
        guard output.lowercased().hasSuffix(".usdz") else {
            throw AssetError(.unsupportedFormat("--fix writes a usdz package, the form AR Quick Look takes; name the output .usdz",
                                                supported: [AssetFormat.usdz.name]), at: SourceLocation(file: output))
        }
        if AssetRoot.real(file) == AssetRoot.real(output) {
            throw AssetError(.io("--fix never writes over its input; name another output"), at: SourceLocation(file: output))
        }
        let match = try registry.reader(for: URL(fileURLWithPath: file), staged: options.staged)
        guard match.format.isUSD else {
            throw AssetError(.unsupportedFormat("--fix repairs USD files (usda, usdc, usdz); this is \(match.format.name), convert it to usdz first",
                                                supported: AssetFormat.allCases.filter(\.isUSD).map(\.name)),
                             at: SourceLocation(file: file))
        }
        let validator = AssetValidator(options: options, budget: budget)
        let before = try validator.validate(path: file, format: match.format)
        let repaired = try validator.repair(path: file, transcode: Self.pngFromLegacyImage)
        let name = (output as NSString).lastPathComponent
        _ = try AtomicOutput.write([OutputFile(relativePath: name, bytes: repaired.bytes)], mainPath: output, force: force)
        // The copy is self-contained, so it is checked with its own folder as the asset root.
        var copyOptions = options
        copyOptions.assetRoot = .assetFolder
        copyOptions.allowsPathsOutsideAsset = false
        var after = try AssetValidator(options: copyOptions, budget: budget).validate(path: output, format: .usdz)
        var changes = repaired.changes
        if after.findings.contains(where: { $0.rule == ARKitRule.budget.rawValue }) {
            changes += try shrinkToBudget(output, options: copyOptions)
            after = try AssetValidator(options: copyOptions, budget: budget).validate(path: output, format: .usdz)
        }
        return Outcome(output: output, before: before, changes: changes, skipped: repaired.skipped, after: after)
    }

    /// A copy past the budget is converted once more, in place, through `convert`'s budget passes
    /// (simplification, texture shrinking, the size tries), each change reported under BudgetChecker.
    private func shrinkToBudget(_ copy: String, options: ReadOptions) throws(AssetError) -> [ValidationChange] {
        var convert = ConvertOptions()
        convert.format = .usdz
        convert.force = true
        convert.readOptions = options
        convert.maxTriangles = budget.triangles
        convert.maxTextureSize = budget.textureSize
        convert.maxOutputBytes = budget.fileBytes
        var useCase = ConvertUseCase(registry: registry)
        useCase.checksGLTF = false
        let report = try useCase.run(input: copy, output: copy, options: convert)
        let here = SourceLocation(file: copy)
        var changes = report.simplification.map {
            ValidationChange(rule: .budget, message: "simplified \($0.mesh): \($0.trianglesBefore) -> \($0.trianglesAfter) triangles", location: here)
        }
        changes += report.shrunkTextures.map {
            ValidationChange(rule: .budget, message: "texture \($0.texture): \($0.widthBefore)x\($0.heightBefore) -> \($0.width)x\($0.height)", location: here)
        }
        changes += report.diagnostics.map { ValidationChange(rule: .budget, message: "while shrinking: " + $0.message, location: here) }
        return changes
    }

    private static let pngFromLegacyImage: TextureTranscoder = { bytes, _ throws(AssetError) in
        // By content: stb_image's, TIFF and DDS; a GIF's later frames and the like are named in the change.
        TranscodedTexture(png: try PNGCodec.encode(try ImageDecoder.decode(bytes)), leftOut: ImageDecoder.leftOut(of: bytes))
    }
}

import AssetCore
import AssetPipeline
import Foundation

/// `convert --json`: one entry per conversion, in the order given (Docs/CLI.md has the contract).
public struct ConvertJSON: Encodable {
    struct Conversion: Encodable {
        var input: String
        var output: String
        var format: AssetFormat?
        var sourceFormat: AssetFormat?
        var files: [String]
        /// Every written file's bytes together.
        var bytes: Int
        var warnings: [Diagnostic]
        var simplification: [ConvertUseCase.SimplifiedMesh]
        var textures: [ShrinkTexturesPass.TextureReport]
        /// The outputs `--max-size` found too large, before the one written.
        var sizeTries: [SizeTry]
        /// Why the conversion failed; nothing was written.
        var error: Diagnostic?
    }

    var conversions: [Conversion]
    var converted: Int
    var failed: Int

    /// One conversion that succeeded (a failed one exits with its error on standard error).
    public init(input: String, output: String, report: ConvertUseCase.Report) {
        conversions = [Self.conversion(input: input, output: output, report: report)]
        (converted, failed) = (1, 0)
    }

    /// Many conversions into `folder`, failed ones with their error.
    public init(_ outcomes: [BatchConvertUseCase.Outcome], folder: String) {
        conversions = outcomes.map { outcome in
            let output = AssetSources.joined(folder, outcome.job.output)
            if let report = outcome.report { return Self.conversion(input: outcome.job.input, output: output, report: report) }
            return Conversion(input: outcome.job.input, output: output, files: [], bytes: 0, warnings: [], simplification: [], textures: [],
                              sizeTries: [], error: outcome.error.map { Diagnostic(.error, $0.message, at: $0.location) })
        }
        failed = conversions.filter { $0.error != nil }.count
        converted = conversions.count - failed
    }

    private static func conversion(input: String, output: String, report: ConvertUseCase.Report) -> Conversion {
        Conversion(input: input, output: output, format: report.format, sourceFormat: report.sourceFormat, files: report.writtenFiles,
                   bytes: report.bytesWritten, warnings: report.diagnostics, simplification: report.simplification,
                   textures: report.shrunkTextures, sizeTries: report.sizeTries)
    }
}

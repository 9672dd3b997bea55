import AssetCore
import AssetValidate

/// `validate --json`: one entry per file, in the order given (Docs/CLI.md has the contract).
public struct ValidationJSON: Encodable {
    struct File: Encodable {
        var file: String
        var format: AssetFormat?
        var errors: Int
        var warnings: Int
        var infos: Int
        var hints: Int
        var failingRules: [String]
        var findings: [ValidationFinding]
        /// Why the file could not be validated at all.
        var error: Diagnostic?
    }

    var files: [File]
    var errors: Int
    var warnings: Int

    public init(_ outcomes: [ValidateUseCase.Outcome]) {
        files = outcomes.map { outcome in
            switch outcome {
            case .report(let report):
                return File(file: report.file, format: report.format, errors: report.errorCount, warnings: report.warningCount,
                            infos: report.infoCount, hints: report.hintCount, failingRules: report.failingRules, findings: report.findings)
            case .failed(let file, let error):
                return File(file: file, errors: 1, warnings: 0, infos: 0, hints: 0, failingRules: [], findings: [],
                            error: Diagnostic(.error, error.message, at: error.location))
            }
        }
        errors = files.reduce(0) { $0 + $1.errors }
        warnings = files.reduce(0) { $0 + $1.warnings }
    }
}

import AssetCore
import AssetValidate

/// How `validate --fix` reports: what was changed, what could not be, and the verdict on the input
/// and on the repaired copy (Docs/CLI.md has the JSON contract).
public struct RepairJSON: Encodable {
    struct Verdict: Encodable {
        var file: String
        var errors: Int
        var warnings: Int
        var failingRules: [String]
        var findings: [ValidationFinding]

        init(_ report: ValidationReport) {
            file = report.file
            errors = report.errorCount
            warnings = report.warningCount
            failingRules = report.failingRules
            findings = report.findings
        }
    }

    var input: Verdict
    var output: Verdict
    var changes: [ValidationChange]
    var skipped: [ValidationChange]

    public init(_ outcome: RepairUseCase.Outcome) {
        input = Verdict(outcome.before)
        output = Verdict(outcome.after)
        changes = outcome.changes
        skipped = outcome.skipped
    }
}

public enum RepairTextFormatter {
    public static func format(_ outcome: RepairUseCase.Outcome) -> String {
        let input = TerminalText.safe(outcome.before.file)
        let output = TerminalText.safe(outcome.output)
        var lines = ["\(output): repaired copy of \(input), \(count(outcome.changes.count, "change"))"]
        for change in outcome.changes {
            let location = change.location.isUnknown ? "" : " (\(TerminalText.safe(change.location.description)))"
            lines.append("  fixed \(change.rule): \(TerminalText.safe(change.message))\(location)")
        }
        for skipped in outcome.skipped {
            lines.append("  not fixed \(skipped.rule): \(TerminalText.safe(skipped.message))")
        }
        lines.append("  before: \(verdict(outcome.before)); after: \(verdict(outcome.after))")
        if let remaining = ValidationTextFormatter.format(.report(outcome.after)), !outcome.after.findings.isEmpty {
            lines.append(remaining)
        }
        return lines.joined(separator: "\n")
    }

    private static func verdict(_ report: ValidationReport) -> String {
        "\(count(report.errorCount, "error")), \(count(report.warningCount, "warning"))"
            + (report.failingRules.isEmpty ? "" : " (" + report.failingRules.joined(separator: ", ") + ")")
    }

    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}

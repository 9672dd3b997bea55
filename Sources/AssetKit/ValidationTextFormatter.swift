import AssetCore
import AssetValidate

/// The readable report: per file, findings grouped by rule, each with its location.
public enum ValidationTextFormatter {
    /// nil for a file that could not be validated: the command reports those as errors on stderr.
    public static func format(_ outcome: ValidateUseCase.Outcome) -> String? {
        switch outcome {
        case .failed:
            return nil
        case .report(let report):
            let gltf = report.format == .gltf || report.format == .glb
            guard !report.findings.isEmpty else { return "\(TerminalText.safe(report.file)): \(gltf ? "no glTF validation issues" : "passes the ARKit rules")" }
            var head = "\(TerminalText.safe(report.file)): \(count(report.errorCount, "error")), \(count(report.warningCount, "warning"))"
            if report.infoCount + report.hintCount > 0 { head += ", \(count(report.infoCount, "info")), \(count(report.hintCount, "hint"))" }
            var lines = [head]
            var byRule: [String: [ValidationFinding]] = [:]
            for finding in report.findings { byRule[finding.rule, default: []].append(finding) }
            for rule in byRule.keys.sorted() {
                let findings = byRule[rule]!
                let summary = ARKitRule(rawValue: rule)?.summary ?? GLTFIssue.named(rule)?.summary ?? ""
                lines.append("  \(rule): \(summary)")
                for finding in findings {
                    let location = finding.location.isUnknown ? "" : TerminalText.safe(finding.location.description) + ": "
                    let fix = finding.fixable ? " [fixable]" : ""
                    lines.append("    \(finding.severity.rawValue): \(location)\(TerminalText.safe(finding.message))\(fix)")
                }
            }
            return lines.joined(separator: "\n")
        }
    }

    /// The closing line after several files.
    public static func summary(_ outcomes: [ValidateUseCase.Outcome]) -> String {
        let reports = outcomes.compactMap { if case .report(let r) = $0 { r } else { nil } }
        let failed = outcomes.count - reports.count
        let clean = reports.count { $0.findings.isEmpty }
        let errors = reports.reduce(0) { $0 + $1.errorCount }
        let warnings = reports.reduce(0) { $0 + $1.warningCount }
        var text = "\(count(outcomes.count, "file")): \(clean) clean, \(count(errors, "error")), \(count(warnings, "warning"))"
        if failed > 0 { text += ", \(failed) could not be validated" }
        return text
    }

    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 || noun == "info" ? "" : "s")" }
}

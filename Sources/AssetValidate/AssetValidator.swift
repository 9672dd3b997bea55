import AssetCore

/// What `assetc validate` says about one file.
public struct ValidationReport: Sendable, Codable {
    public var file: String
    /// The format the file was read as (`usdz`, `usda`, `usdc`; with `--target usdz`, the source's).
    public var format: AssetFormat
    public var findings: [ValidationFinding]

    public init(file: String, format: AssetFormat, findings: [ValidationFinding]) {
        self.file = file
        self.format = format
        self.findings = findings
    }

    public var errorCount: Int { findings.count { $0.severity == .error } }
    public var warningCount: Int { findings.count { $0.severity == .warning } }
    /// glTF's two lower grades: worth a look, never a failure.
    public var infoCount: Int { findings.count { $0.severity == .info } }
    public var hintCount: Int { findings.count { $0.severity == .hint } }

    /// The rules with at least one error, by name, sorted.
    public var failingRules: [String] { Set(findings.filter { $0.severity == .error }.map(\.rule)).sorted() }
}

/// Checks USD stages against OpenUSD's ARKit profile. Rules read the facts a USD read records (layers,
/// packages, dependencies, composed prims), not only the Scene, because most ARKit rules are about
/// how an asset is written, which the Scene deliberately forgets.
public struct AssetValidator: Sendable {
    public static let usdExtensions: Set<String> = ["usd", "usda", "usdc", "usdz"]

    public var options: ReadOptions
    /// Limits past which BudgetChecker warns; `.none` for no budget checks.
    public var budget: ValidationBudget

    public init(options: ReadOptions = ReadOptions(), budget: ValidationBudget = ValidationBudget()) {
        self.options = options
        self.budget = budget
    }

    /// Validates one USD file; a file that cannot be opened at all is an error, not a report.
    /// `contents`: the whole file when the caller has already read it.
    public func validate(path: String, format: AssetFormat, contents: [UInt8]? = nil) throws(AssetError) -> ValidationReport {
        var findings = try USDStageValidator.validate(path: path, options: options, budget: budget, contents: contents)
        findings.sort { ($0.rule, $0.location.file ?? "", $0.location.line ?? 0, $0.message) < ($1.rule, $1.location.file ?? "", $1.location.line ?? 0, $1.message) }
        return ValidationReport(file: path, format: format, findings: findings)
    }

    /// A repaired copy of a USD file as a usdz package, with what was changed and what could not
    /// be; the file itself is only read. `transcode` turns textures in other formats into PNG.
    public func repair(path: String, transcode: @escaping TextureTranscoder) throws(AssetError) -> RepairedPackage {
        try USDStageFixer.repair(path: path, options: options, transcode: transcode)
    }
}

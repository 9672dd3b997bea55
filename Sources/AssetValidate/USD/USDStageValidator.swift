import AssetCore
import FormatUSD

/// Runs the ARKit rules over one USD stage (usda, usdc or usdz).
enum USDStageValidator {
    static func validate(path: String, options: ReadOptions) throws(AssetError) -> [ValidationFinding] {
        try USDStageInspector.inspect(path: path, options: options) { facts in
            check(USDRuleContext(facts: facts)).findings
        }
    }

    static func check(_ context: USDRuleContext) -> USDFindings {
        var findings = USDFindings()
        PackageRules.check(context, into: &findings)
        StageRules.check(context, into: &findings)
        PrimRules.check(context, into: &findings)
        ShaderRules.check(context, into: &findings)
        return findings
    }
}

import AssetCore
import FormatUSD

/// Runs the ARKit rules over one USD stage (usda, usdc or usdz).
enum USDStageValidator {
    static func validate(path: String, options: ReadOptions, budget: ValidationBudget,
                         contents: [UInt8]? = nil) throws(AssetError) -> [ValidationFinding] {
        try USDStageInspector.inspect(path: path, options: options, contents: contents) { facts in
            check(USDRuleContext(facts: facts, budget: budget)).findings
        }
    }

    static func check(_ context: USDRuleContext) -> USDFindings {
        var findings = USDFindings()
        PackageRules.check(context, into: &findings)
        StageRules.check(context, into: &findings)
        PrimRules.check(context, into: &findings)
        ShaderRules.check(context, into: &findings)
        ShaderRules.checkMaterialXOnly(context, into: &findings)
        MeshRules.check(context, into: &findings)
        SplatRules.check(context, into: &findings)
        GeomSubsetRules.check(context, into: &findings)
        BudgetRules.check(context, into: &findings)
        return findings
    }
}

import AssetCore
import FormatUSD

/// What the rules found over one stage and, for each finding a layer edit repairs, that edit.
/// The rule that sees a problem names its repair, so `--fix` never re-derives what is wrong.
struct USDFindings {
    private(set) var findings: [ValidationFinding] = []
    private(set) var repairs: [USDRepair] = []

    mutating func append(_ finding: ValidationFinding) {
        findings.append(finding)
    }

    /// A finding that `repair` makes go away; it is reported as fixable.
    mutating func append(_ finding: ValidationFinding, repair: USDRepair) {
        var fixable = finding
        fixable.fixable = true
        findings.append(fixable)
        repairs.append(repair)
    }
}

/// One edit of the layers that repairs a finding. Package-level repairs (layout, compression,
/// stray entries, textures in other formats, files outside the package) need no edit: rebuilding
/// the package makes them.
enum USDRepair {
    /// Author a root-layer metadata value usd-core would otherwise fall back to.
    case layerMetadata(key: String, value: USDValue, rule: ARKitRule)
    /// Name the first defined root prim as the defaultPrim.
    case chooseDefaultPrim
    /// Turn a Z-up stage Y-up: rotate every root prim by -90 degrees about X, then say upAxis = "Y".
    case rotateToYUp
    /// Apply an API schema on the prim's strongest spec.
    case applySchema(String, prim: USDComposedPrim, rule: ARKitRule)
    /// Author `inputs:<name>` values on a shader's strongest spec.
    case setInputs(shader: USDComposedPrim, [USDPropertySpec], rule: ARKitRule)
}

import AssetCore
import FormatUSD

/// The rules about the stage as a whole: its metadata, what it depends on, its layers.
enum StageRules {
    static func check(_ context: USDRuleContext, into findings: inout USDFindings) {
        checkMetadata(context, into: &findings)
        checkReferences(context, into: &findings)
        checkLayers(context, into: &findings)
    }

    /// Only the root layer's metadata counts: usd-core reads stage metadata from it alone.
    private static func checkMetadata(_ context: USDRuleContext, into findings: inout USDFindings) {
        let root = context.facts.stage.rootLayer
        let here = SourceLocation(file: root.name)
        if root.upAxis == nil {
            // usd-core's fallback is Y, so authoring it changes nothing but the rule's verdict.
            findings.append(ValidationFinding(rule: .stageMetadata, message: "the stage does not declare upAxis (ARKit expects \"Y\")",
                                              location: here),
                            repair: .layerMetadata(key: "upAxis", value: .string("Y"), rule: .stageMetadata))
        } else if let upAxis = root.upAxis, upAxis != "Y" {
            let finding = ValidationFinding(rule: .stageMetadata, message: "upAxis is \"\(upAxis)\"; ARKit expects \"Y\"",
                                            location: here, validators: [])
            if upAxis == "Z" { findings.append(finding, repair: .rotateToYUp) } else { findings.append(finding) }
        }
        if root.metersPerUnit == nil {
            // 0.01 is usd-core's fallback (centimetres): the stage keeps its size.
            findings.append(ValidationFinding(rule: .stageMetadata, message: "the stage does not declare metersPerUnit", location: here),
                            repair: .layerMetadata(key: "metersPerUnit", value: .number(0.01), rule: .stageMetadata))
        }
        let defaultPrim = root.defaultPrim ?? ""
        if defaultPrim.isEmpty {
            appendDefaultPrim(ValidationFinding(rule: .stageMetadata, message: "the stage names no defaultPrim", location: here,
                                                validators: ["usdValidation:StageMetadataChecker"]), context, into: &findings)
        } else if !context.facts.stage.prims.contains(where: { $0.name == defaultPrim }) {
            appendDefaultPrim(ValidationFinding(rule: .stageMetadata, message: "defaultPrim \"\(defaultPrim)\" is not a root prim of the stage",
                                                location: here, validators: ["usdValidation:StageMetadataChecker"]), context, into: &findings)
        }
    }

    /// Repairable when there is a defined root prim to name.
    private static func appendDefaultPrim(_ finding: ValidationFinding, _ context: USDRuleContext, into findings: inout USDFindings) {
        if context.facts.stage.prims.contains(where: \.isDefined) {
            findings.append(finding, repair: .chooseDefaultPrim)
        } else {
            findings.append(finding)
        }
    }

    private static func checkReferences(_ context: USDRuleContext, into findings: inout USDFindings) {
        // A variant selection naming no variant is not a composition error to usd-core: it
        // composes nothing for that set and says nothing.
        for problem in context.facts.compositionProblems where !problem.message.hasPrefix("variant '") {
            findings.append(ValidationFinding(rule: .missingReference, message: problem.message, location: problem.location,
                                              validators: ["usdValidation:CompositionErrorTest"]))
        }
        for dependency in context.facts.dependencies where dependency.resolved == nil {
            let why = dependency.problem.map { ": \($0)" } ?? ""
            findings.append(ValidationFinding(rule: .missingReference, message: "@\(dependency.assetPath)@ does not resolve\(why)",
                                              location: dependency.location))
        }
    }

    private static func checkLayers(_ context: USDRuleContext, into findings: inout USDFindings) {
        for layer in context.facts.layers {
            let name: String
            switch layer.location {
            case .file(let path): name = path
            case .packageEntry(_, let entry): name = entry
            }
            let fileExtension = PackageRules.fileExtension(name).lowercased()
            if !["usd", "usda", "usdc", "usdz"].contains(fileExtension) {
                findings.append(ValidationFinding(rule: .arkitLayer, message: "layer '\(layer.location)' is not a usd, usda, usdc or usdz file",
                                                  location: SourceLocation(file: layer.name), fixable: true))
            }
        }
        // The rule usdchecker ran before 24.11 and AR Quick Look on iOS 12 still needs: a package
        // holding one layer, a crate. A warning, since current usdchecker no longer fails it.
        guard case .packageEntry(_, let entry) = context.facts.rootLayerLocation else { return }
        let here = SourceLocation(file: context.facts.rootLayerLocation.description)
        if PackageRules.fileExtension(entry) != "usdc" {
            findings.append(ValidationFinding(rule: .arkitRootLayer, severity: .warning,
                                              message: "the package's root layer '\(entry)' is not a usdc crate; iOS 12 reads only usdc",
                                              location: here, fixable: true))
        }
        if context.facts.layers.count > 1 {
            findings.append(ValidationFinding(rule: .arkitRootLayer, severity: .warning,
                                              message: "the stage reads \(context.facts.layers.count) layers; iOS 12 reads a package's first layer only",
                                              location: here))
        }
    }
}

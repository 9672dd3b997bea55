import AssetCore
import FormatUSD

/// The rules about prims: their types, their nesting, and the schemas their bindings need.
enum PrimRules {
    /// The prim types AR Quick Look renders (usd-core 24.11's ARKitPrimTypeChecker list);
    /// `RealityKit*` types are allowed too.
    static let arkitPrimTypes: Set<String> = [
        "", "Scope", "Xform", "Camera", "Shader", "Material", "Mesh", "Sphere", "Cube", "Cylinder", "Cone", "Capsule",
        "GeomSubset", "Points", "SkelRoot", "Skeleton", "SkelAnimation", "BlendShape", "SpatialAudio", "PhysicsScene",
        "Preliminary_ReferenceImage", "Preliminary_Text", "Preliminary_Trigger",
    ]

    /// The properties SkelBindingAPI defines.
    static let skelBindingProperties = [
        "skel:blendShapeTargets", "skel:blendShapes", "skel:animationSource", "primvars:skel:jointWeights", "skel:skeleton",
        "skel:joints", "primvars:skel:skinningMethod", "primvars:skel:jointIndices", "primvars:skel:geomBindTransform",
    ]

    static func check(_ context: USDRuleContext, into findings: inout USDFindings) {
        // Per traversed prim: whether it or an ancestor is a gprim, and its nearest connectable
        // ancestor-or-self, so nesting is checked in one pass.
        var isOrUnderGprim: [Bool] = []
        var connectableSelfOrAncestor: [Int?] = []
        isOrUnderGprim.reserveCapacity(context.prims.count)
        connectableSelfOrAncestor.reserveCapacity(context.prims.count)
        for (index, entry) in context.prims.enumerated() {
            let prim = entry.prim
            var here: SourceLocation { USDRuleContext.location(of: prim) }  // made only for a finding
            let parentUnderGprim = entry.parent.map { isOrUnderGprim[$0] } ?? false
            isOrUnderGprim.append(parentUnderGprim || USDSchemaKinds.gprims.contains(prim.typeName))
            let isConnectable = USDSchemaKinds.isConnectable(prim.typeName)
            let parentConnectable = entry.parent.flatMap { connectableSelfOrAncestor[$0] }
            connectableSelfOrAncestor.append(isConnectable ? index : parentConnectable)

            if !arkitPrimTypes.contains(prim.typeName) && !prim.typeName.hasPrefix("RealityKit") {
                findings.append(ValidationFinding(rule: .arkitPrimType, message: "prim type '\(prim.typeName)' is not one AR Quick Look renders",
                                                  location: here))
            }
            if USDSchemaKinds.boundables.contains(prim.typeName) && parentUnderGprim {
                findings.append(ValidationFinding(rule: .primEncapsulation, message: "\(prim.typeName) <\(prim.path)> is nested under a gprim",
                                                  location: here))
            }
            if isConnectable, let parent = entry.parent.map({ context.prims[$0].prim }) {
                if USDSchemaKinds.isConnectable(parent.typeName) {
                    if !USDSchemaKinds.isContainer(parent.typeName) {
                        findings.append(ValidationFinding(
                            rule: .primEncapsulation, message: "\(prim.typeName) <\(prim.path)> is inside \(parent.typeName) <\(parent.path)>, which holds no shading prims",
                            location: here, validators: ["usdShadeValidators:EncapsulationRulesValidator"]))
                    }
                } else if let ancestor = entry.parent.flatMap({ connectableSelfOrAncestor[$0] }) {
                    let container = context.prims[ancestor].prim
                    findings.append(ValidationFinding(
                        rule: .primEncapsulation,
                        message: "\(prim.typeName) <\(prim.path)> sits in \(parent.typeName.isEmpty ? "an untyped prim" : parent.typeName) <\(parent.path)> inside \(container.typeName) <\(container.path)>; only containers may come between",
                        location: here, validators: ["usdShadeValidators:EncapsulationRulesValidator"]
                            + (container.typeName == "Material" && !parent.typeName.isEmpty ? ["usdShadeValidators:EncapsulationMaterialValidator"] : [])))
                }
            }
            checkBindings(prim, index: index, context, into: &findings)
        }
    }

    private static func checkBindings(_ prim: USDComposedPrim, index: Int, _ context: USDRuleContext, into findings: inout USDFindings) {
        var here: SourceLocation { USDRuleContext.location(of: prim) }  // made only for a finding
        let bindings = prim.properties.values.filter { $0.isRelationship && $0.name.hasPrefix("material:binding") }.sorted { $0.name < $1.name }
        if !bindings.isEmpty && !prim.hasAPI("MaterialBindingAPI") {
            findings.append(ValidationFinding(rule: .materialBindingAPIApplied,
                                              message: "<\(prim.path)> binds a material but does not apply MaterialBindingAPI",
                                              location: here),
                            repair: .applySchema("MaterialBindingAPI", prim: prim, rule: .materialBindingAPIApplied))
        }
        for binding in bindings {
            var bindingHere: SourceLocation { USDRuleContext.location(of: prim, property: binding) }
            switch binding.targets.count {
            case 1:
                if !isMaterial(binding.targets[0], context) {
                    findings.append(ValidationFinding(rule: .arkitMaterialBinding,
                                                      message: "\(binding.name) targets <\(binding.targets[0])>, which is not a Material",
                                                      location: bindingHere))
                }
            case 2:
                if !isMaterial(binding.targets[1], context) {
                    findings.append(ValidationFinding(rule: .arkitMaterialBinding,
                                                      message: "\(binding.name) targets <\(binding.targets[1])>, which is not a Material",
                                                      location: bindingHere))
                }
                if !isCollection(binding.targets[0], context) {
                    findings.append(ValidationFinding(rule: .arkitMaterialBinding,
                                                      message: "\(binding.name) names the collection <\(binding.targets[0])>, which is not defined",
                                                      location: bindingHere))
                }
            default:
                break
            }
        }
        if prim.hasAPI("SkelBindingAPI") {
            let underSkelRoot = prim.typeName == "SkelRoot" || context.ancestors(of: index).contains { $0.typeName == "SkelRoot" }
            if !underSkelRoot {
                findings.append(ValidationFinding(rule: .skelBindingAPIApplied,
                                                  message: "<\(prim.path)> applies SkelBindingAPI outside any SkelRoot, so nothing skins it",
                                                  location: here, validators: ["usdSkelValidators:SkelBindingApiValidator"]))
            }
        } else if let property = skelBindingProperties.first(where: { prim.properties[$0] != nil }) {
            let finding = ValidationFinding(rule: .skelBindingAPIApplied, message: "<\(prim.path)> has \(property) but does not apply SkelBindingAPI",
                                            location: here)
            // Applied outside a SkelRoot, the API would break the rule's other half instead.
            let underSkelRoot = prim.typeName == "SkelRoot" || context.ancestors(of: index).contains { $0.typeName == "SkelRoot" }
            if underSkelRoot {
                findings.append(finding, repair: .applySchema("SkelBindingAPI", prim: prim, rule: .skelBindingAPIApplied))
            } else {
                findings.append(finding)
            }
        }
    }

    private static func isMaterial(_ path: String, _ context: USDRuleContext) -> Bool {
        context.byPath[path]?.typeName == "Material"
    }

    /// `/Prim.collection:name`: the prim applies `CollectionAPI:name`.
    private static func isCollection(_ path: String, _ context: USDRuleContext) -> Bool {
        guard let dot = path.firstIndex(of: "."), path[path.index(after: dot)...].hasPrefix("collection:") else { return false }
        let name = path[path.index(dot, offsetBy: 12)...]
        return context.byPath[String(path[..<dot])]?.hasAPI("CollectionAPI:\(name)") ?? false
    }
}

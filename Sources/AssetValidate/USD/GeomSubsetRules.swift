import AssetCore
import FormatUSD

/// GeomSubsets as OpenUSD's validation framework checks them (`usdGeomValidators:SubsetFamilies`,
/// `SubsetParentIsImageable`, `usdShadeValidators:SubsetsMaterialBindFamily`), under assetc's
/// GeomSubsetChecker since usdchecker has none.
/// A family's type lives on the parent (`subsetFamily:NAME:familyType`, "unrestricted" when not
/// authored): every family's indices name elements; a nonOverlapping or partition family uses each
/// element once; a partition uses every element; the materialBind family must be restricted.
enum GeomSubsetRules {
    static func check(_ context: USDRuleContext, into findings: inout USDFindings) {
        var byParent: [Int: [USDComposedPrim]] = [:]
        for entry in context.prims where entry.prim.typeName == "GeomSubset" {
            guard let parent = entry.parent, USDSchemaKinds.imageables.contains(context.prims[parent].prim.typeName) else {
                let parentPath = entry.parent.map { context.prims[$0].prim.path } ?? "the pseudo-root"
                findings.append(ValidationFinding(rule: .geomSubsets, message: "<\(entry.prim.path)> is a GeomSubset under <\(parentPath)>, which is not Imageable",
                                                  location: USDRuleContext.location(of: entry.prim),
                                                  validators: ["usdGeomValidators:SubsetParentIsImageable"]))
                continue
            }
            byParent[parent, default: []].append(entry.prim)
            let isBound = entry.prim.relationships.contains { $0.name.hasPrefix("material:binding") }
            // What the framework's SubsetMaterialBindFamilyName describes; usd-core 26.11's validator
            // reports nothing for it on any fixture, so this is a warning under no framework id.
            if isBound && entry.prim.token("familyName") != "materialBind" {
                findings.append(ValidationFinding(rule: .geomSubsets, severity: .warning,
                                                  message: "<\(entry.prim.path)> binds a material but its familyName is not 'materialBind', so renderers may ignore the binding",
                                                  location: USDRuleContext.location(of: entry.prim), validators: []))
            }
        }
        for (parent, subsets) in byParent.sorted(by: { $0.key < $1.key }) {
            checkFamilies(subsets, of: context.prims[parent].prim, into: &findings)
        }
    }

    private static func checkFamilies(_ subsets: [USDComposedPrim], of parent: USDComposedPrim, into findings: inout USDFindings) {
        var families: [String: [USDComposedPrim]] = [:]
        for subset in subsets {
            guard let family = subset.token("familyName"), !family.isEmpty else { continue }
            families[family, default: []].append(subset)
        }
        let here = USDRuleContext.location(of: parent)
        for (family, members) in families.sorted(by: { $0.key < $1.key }) {
            let familyType = parent.token("subsetFamily:\(family):familyType") ?? "unrestricted"
            if family == "materialBind" && familyType == "unrestricted" {
                findings.append(ValidationFinding(rule: .geomSubsets,
                                                  message: "<\(parent.path)>'s materialBind subsets are an unrestricted family; they must be nonOverlapping or a partition",
                                                  location: here, validators: ["usdShadeValidators:SubsetsMaterialBindFamily"]))
            }
            if let problem = familyProblem(members, of: parent, familyType: familyType) {
                findings.append(ValidationFinding(rule: .geomSubsets, message: "<\(parent.path)>'s subset family '\(family)': \(problem)",
                                                  location: here, validators: ["usdGeomValidators:SubsetFamilies"]))
            }
        }
    }

    /// What makes a family invalid, as UsdGeomSubset::ValidateFamily judges it, or nil.
    private static func familyProblem(_ members: [USDComposedPrim], of parent: USDComposedPrim, familyType: String) -> String? {
        let elementTypes = Set(members.map { $0.token("elementType") ?? "face" })
        guard elementTypes.count == 1, let elementType = elementTypes.first else { return "its subsets have different element types" }
        guard let count = elementCount(of: parent, elementType: elementType) else { return nil }
        var used = [Bool](repeating: false, count: count)
        var covered = 0
        for subset in members {
            guard let property = subset.properties["indices"], let value = USDRuleContext.value(property),
                  let indices = value.int32s else { continue }
            for index in indices {
                guard index >= 0 else { return "<\(subset.path)> has the negative index \(index)" }
                guard Int(index) < count else { return "<\(subset.path)> names \(elementType) \(index); there are \(count)" }
                if used[Int(index)] {
                    if familyType != "unrestricted" { return "\(elementType) \(index) is in more than one subset of a \(familyType) family" }
                } else {
                    used[Int(index)] = true
                    covered += 1
                }
            }
        }
        if familyType == "partition" && covered != count { return "a partition leaves \(count - covered) of \(count) \(elementType)s out" }
        return nil
    }

    /// How many faces (or points) the parent has; nil when it has no such elements to name.
    private static func elementCount(of parent: USDComposedPrim, elementType: String) -> Int? {
        let name = elementType == "point" ? "points" : "faceVertexCounts"
        guard parent.typeName == "Mesh", let property = parent.properties[name], let value = USDRuleContext.value(property) else { return nil }
        if elementType == "point" { return (value.flatNumbers?.count ?? 0) / 3 }
        guard let counts = value.int32s else { return nil }
        return counts.count
    }
}

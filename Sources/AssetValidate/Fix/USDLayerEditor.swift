import AssetCore
import FormatUSD

/// Applies the rules' repairs to copies of a stage's layers. Each edit lands on the spec whose
/// opinion the rule read (the prim's strongest spec, the root layer's metadata), so the composed
/// stage changes in exactly the way the rule asks and in no other.
struct USDLayerEditor {
    private(set) var layers: [USDLayer]
    /// Indexes of the layers an edit touched; the others are carried over byte for byte.
    private(set) var edited: Set<Int> = []
    private(set) var changes: [ValidationChange] = []
    /// Repairs that could not be made, and why.
    private(set) var skipped: [ValidationChange] = []
    private let context: USDRuleContext
    private let rootIndex: Int

    init(context: USDRuleContext) {
        self.context = context
        layers = context.facts.layers
        rootIndex = layers.firstIndex { $0.location == context.facts.rootLayerLocation } ?? 0
    }

    mutating func apply(_ repairs: [USDRepair]) {
        for repair in repairs {
            switch repair {
            case .layerMetadata(let key, let value, let rule):
                setRootMetadata(key, value, rule: rule, message: "set \(key) to \(Self.describe(value))")
            case .chooseDefaultPrim:
                chooseDefaultPrim()
            case .rotateToYUp:
                rotateToYUp()
            case .applySchema(let schema, let prim, let rule):
                editStrongestSpec(of: prim, rule: rule, message: "applied \(schema) to <\(prim.path)>") { spec in
                    let applied = spec.metadata["apiSchemas"]?.strings ?? []
                    guard !applied.contains(schema) else { return }
                    spec.metadata["apiSchemas"] = .list((applied + [schema]).map { .string($0) })
                }
            case .setInputs(let shader, let inputs, let rule):
                let described = inputs.map { "\($0.name) = \(Self.describe($0.defaultValue ?? .none))" }.joined(separator: ", ")
                editStrongestSpec(of: shader, rule: rule, message: "set \(described) on <\(shader.path)>") { spec in
                    for input in inputs { Self.author(input, on: &spec) }
                }
            }
        }
    }

    private mutating func setRootMetadata(_ key: String, _ value: USDValue, rule: ARKitRule, message: String) {
        guard layers[rootIndex].metadata[key] != value else { return }
        layers[rootIndex].metadata[key] = value
        edited.insert(rootIndex)
        changes.append(ValidationChange(rule: rule, message: message, location: SourceLocation(file: layers[rootIndex].name)))
    }

    /// The first defined, non-abstract root prim, as a reader picking one would.
    private mutating func chooseDefaultPrim() {
        guard let first = context.facts.stage.prims.first(where: { $0.isDefined }) else {
            skip(.stageMetadata, "no defined root prim to name as the defaultPrim")
            return
        }
        setRootMetadata("defaultPrim", .string(first.name), rule: .stageMetadata, message: "set defaultPrim to \"\(first.name)\"")
    }

    /// Types whose prims take xformOps.
    private static let xformable: Set<String> = USDSchemaKinds.boundables.union(USDSchemaKinds.lights).union(["Xform", "Camera"])

    /// Z up to Y up is a -90 degree turn about X (Z goes to Y, Y to -Z), put first in each root
    /// prim's op order so whatever the prim already does happens in the Z-up frame it was made in.
    private mutating func rotateToYUp() {
        let roots = context.facts.stage.prims.filter(\.isDefined)
        if let stuck = roots.first(where: { !Self.xformable.contains($0.typeName) && Self.holdsGeometry($0) }) {
            skip(.stageMetadata, "upAxis stays \"Z\": root prim <\(stuck.path)> (\(stuck.typeName.isEmpty ? "untyped" : stuck.typeName)) holds geometry but takes no transform to turn it Y up")
            return
        }
        for root in roots where Self.xformable.contains(root.typeName) {
            let order = root.properties["xformOpOrder"].flatMap(USDRuleContext.value)?.strings ?? []
            var newOrder = order
            newOrder.insert("xformOp:rotateX:zUpToYUp", at: order.first == "!resetXformStack!" ? 1 : 0)
            editStrongestSpec(of: root, rule: .stageMetadata, message: "turned <\(root.path)> -90 degrees about X (xformOp:rotateX:zUpToYUp)") { spec in
                Self.author(.attribute("xformOp:rotateX:zUpToYUp", "float", .number(-90)), on: &spec)
                Self.author(.attribute("xformOpOrder", "token[]", .list(newOrder.map { .string($0) }), uniform: true), on: &spec)
            }
        }
        setRootMetadata("upAxis", .string("Y"), rule: .stageMetadata, message: "set upAxis to \"Y\"")
    }

    private mutating func skip(_ rule: ARKitRule, _ reason: String) {
        skipped.append(ValidationChange(rule: rule, message: reason, location: SourceLocation(file: layers[rootIndex].name)))
    }

    private static func holdsGeometry(_ prim: USDComposedPrim) -> Bool {
        USDSchemaKinds.boundables.contains(prim.typeName) || prim.children.contains(where: holdsGeometry)
    }

    /// Replaces (or adds) a property on a spec: the authored value wins over anything weaker.
    private static func author(_ property: USDPropertySpec, on spec: inout USDPrimSpec) {
        var authored = property
        if let at = spec.properties.firstIndex(where: { $0.name == property.name }) {
            authored.line = spec.properties[at].line
            authored.metadata = spec.properties[at].metadata
            spec.properties[at] = authored
        } else {
            spec.properties.append(authored)
        }
    }

    /// Finds the spec a composed prim's strongest opinion came from (by its file and line, else by
    /// its path in that layer) and edits it.
    private mutating func editStrongestSpec(of prim: USDComposedPrim, rule: ARKitRule, message: String, _ edit: (inout USDPrimSpec) -> Void) {
        guard let layerIndex = layers.firstIndex(where: { $0.name == prim.location.file }) else {
            skip(rule, "<\(prim.path)>: its strongest spec is in no layer the fix can rewrite")
            return
        }
        var found = false
        let line = prim.location.line ?? 0
        for index in layers[layerIndex].rootPrims.indices {
            if Self.edit(&layers[layerIndex].rootPrims[index], path: "/" + layers[layerIndex].rootPrims[index].name,
                         matching: prim, line: line, edit) {
                found = true
                break
            }
        }
        guard found else {
            skip(rule, "<\(prim.path)>: its spec was not found in \(layers[layerIndex].location)")
            return
        }
        edited.insert(layerIndex)
        changes.append(ValidationChange(rule: rule, message: message, location: USDRuleContext.location(of: prim)))
    }

    /// Depth first through children and variant bodies; a spec matches by line where the layer
    /// has lines (text), by path where it has none (crate).
    private static func edit(_ spec: inout USDPrimSpec, path: String, matching prim: USDComposedPrim, line: Int,
                             _ edit: (inout USDPrimSpec) -> Void) -> Bool {
        let matches = line > 0 ? (spec.line == line && spec.name == prim.name) : path == prim.path
        if matches {
            edit(&spec)
            return true
        }
        for index in spec.children.indices where Self.edit(&spec.children[index], path: path + "/" + spec.children[index].name,
                                                          matching: prim, line: line, edit) {
            return true
        }
        guard line > 0 else { return false }
        for (setName, variants) in spec.variantSets {
            for (variantName, var body) in variants where Self.edit(&body, path: path, matching: prim, line: line, edit) {
                spec.variantSets[setName]?[variantName] = body
                return true
            }
        }
        return false
    }

    static func describe(_ value: USDValue) -> String {
        switch value {
        case .string(let s), .word(let s): return "\"\(s)\""
        case .number(let d): return NumberText.double(d)
        case .tuple(let t): return "(" + t.map(NumberText.double).joined(separator: ", ") + ")"
        default: return "\(value)"
        }
    }
}

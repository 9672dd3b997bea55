import AssetCore
import FormatUSD

/// The facts the USD rules read, with the composed prims laid out flat in traversal order.
/// Traversal follows usd-core's default predicate: defined, active, non-abstract prims, with
/// instance proxies expanded; a prim that is skipped hides its subtree.
struct USDRuleContext {
    struct Prim {
        var prim: USDComposedPrim
        /// Index of the parent in `prims`; nil for a root prim.
        var parent: Int?
    }

    let facts: USDStageFacts
    let budget: ValidationBudget
    /// Traversed prims, depth first, children cleared (they are entries of their own).
    private(set) var prims: [Prim] = []
    /// Every composed prim by path, traversed or not: relationship targets may name any of them.
    private(set) var byPath: [String: USDComposedPrim] = [:]

    init(facts: USDStageFacts, budget: ValidationBudget = .none) {
        self.facts = facts
        self.budget = budget
        for root in facts.stage.prims { add(root, parent: nil, traversed: true) }
    }

    private mutating func add(_ prim: USDComposedPrim, parent: Int?, traversed: Bool) {
        var flat = prim
        flat.children = []
        let visits = traversed && prim.isDefined && prim.isActive
        var index: Int?
        if visits {
            prims.append(Prim(prim: flat, parent: parent))
            index = prims.count - 1
        }
        byPath[prim.path] = flat
        for child in prim.children { add(child, parent: index, traversed: visits) }
    }

    /// Ancestors of the prim at `index`, nearest first.
    func ancestors(of index: Int) -> [USDComposedPrim] {
        var result: [USDComposedPrim] = []
        var next = prims[index].parent
        while let at = next {
            result.append(prims[at].prim)
            next = prims[at].parent
        }
        return result
    }

    /// A property's value as usd-core's `Get(EarliestTime)` sees it: the earliest sample, else the default.
    static func value(_ property: USDComposedProperty) -> USDValue? { property.earliestValue }

    /// Where a finding about a prim points: its strongest spec's file and line, and its path.
    static func location(of prim: USDComposedPrim, property: USDComposedProperty? = nil) -> SourceLocation {
        var location = prim.location
        location.elementPath = prim.path
        if let property {
            location.file = property.layer.description
            location.line = property.spec.line > 0 ? property.spec.line : nil
            location.elementPath = prim.path + "." + property.name
        }
        return location
    }
}

extension USDComposedPrim {
    func hasAPI(_ name: String) -> Bool { appliedSchemas.contains(name) }

    var relationships: [USDComposedProperty] { properties.values.filter(\.isRelationship) }

    /// `inputs:` attributes, in name order so findings come out in a stable order.
    var inputs: [USDComposedProperty] {
        properties.values.filter { !$0.isRelationship && $0.name.hasPrefix("inputs:") }.sorted { $0.name < $1.name }
    }

    /// A token- or string-valued attribute's value.
    func token(_ name: String) -> String? {
        properties[name].flatMap(USDRuleContext.value)?.stringValue
    }
}

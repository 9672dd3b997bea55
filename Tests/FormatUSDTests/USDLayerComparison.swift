@testable import FormatUSD

/// Differences between two layer documents, values compared to a relative tolerance (crate files
/// store `float` values as 32-bit where text parses to the nearest Double).
enum USDLayerComparison {
    /// Metadata the usda parser keeps but that crate files hold as structure instead.
    static let structural: Set<String> = ["variantSets"]

    static func differences(_ a: USDLayer, _ b: USDLayer) -> [String] {
        var out: [String] = []
        compare(a.metadata, b.metadata, "layer", &out)
        if a.subLayers != b.subLayers { out.append("subLayers \(a.subLayers) != \(b.subLayers)") }
        compare(a.rootPrims, b.rootPrims, "", &out)
        return out
    }

    static func compare(_ a: [USDPrimSpec], _ b: [USDPrimSpec], _ parent: String, _ out: inout [String]) {
        guard a.map(\.name) == b.map(\.name) else { out.append("\(parent) children \(a.map(\.name)) != \(b.map(\.name))"); return }
        for (x, y) in zip(a, b) { compare(x, y, parent + "/" + x.name, &out) }
    }

    static func compare(_ a: USDPrimSpec, _ b: USDPrimSpec, _ path: String, _ out: inout [String]) {
        if a.specifier != b.specifier { out.append("\(path) specifier") }
        if a.typeName != b.typeName { out.append("\(path) typeName \(a.typeName) != \(b.typeName)") }
        if a.references.map(\.assetPath) != b.references.map(\.assetPath) || a.references.map(\.primPath) != b.references.map(\.primPath) {
            out.append("\(path) references")
        }
        if a.payloads.map(\.assetPath) != b.payloads.map(\.assetPath) { out.append("\(path) payloads") }
        if a.inherits != b.inherits { out.append("\(path) inherits \(a.inherits) != \(b.inherits)") }
        if a.variantSelections != b.variantSelections { out.append("\(path) variant selections") }
        compare(a.metadata, b.metadata, path, &out)
        guard a.properties.map(\.name) == b.properties.map(\.name) else {
            out.append("\(path) properties \(a.properties.map(\.name)) != \(b.properties.map(\.name))"); return
        }
        for (p, q) in zip(a.properties, b.properties) {
            let where_ = "\(path).\(p.name)"
            if p.typeName != q.typeName { out.append("\(where_) typeName \(p.typeName) != \(q.typeName)") }
            if p.isRelationship != q.isRelationship || p.isUniform != q.isUniform { out.append("\(where_) kind or variability") }
            if p.targets != q.targets { out.append("\(where_) targets \(String(describing: p.targets)) != \(String(describing: q.targets))") }
            if !same(p.defaultValue, q.defaultValue) { out.append("\(where_) default \(String(describing: p.defaultValue)) != \(String(describing: q.defaultValue))") }
            let ps = p.timeSamples ?? [], qs = q.timeSamples ?? []
            if ps.count != qs.count || zip(ps, qs).contains(where: { $0.time != $1.time || !same($0.value, $1.value) }) {
                out.append("\(where_) time samples")
            }
            compare(p.metadata, q.metadata, where_, &out)
        }
        compare(a.children, b.children, path, &out)
        guard a.variantSets.keys.sorted() == b.variantSets.keys.sorted() else { out.append("\(path) variant sets"); return }
        for (set, variants) in a.variantSets {
            guard let other = b.variantSets[set], variants.keys.sorted() == other.keys.sorted() else { out.append("\(path) variants of \(set)"); continue }
            for (name, body) in variants { compare(body, other[name]!, "\(path){\(set)=\(name)}", &out) }
        }
    }

    static func compare(_ a: [String: USDValue], _ b: [String: USDValue], _ path: String, _ out: inout [String]) {
        let keys = Set(a.keys).union(b.keys).subtracting(structural)
        for key in keys.sorted() where !same(a[key], b[key]) {
            out.append("\(path) metadata \(key): \(String(describing: a[key])) != \(String(describing: b[key]))")
        }
    }

    static func same(_ a: USDValue?, _ b: USDValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (.some(let x), .some(let y)): return same(x, y)
        default: return false
        }
    }

    static func same(_ a: USDValue, _ b: USDValue) -> Bool {
        switch (a, b) {
        case (.dictionary(let x), .dictionary(let y)):
            guard x.map(\.key).sorted() == y.map(\.key).sorted() else { return false }
            return x.allSatisfy { e in same(e.value, y.first { $0.key == e.key }!.value) }
        case (.list(let x), .list(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.asset(let x), .asset(let y)), (.path(let x), .path(let y)):
            return x == y
        case (.bool, _), (_, .bool):
            // usda writes bools as true/false or 1/0; crate stores bools.
            return a.boolValue != nil && a.boolValue == b.boolValue
        default:
            if let x = a.flatNumbers, let y = b.flatNumbers, !(a.stringValue != nil) {
                return x.count == y.count && zip(x, y).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) || abs($0 - $1) <= 1e-6 * max(1, abs($0)) }
            }
            if let x = a.stringValue, let y = b.stringValue { return x == y }
            if let x = a.strings, let y = b.strings { return x == y }
            return a == b
        }
    }
}

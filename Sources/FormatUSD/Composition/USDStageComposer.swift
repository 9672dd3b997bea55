import AssetCore

/// One prim spec contributing opinions to a composed prim, with what is needed to read it.
struct USDContribution {
    var spec: USDPrimSpec
    /// The layer (id in the cache) that holds the spec.
    var layer: Int
    /// The layer stack the spec's own arcs resolve in (internal references, inherits).
    var stack: [Int]
    /// The spec's path in its own layer's namespace.
    var sourcePath: String
    var mapping: USDPathMapping
}

/// The composed stage: the root layer's metadata and the composed prim tree.
public struct USDComposedStage {
    public var rootLayer: USDLayer
    public var prims: [USDComposedPrim]
}

/// Composes the subset of USD that real assets use: sublayers, references and payloads (internal and
/// external, to a prim path or the defaultPrim), `over` merging, inherits from `class` prims, and
/// variant selections. Opinions are ordered as USD's LIVRPS strength rule orders them: local, then
/// inherits, variants, references, payloads, each level expanded recursively. Instanceable prims
/// are expanded like any other prim. Composition problems (a missing file, a refused path, a
/// cycle) are warnings; the rest of the stage still composes.
///
/// Each arc target (layer stack and path) contributes its opinions to a prim once: a target
/// reached again through another arc of the same prim adds nothing its first visit did not, so it
/// is skipped rather than expanded again, which keeps crafted fan-outs (a class inherited twice at
/// every level) linear. What composition does still multiply (prims brought in by references of
/// references) is charged to the read's budget as it goes.
final class USDStageComposer {
    static let maxArcDepth = 32

    let cache: USDLayerCache
    let budget: ReadBudget
    var limits: ReadLimits { budget.limits }
    /// Each problem once: prims composed through the same broken arc meet it again.
    var diagnostics: [Diagnostic] {
        var seen: Set<Diagnostic> = []
        return found.filter { seen.insert($0).inserted }
    }
    private var found: [Diagnostic] = []
    private var primCount = 0
    /// Each layer's name as locations give it, made once rather than once per prim.
    private var layerNames: [Int: String] = [:]

    init(cache: USDLayerCache, budget: ReadBudget) {
        self.cache = cache
        self.budget = budget
    }

    func composeStage(rootLayer: Int) throws(AssetError) -> USDComposedStage {
        let stack = cache.stack(root: rootLayer, diagnostics: &found)
        let roots = stack.map { id in
            USDContribution(spec: rootPseudoSpec(cache.layer(id)), layer: id, stack: stack, sourcePath: "", mapping: .identity)
        }
        let prims = try composeChildren(of: roots, parentPath: "", depth: 1, arcChain: [])
        return USDComposedStage(rootLayer: cache.layer(rootLayer), prims: prims)
    }

    /// A layer's top-level prims hang under a spec standing for the pseudo-root `/`.
    private func rootPseudoSpec(_ layer: USDLayer) -> USDPrimSpec {
        var spec = USDPrimSpec(specifier: .over, typeName: "", name: "", line: 0)
        spec.children = layer.rootPrims
        return spec
    }

    private func composeChildren(of parents: [USDContribution], parentPath: String, depth: Int,
                                 arcChain: Set<String>) throws(AssetError) -> [USDComposedPrim] {
        if parents.count == 1, let only = try composeOnlyParentChildren(parents[0], parentPath: parentPath, depth: depth, arcChain: arcChain) {
            return only
        }
        // Names in USD's order: weakest opinion first, stronger ones adding names after.
        var order: [String] = []
        var seen: Set<String> = []
        var byName: [[String: USDPrimSpec]] = []
        byName.reserveCapacity(parents.count)
        for parent in parents {
            var map: [String: USDPrimSpec] = [:]
            for child in parent.spec.children where map[child.name] == nil { map[child.name] = child }
            byName.append(map)
        }
        for parent in parents.reversed() {
            for child in parent.spec.children where !seen.contains(child.name) {
                seen.insert(child.name)
                order.append(child.name)
            }
        }
        var result: [USDComposedPrim] = []
        result.reserveCapacity(order.count)
        for name in order {
            let path = parentPath + "/" + name
            var sites: [USDContribution] = []
            for (i, parent) in parents.enumerated() {
                guard let spec = byName[i][name] else { continue }
                let sourcePath = parent.sourcePath + "/" + name
                sites.append(USDContribution(spec: spec, layer: parent.layer, stack: parent.stack,
                                             sourcePath: sourcePath, mapping: parent.mapping))
            }
            result.append(try compose(name: name, path: path, sites: sites, depth: depth, arcChain: arcChain))
        }
        return result
    }

    /// Most prims have one opinion, so their children are that spec's children in order, each its
    /// own site: no per-name maps of specs to build. nil when two children share a name (the general
    /// path keeps the first), which is checked before anything is composed.
    private func composeOnlyParentChildren(_ parent: USDContribution, parentPath: String, depth: Int,
                                           arcChain: Set<String>) throws(AssetError) -> [USDComposedPrim]? {
        let children = parent.spec.children
        if children.count > 1 {
            var names = Set<String>(minimumCapacity: children.count)
            for child in children where !names.insert(child.name).inserted { return nil }
        }
        var result: [USDComposedPrim] = []
        result.reserveCapacity(children.count)
        for child in children {
            let site = USDContribution(spec: child, layer: parent.layer, stack: parent.stack,
                                       sourcePath: parent.sourcePath + "/" + child.name, mapping: parent.mapping)
            result.append(try compose(name: child.name, path: parentPath + "/" + child.name, sites: [site], depth: depth, arcChain: arcChain))
        }
        return result
    }

    private func compose(name: String, path: String, sites: [USDContribution], depth: Int,
                         arcChain: Set<String>) throws(AssetError) -> USDComposedPrim {
        let first = sites[0]
        let here = SourceLocation(file: layerName(first.layer), line: first.spec.line > 0 ? first.spec.line : nil, elementPath: path)
        primCount += 1
        guard primCount <= limits.maxNodes else {
            throw AssetError(.limitExceeded("more than \(limits.maxNodes) prims after composition"), at: here)
        }
        guard depth <= limits.maxNodeDepth else {
            throw AssetError(.limitExceeded("prims nested deeper than \(limits.maxNodeDepth) levels after composition"), at: here)
        }
        try budget.spend(work: ReadBudget.arcWeight, for: "composing \(primCount) prims", at: here)
        var chain = arcChain
        let opinions = try expandWithVariants(sites, chain: &chain)
        try budget.spend(work: ReadBudget.arcWeight * opinions.count, for: "composing \(primCount) prims", at: here)

        var specifier: USDSpecifier = .over
        var typeName = ""
        var metadata: [String: USDValue] = opinions.count == 1 ? opinions[0].spec.metadata : [:]
        for c in opinions {
            if specifier == .over && c.spec.specifier != .over { specifier = c.spec.specifier }
            if typeName.isEmpty { typeName = c.spec.typeName }
            guard opinions.count > 1 else { break }  // one opinion's metadata is taken whole
            for (key, value) in c.spec.metadata where metadata[key] == nil { metadata[key] = value }
        }
        let children = try composeChildren(of: opinions, parentPath: path, depth: depth + 1, arcChain: chain)
        return USDComposedPrim(name: name, path: path, typeName: typeName, specifier: specifier, metadata: metadata,
                               properties: composeProperties(opinions), children: children, location: here)
    }

    // MARK: Properties

    private func composeProperties(_ opinions: [USDContribution]) -> [String: USDComposedProperty] {
        if opinions.count == 1, let only = onlyOpinionProperties(opinions[0]) { return only }
        var result: [String: USDComposedProperty] = [:]
        var hasValue: Set<String> = []
        var hasTargets: Set<String> = []
        for c in opinions {
            let layerLocation = cache.layer(c.layer).location
            for property in c.spec.properties {
                var composed = result[property.name] ?? USDComposedProperty(
                    spec: property, layer: layerLocation, targets: [], metadata: [:])
                if !hasValue.contains(property.name), property.defaultValue != nil || property.timeSamples != nil {
                    hasValue.insert(property.name)
                    composed.spec.defaultValue = property.defaultValue
                    composed.spec.timeSamples = property.timeSamples
                    composed.layer = layerLocation
                }
                if !hasTargets.contains(property.name), let targets = property.targets {
                    hasTargets.insert(property.name)
                    composed.targets = targets.compactMap { target in
                        USDPath.absolute(target, anchor: c.sourcePath).flatMap { c.mapping.map($0) }
                    }
                }
                for (key, value) in property.metadata where composed.metadata[key] == nil { composed.metadata[key] = value }
                result[property.name] = composed
            }
        }
        return result
    }

    /// One opinion's properties as they stand, the common case: no merging, so no sets of names
    /// already given a value or targets. nil when the spec names a property twice (the general merge
    /// combines those).
    private func onlyOpinionProperties(_ c: USDContribution) -> [String: USDComposedProperty]? {
        let layerLocation = cache.layer(c.layer).location
        var result = [String: USDComposedProperty](minimumCapacity: c.spec.properties.count)
        for property in c.spec.properties {
            let targets = property.targets.map { targets in
                targets.compactMap { USDPath.absolute($0, anchor: c.sourcePath).flatMap { c.mapping.map($0) } }
            } ?? []
            let composed = USDComposedProperty(spec: property, layer: layerLocation, targets: targets, metadata: property.metadata)
            guard result.updateValue(composed, forKey: property.name) == nil else { return nil }
        }
        return result
    }

    // MARK: Arcs

    /// The sites and every site their arcs bring in, strongest first. `chain` holds the arc
    /// targets namespace ancestors expanded (reaching one again is a cycle); on return it also
    /// holds this prim's, for its children.
    private func expandWithVariants(_ sites: [USDContribution], chain: inout Set<String>) throws(AssetError) -> [USDContribution] {
        // Most prims have no arcs at all: their opinions are their own sites, and nothing joins the chain.
        if sites.allSatisfy({ $0.spec.inherits.isEmpty && $0.spec.variantSets.isEmpty && $0.spec.references.isEmpty && $0.spec.payloads.isEmpty }) {
            return sites
        }
        var selections: [String: String] = [:]
        for site in sites { for (set, variant) in site.spec.variantSelections where selections[set] == nil { selections[set] = variant } }
        // The prim's own sites: an arc back to one of them is a cycle from the start.
        let own = Set(sites.map { "\($0.stack[0])\($0.sourcePath)" })
        var visit = ArcVisit(inherited: chain)
        var expanded = try expand(sites, selections: selections, arcDepth: 0, ancestors: own, visit: &visit)
        // Selections authored across a reference (the referencing layer is stronger) count too.
        var more = selections
        for c in expanded { for (set, variant) in c.spec.variantSelections where more[set] == nil { more[set] = variant } }
        if more != selections {
            visit = ArcVisit(inherited: chain)
            expanded = try expand(sites, selections: more, arcDepth: 0, ancestors: own, visit: &visit)
        }
        chain.formUnion(visit.seen)
        return expanded
    }

    /// Arc targets met while expanding one prim's opinions.
    private struct ArcVisit {
        /// Targets of namespace ancestors' arcs: reaching one again would recurse without end.
        let inherited: Set<String>
        /// Targets this prim has already taken opinions from.
        var seen: Set<String> = []
        /// Targets already reported as a cycle for this prim (a cycle through a repeated arc is one problem).
        var cycles: Set<String> = []

        /// Whether to expand the target `key`: false for a cycle (with a warning) or a repeat.
        mutating func admit(_ key: String, ancestors: Set<String>, cycle: () -> Void) -> Bool {
            if inherited.contains(key) || ancestors.contains(key) {
                if cycles.insert(key).inserted { cycle() }
                return false
            }
            return seen.insert(key).inserted
        }
    }

    private func expand(_ sites: [USDContribution], selections: [String: String], arcDepth: Int,
                        ancestors: Set<String>, visit: inout ArcVisit) throws(AssetError) -> [USDContribution] {
        var out = sites
        guard arcDepth < Self.maxArcDepth else {
            if let site = sites.first {
                warn("composition arcs nested more than \(Self.maxArcDepth) deep; the deeper ones are ignored", site)
            }
            return out
        }
        for c in sites {
            for inherit in c.spec.inherits {
                guard let classPath = USDPath.absolute(inherit, anchor: c.sourcePath) else { continue }
                let key = "\(c.stack[0])\(classPath)"
                guard visit.admit(key, ancestors: ancestors, cycle: { warn("inherits cycle through <\(classPath)> is cut", c) }) else { continue }
                let classSites = c.stack.compactMap { id in
                    cache.layer(id).primSpec(at: classPath).map {
                        USDContribution(spec: $0, layer: id, stack: c.stack, sourcePath: classPath,
                                        mapping: c.mapping.adding(source: classPath, target: c.sourcePath))
                    }
                }
                out += try expand(classSites, selections: selections, arcDepth: arcDepth + 1, ancestors: ancestors.union([key]), visit: &visit)
            }
        }
        for c in sites {
            for setName in c.spec.variantSets.keys.sorted() {
                guard let selection = selections[setName] else { continue }
                guard let body = c.spec.variantSets[setName]?[selection] else {
                    warn("variant '\(selection)' of set '\(setName)' is not defined here", c)
                    continue
                }
                let variant = USDContribution(spec: body, layer: c.layer, stack: c.stack, sourcePath: c.sourcePath, mapping: c.mapping)
                out += try expand([variant], selections: selections, arcDepth: arcDepth + 1, ancestors: ancestors, visit: &visit)
            }
        }
        for arcs in [\USDPrimSpec.references, \USDPrimSpec.payloads] {
            for c in sites {
                for reference in c.spec[keyPath: arcs] {
                    guard let (key, targets) = referencedSites(reference, from: c, ancestors: ancestors, visit: &visit) else { continue }
                    out += try expand(targets, selections: selections, arcDepth: arcDepth + 1, ancestors: ancestors.union([key]), visit: &visit)
                }
            }
        }
        try budget.spend(work: ReadBudget.arcWeight * (out.count - sites.count), for: "expanding composition arcs",
                         at: sites.first.map(location(of:)) ?? SourceLocation(file: nil))
        return out
    }

    /// The sites a reference or payload brings in and the key of its target; nil when it brings
    /// none (refused, missing, a cycle, or a target this prim already has).
    private func referencedSites(_ reference: USDReference, from c: USDContribution, ancestors: Set<String>,
                                 visit: inout ArcVisit) -> (String, [USDContribution])? {
        let layer = cache.layer(c.layer)
        let here = SourceLocation(file: layer.name, line: reference.line > 0 ? reference.line : nil, elementPath: c.sourcePath)
        var stack = c.stack
        var targetLayer = c.stack[0]
        if !reference.assetPath.isEmpty {
            switch cache.resolver.resolve(reference.assetPath, anchor: layer.location) {
            case .refused(let why):
                found.append(.warning("reference refused: \(why)", at: here))
                return nil
            case .found(let location):
                do throws(AssetError) {
                    targetLayer = try cache.load(location)
                } catch {
                    found.append(.warning("reference @\(reference.assetPath)@ skipped: \(error)", at: here))
                    return nil
                }
                stack = cache.stack(root: targetLayer, diagnostics: &found)
            }
        }
        let target: String
        if let primPath = reference.primPath {
            guard let absolute = USDPath.absolute(primPath, anchor: c.sourcePath) else { return nil }
            target = absolute
        } else if let defaultPrim = cache.layer(targetLayer).defaultPrim {
            target = "/" + defaultPrim
        } else {
            found.append(.warning("reference @\(reference.assetPath)@ names no prim and its layer has no defaultPrim", at: here))
            return nil
        }
        let key = "\(targetLayer)\(target)"
        let admitted = visit.admit(key, ancestors: ancestors) {
            found.append(.warning("reference cycle through \(cache.layer(targetLayer).location)<\(target)> is cut", at: here))
        }
        guard admitted else { return nil }
        let sites = stack.compactMap { id in
            cache.layer(id).primSpec(at: target).map {
                USDContribution(spec: $0, layer: id, stack: stack, sourcePath: target,
                                mapping: c.mapping.adding(source: target, target: c.sourcePath))
            }
        }
        if sites.isEmpty {
            found.append(.warning("reference target <\(target)> is not in \(cache.layer(targetLayer).location)", at: here))
        }
        return (key, sites)
    }

    private func warn(_ message: String, _ c: USDContribution) {
        found.append(.warning(message, at: location(of: c)))
    }

    private func location(of c: USDContribution) -> SourceLocation {
        SourceLocation(file: layerName(c.layer), line: c.spec.line > 0 ? c.spec.line : nil, elementPath: c.sourcePath)
    }

    private func layerName(_ id: Int) -> String {
        if let name = layerNames[id] { return name }
        let name = cache.layer(id).name
        layerNames[id] = name
        return name
    }
}

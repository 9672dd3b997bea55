import AssetCore

extension USDLayerBuilder {
    /// The scene's material variants as a variant set `materialVariant` on the default prim (the name
    /// Apple's Reality Composer and the glTF-to-USD converters give it), each variant an `over` of
    /// the meshes and subsets it rebinds with their `material:binding`; the first variant selected,
    /// so every reader that does not switch variants sees one of the looks the source offered. A
    /// binding that varies is written in every variant (the variant's own, else the base one) and
    /// not on the prim, whose local opinion would outweigh them all.
    mutating func addMaterialVariants(to root: inout USDPrimSpec, rootPath: String) {
        guard !scene.materialVariants.isEmpty else { return }
        guard !variantOvers.isEmpty else {
            diagnostics.append(.warning("material variants \(scene.materialVariants.joined(separator: ", ")) bind nothing; not written"))
            return
        }
        var names = USDName.Uniquer()
        var bodies: [String: USDPrimSpec] = [:]
        var first: String?
        for (v, variant) in scene.materialVariants.enumerated() {
            let name = names.name(variant)
            if first == nil { first = name }
            var body = USDPrimSpec(specifier: .over, typeName: "", name: name, line: 0)
            for over in variantOvers where over.path.hasPrefix(rootPath + "/") {
                let components = over.path.dropFirst(rootPath.count + 1).split(separator: "/").map(String.init)
                let varying = Set(over.instance.variantBindings.map(\.subset))
                for subset in varying.sorted(by: { ($0 ?? -1) < ($1 ?? -1) }) {
                    guard let material = over.instance.material(forSubset: subset, variant: v), let target = materialPaths[material] else { continue }
                    if let subset {
                        guard subset < over.subsetNames.count else { continue }
                        Self.bind(&body, at: (components + [over.subsetNames[subset]])[...], to: target)
                    } else {
                        Self.bind(&body, at: components[...], to: target)
                    }
                }
            }
            bodies[name] = body
        }
        root.variantSets["materialVariant"] = bodies
        root.variantSelections["materialVariant"] = first
    }

    /// Adds `rel material:binding` to the over at `components` below `prim`, making the overs on the way.
    private static func bind(_ prim: inout USDPrimSpec, at components: ArraySlice<String>, to target: String) {
        guard let head = components.first else {
            prim.properties.removeAll { $0.name == "material:binding" }
            prim.properties.append(.relationship("material:binding", to: target))
            return
        }
        if let k = prim.children.firstIndex(where: { $0.name == head }) {
            bind(&prim.children[k], at: components.dropFirst(), to: target)
        } else {
            var child = USDPrimSpec(specifier: .over, typeName: "", name: head, line: 0)
            bind(&child, at: components.dropFirst(), to: target)
            prim.children.append(child)
        }
    }
}

import AssetCore

extension USDSceneBuilder {
    /// A `materialVariant` variant set on the root layer's default prim (as assetc, Reality Composer
    /// and the glTF converters write them) read back as the scene's material variants: each variant's
    /// `material:binding` overs on a mesh prim or one of its GeomSubsets become that instance's
    /// bindings under the variant. The stage itself is composed with the selected variant, so the
    /// base bindings are that variant's. Variants come in name order (USD keeps no other).
    mutating func readMaterialVariants() {
        let layer = stage.rootLayer
        guard let rootName = layer.defaultPrim ?? layer.rootPrims.first?.name,
              let spec = layer.rootPrims.first(where: { $0.name == rootName }),
              let set = spec.variantSets["materialVariant"], !set.isEmpty else { return }
        let names = set.keys.sorted()
        var flat = FlatNodeTree(scene.root)
        var nodeByPath: [String: Int] = [:]
        for (i, path) in flat.paths.enumerated() { nodeByPath[path] = i }
        let here = SourceLocation(file: layer.name, elementPath: "/\(rootName){materialVariant}")
        var unplaced: Set<String> = []
        for (v, name) in names.enumerated() {
            guard let body = set[name] else { continue }
            Self.bindings(in: body, path: "/" + rootName) { primPath, target in
                guard let material = materialIndex[target] else {
                    unplaced.insert("\(primPath) -> <\(target)>")
                    return
                }
                if let node = nodeByPath[primPath], !flat.nodes[node].meshInstances.isEmpty {
                    for k in flat.nodes[node].meshInstances.indices {
                        flat.nodes[node].meshInstances[k].variantBindings.append(MaterialVariantBinding(variant: v, material: material))
                    }
                    return
                }
                let parentPath = String(primPath[..<(primPath.lastIndex(of: "/") ?? primPath.startIndex)])
                let subsetName = String(primPath.split(separator: "/").last ?? "")
                if let node = nodeByPath[parentPath], let instance = flat.nodes[node].meshInstances.first,
                   let subset = scene.meshes[instance.mesh].subsets.firstIndex(where: { $0.name == subsetName }) {
                    flat.nodes[node].meshInstances[0].variantBindings.append(MaterialVariantBinding(variant: v, subset: subset, material: material))
                    return
                }
                unplaced.insert("\(primPath) -> <\(target)>")
            }
        }
        if !unplaced.isEmpty {
            diagnostics.append(.warning("materialVariant bindings that name no mesh, subset or material are not kept: \(unplaced.sorted().prefix(5).joined(separator: ", "))", at: here))
        }
        scene.root = flat.rebuilt()
        scene.materialVariants = names
    }

    /// Every `material:binding` in a variant body, with the absolute path of the prim it is on.
    private static func bindings(in prim: USDPrimSpec, path: String, _ found: (String, String) -> Void) {
        for property in prim.properties where property.name == "material:binding" {
            if let target = property.targets?.first { found(path, target.hasPrefix("/") ? target : path + "/" + target) }
        }
        for child in prim.children { bindings(in: child, path: path + "/" + child.name, found) }
    }
}

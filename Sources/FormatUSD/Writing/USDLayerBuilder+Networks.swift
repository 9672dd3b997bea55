import AssetCore

extension USDLayerBuilder {
    /// A material's MaterialX network written back under its Material prim as it was read (or as
    /// `--materialx` built it), beside the UsdPreviewSurface every USD writer gives: the Shader and
    /// NodeGraph prims with their values and connections made absolute again, image files packaged
    /// like any texture, and the Material's `outputs:mtlx:surface`. False (with a warning, the prim
    /// untouched) when a node's name would take the place of one the preview network uses.
    mutating func addNetwork(_ network: ShadingNetwork, of material: Material, to prim: inout USDPrimSpec, path: String) -> Bool {
        let taken = Set(prim.children.map(\.name))
        let tops = Set(network.nodes.map { String($0.path.split(separator: "/").first ?? "") })
        if let clash = tops.intersection(taken).sorted().first {
            diagnostics.append(.warning("material \(material.name): its MaterialX node \(clash) has the name of a preview-surface shader; the network is left out"))
            return false
        }
        var specs: [String: USDPrimSpec] = [:]
        var order: [String] = []
        for node in network.nodes {
            let name = String(node.path.split(separator: "/").last ?? "")
            var spec = USDPrimSpec(specifier: .def, typeName: node.kind.rawValue, name: name, line: 0)
            if let id = node.id { spec.properties.append(.attribute("info:id", "token", .string(id), uniform: true)) }
            spec.properties += node.properties.map { property(for: $0, material: path) }
            specs[node.path] = spec
            order.append(node.path)
        }
        // Children into their parents, deepest first, so each parent is whole before it is placed.
        for nodePath in order.reversed() {
            let parts = nodePath.split(separator: "/")
            guard parts.count > 1, let spec = specs[nodePath] else { continue }
            let parent = parts.dropLast().joined(separator: "/")
            if specs[parent] != nil { specs[parent]!.children.insert(spec, at: 0) }
        }
        for nodePath in order where !nodePath.contains("/") {
            if let spec = specs[nodePath] { prim.children.append(spec) }
        }
        prim.properties += network.materialProperties.map { property(for: $0, material: path) }
        return true
    }

    private mutating func property(for property: ShadingProperty, material: String) -> USDPropertySpec {
        if let connection = property.connection {
            // ".outputs:x" names the Material's own property; "Graph/node.outputs:out" a node's.
            let target = connection.hasPrefix(".") ? material + connection : material + "/" + connection
            return USDPropertySpec.connection(property.name, property.typeName, to: target)
        }
        let value: USDValue?
        switch property.value {
        case .numbers(let n)?: value = n.count == 1 ? .number(n[0]) : .tuple(n)
        case .bool(let b)?: value = .bool(b)
        case .text(let t)?: value = .string(t)
        case .texture(let index)?: value = textureFile(index).map { .asset($0) }
        case nil: value = nil
        }
        var metadata: [String: USDValue] = [:]
        if let space = property.colorSpace { metadata["colorSpace"] = .string(space) }
        return .attribute(property.name, property.typeName, value, metadata: metadata)
    }
}

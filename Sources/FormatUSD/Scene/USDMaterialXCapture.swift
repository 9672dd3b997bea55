import AssetCore

extension USDMaterialBuilder {
    /// The Material's MaterialX network as authored: its Shader and NodeGraph descendants with their
    /// inputs and outputs, and the Material's own MaterialX outputs and interface inputs. Image files
    /// become scene textures, so writers package them. Nil, with a warning, when a connection leaves the Material (a
    /// graph shared from elsewhere on the stage), since the network could not move with it; the mapped
    /// material still carries what the graph means.
    mutating func capturedNetwork(_ material: USDComposedPrim) -> ShadingNetwork? {
        var network = ShadingNetwork()
        var leaves = false
        func relative(_ target: String) -> String? {
            if target.hasPrefix(material.path + "/") { return String(target.dropFirst(material.path.count + 1)) }
            if target.hasPrefix(material.path + ".") { return String(target.dropFirst(material.path.count)) }
            return nil
        }
        func properties(of prim: USDComposedPrim, keep: (String) -> Bool) -> [ShadingProperty] {
            prim.properties.keys.sorted().compactMap { name -> ShadingProperty? in
                guard keep(name), let property = prim.attribute(name), !property.spec.isRelationship else { return nil }
                var result = ShadingProperty(name: name, typeName: property.typeName)
                if let target = property.targets.first {
                    guard let inside = relative(target) else { leaves = true; return nil }
                    result.connection = inside
                } else if let value = values.value(property) {
                    if property.typeName == "asset", let file = value.stringValue, !file.isEmpty {
                        result.value = .texture(textureIndex(for: file, layer: property.layer, shader: prim))
                        result.colorSpace = property.metadata["colorSpace"]?.stringValue
                    } else if case .bool(let b) = value {
                        result.value = .bool(b)
                    } else if let numbers = value.flatNumbers {
                        result.value = .numbers(numbers)
                    } else if let text = value.stringValue {
                        result.value = .text(text)
                    }
                }
                return result
            }
        }
        func walk(_ prim: USDComposedPrim, prefix: String) {
            for child in prim.children where child.isDefined && (child.typeName == "Shader" || child.typeName == "NodeGraph") {
                // The preview network is the writers' own to write from the mapped material.
                let id = values.string(child.attribute("info:id")) ?? ""
                if id == "UsdPreviewSurface" || id == "UsdUVTexture" || id == "UsdTransform2d" || id.hasPrefix("UsdPrimvarReader") { continue }
                let path = prefix.isEmpty ? child.name : prefix + "/" + child.name
                let kind: ShadingNode.Kind = child.typeName == "Shader" ? .shader : .nodeGraph
                network.nodes.append(ShadingNode(path: path, kind: kind, id: id.isEmpty ? nil : id,
                                                 properties: properties(of: child) { $0.hasPrefix("inputs:") || $0.hasPrefix("outputs:") }))
                walk(child, prefix: path)
            }
        }
        walk(material, prefix: "")
        network.materialProperties = properties(of: material) {
            $0.hasPrefix("outputs:mtlx:") || $0.hasPrefix("inputs:") || $0.hasPrefix("config:mtlx:")
        }
        if leaves {
            diagnostics.append(.warning("material \(material.name): its MaterialX network connects to prims outside the material, so USD output "
                                        + "writes the preview surface it maps to, not the network as authored", at: material.location))
            return nil
        }
        return network
    }
}

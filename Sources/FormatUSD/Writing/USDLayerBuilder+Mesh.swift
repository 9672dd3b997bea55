import AssetCore

extension USDLayerBuilder {
    mutating func meshPrim(_ mesh: Mesh, instance: MeshInstance, name: String, path: String, node: Node?, scenePath: String) -> USDPrimSpec {
        // A point cloud is UsdGeomPoints: its points with widths, no faces.
        var prim = USDPrimSpec(specifier: .def, typeName: mesh.isPointCloud ? "Points" : "Mesh", name: name, line: 0)
        let binds = instance.material != nil || instance.subsetMaterials.contains { $0 != nil } || !instance.variantBindings.isEmpty
        let skin = rig.flatMap { skinBinding(mesh, instance: instance, scenePath: scenePath, primPath: path, plan: $0, skeletonPath: skeletonPath) }
        let schemas = (binds ? ["MaterialBindingAPI"] : []) + (skin != nil ? ["SkelBindingAPI"] : [])
        if !schemas.isEmpty { prim.metadata["apiSchemas"] = .list(schemas.map { .string($0) }) }
        var properties = node.map { transformProperties($0, scenePath: scenePath) } ?? []
        if let skin {
            properties += skin.properties
            prim.children += skin.children
        }
        if mesh.isDoubleSided { properties.append(.attribute("doubleSided", "bool", .bool(true), uniform: true)) }
        if mesh.orientation == .leftHanded { properties.append(.attribute("orientation", "token", .string("leftHanded"), uniform: true)) }
        let bounds = mesh.bounds()
        if !bounds.isEmpty {
            // Rounded to float first: the extent is a float3[] and must hold the float points.
            let corners = [bounds.min, bounds.max].flatMap { [$0.x, $0.y, $0.z] }.map { Double(Float($0)) }
            properties.append(.attribute("extent", "float3[]", .numbers(corners, components: 3)))
        }
        if !mesh.isPointCloud {
            properties.append(.attribute("faceVertexCounts", "int[]", .integers(mesh.faceVertexCounts)))
            properties.append(.attribute("faceVertexIndices", "int[]", .integers(mesh.faceVertexIndices)))
        }
        var points = USDPropertySpec.attribute("points", "point3f[]", .floatArray(mesh.points))
        if let cache = channelsByPath[scenePath]?.first(where: { if case .points(let n) = $0.property { return n == mesh.points.count }; return false }) {
            let n = cache.property.components
            points.timeSamples = cache.times.indices.map { k in
                (timeCode(cache.times[k]), .numbers(cache.values[(k * n)..<(k * n + n)].map(Double.init), components: 3))
            }
        }
        properties.append(points)
        if mesh.isPointCloud {
            properties += Self.pointWidths(mesh)
            for primvar in mesh.primvars where primvar.name != Primvar.widthsName { properties += Self.primvarProperties(primvar) }
        } else {
            for primvar in mesh.primvars { properties += Self.primvarProperties(primvar) }
            properties.append(.attribute("subdivisionScheme", "token", .string("none"), uniform: true))
        }
        // What a variant rebinds is bound in the variants alone (see addMaterialVariants).
        let wholeVaries = instance.variantBindings.contains { $0.subset == nil }
        if let m = instance.material, let target = materialPaths[m], !wholeVaries { properties.append(.relationship("material:binding", to: target)) }
        var subsetNames: [String] = []
        if !mesh.subsets.isEmpty {
            properties.append(.attribute("subsetFamily:materialBind:familyType", "token", .string("nonOverlapping"), uniform: true))
            var names = USDName.Uniquer()
            for (s, subset) in mesh.subsets.enumerated() {
                let material = s < instance.subsetMaterials.count ? instance.subsetMaterials[s] : nil
                let target = material.flatMap { materialPaths[$0] }
                var child = USDPrimSpec(specifier: .def, typeName: "GeomSubset", name: names.name(subset.name), line: 0)
                subsetNames.append(child.name)
                if target != nil || instance.variantBindings.contains(where: { $0.subset == s }) {
                    child.metadata["apiSchemas"] = .list([.string("MaterialBindingAPI")])
                }
                child.properties = [
                    .attribute("elementType", "token", .string("face"), uniform: true),
                    .attribute("familyName", "token", .string("materialBind"), uniform: true),
                    .attribute("indices", "int[]", .integers(subset.faceIndices)),
                ]
                if let target, !instance.variantBindings.contains(where: { $0.subset == s }) {
                    child.properties.append(.relationship("material:binding", to: target))
                }
                prim.children.append(child)
            }
        }
        prim.properties = properties
        if !instance.variantBindings.isEmpty { variantOvers.append((path, subsetNames, instance)) }
        return prim
    }

    /// UsdGeomPoints' `widths`: the source's (USD `Points` read back), else one width for every
    /// point, a two-hundredth of the cloud's diagonal, so viewers draw a scan as dots rather than
    /// at the schema's fallback of one unit.
    static func pointWidths(_ mesh: Mesh) -> [USDPropertySpec] {
        if let widths = mesh.primvar(named: Primvar.widthsName), case .float(var values) = widths.values {
            if let indices = widths.indices { values = indices.map { values[Int($0)] } }
            let interpolation: USDValue = .string(widths.interpolation == .constant ? "constant" : "vertex")
            return [.attribute("widths", "float[]", .floatArray(.float(values)), metadata: ["interpolation": interpolation])]
        }
        let bounds = mesh.bounds()
        let diagonal = bounds.isEmpty ? 1 : ((bounds.max - bounds.min) * (bounds.max - bounds.min)).sum().squareRoot()
        let width = diagonal > 0 ? diagonal / 200 : 0.01
        return [.attribute("widths", "float[]", .floatArray(.float([Float(width)])), metadata: ["interpolation": .string("constant")])]
    }

    /// `primvars:<name>` with its interpolation and indices; a colour with alpha is split into
    /// displayColor and displayOpacity, as UsdGeomGprim spells them.
    static func primvarProperties(_ primvar: Primvar) -> [USDPropertySpec] {
        let name = USDName.sanitize(primvar.name)
        var values = primvar.values
        var opacity: [Float]?
        let type: String
        switch (values, primvar.role) {
        case (.float, _): type = "float[]"
        case (.float2, _): type = primvar.role == .textureCoordinate ? "texCoord2f[]" : "float2[]"
        case (.float3, .normal): type = "normal3f[]"
        case (.float3, .color): type = "color3f[]"
        case (.float3, .vector): type = "vector3f[]"
        case (.float3, .point): type = "point3f[]"
        case (.float3, _): type = name == Primvar.normalsName ? "normal3f[]" : "float3[]"
        case (.float4(let v), .color) where name == Primvar.displayColorName:
            type = "color3f[]"
            values = .float3(v.map { SIMD3($0.x, $0.y, $0.z) })
            opacity = v.map(\.w)
        case (.float4, .color): type = "color4f[]"
        case (.float4, _): type = "float4[]"
        }
        let interpolation: [String: USDValue] = ["interpolation": .string(primvar.interpolation.rawValue)]
        var properties: [USDPropertySpec] = [.attribute("primvars:\(name)", type, .floatArray(values), metadata: interpolation)]
        if let indices = primvar.indices { properties.append(.attribute("primvars:\(name):indices", "int[]", .integers(indices))) }
        if let opacity {
            properties.append(.attribute("primvars:displayOpacity", "float[]", .floatArray(.float(opacity)), metadata: interpolation))
            if let indices = primvar.indices { properties.append(.attribute("primvars:displayOpacity:indices", "int[]", .integers(indices))) }
        }
        return properties
    }
}

extension USDValue {
    /// Float vectors as one flat array of their components, widened to Double exactly.
    static func floatArray<V: SIMD>(_ vectors: [V]) -> USDValue where V.Scalar == Float {
        var flat: [Double] = []
        flat.reserveCapacity(vectors.count * V.scalarCount)
        for v in vectors {
            for k in 0..<V.scalarCount { flat.append(Double(v[k])) }
        }
        return .numbers(flat, components: V.scalarCount)
    }

    static func floatArray(_ values: PrimvarValues) -> USDValue {
        switch values {
        case .float(let v): return .numbers(v.map(Double.init), components: 1)
        case .float2(let v): return floatArray(v)
        case .float3(let v): return floatArray(v)
        case .float4(let v): return floatArray(v)
        }
    }
}

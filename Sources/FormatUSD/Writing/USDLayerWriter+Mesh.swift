import AssetCore

extension USDLayerWriter {
    mutating func writeMesh(_ mesh: Mesh, instance: MeshInstance, name: String, path: String, node: Node?) {
        let binds = instance.material != nil || instance.subsetMaterials.contains { $0 != nil }
        out.open("def Mesh \(USDATextBuilder.quoted(name))", metadata: binds ? ["prepend apiSchemas = [\"MaterialBindingAPI\"]"] : [])
        if let node { writeTransform(node) }
        if mesh.isDoubleSided { out.line("uniform bool doubleSided = 1") }
        if mesh.orientation == .leftHanded { out.line("uniform token orientation = \"leftHanded\"") }
        let bounds = mesh.bounds()
        if !bounds.isEmpty {
            let lo = SIMD3<Float>(Float(bounds.min.x), Float(bounds.min.y), Float(bounds.min.z))
            let hi = SIMD3<Float>(Float(bounds.max.x), Float(bounds.max.y), Float(bounds.max.z))
            out.line("float3[] extent = [\(USDATextBuilder.vec3(lo)), \(USDATextBuilder.vec3(hi))]")
        }
        out.line("int[] faceVertexCounts = \(USDATextBuilder.ints(mesh.faceVertexCounts))")
        out.line("int[] faceVertexIndices = \(USDATextBuilder.ints(mesh.faceVertexIndices))")
        out.line("point3f[] points = \(USDATextBuilder.array(mesh.points.map(USDATextBuilder.vec3)))")
        for primvar in mesh.primvars { writePrimvar(primvar) }
        out.line("uniform token subdivisionScheme = \"none\"")
        if let m = instance.material, let target = materialPaths[m] { out.line("rel material:binding = <\(target)>") }
        if !mesh.subsets.isEmpty {
            out.line("uniform token subsetFamily:materialBind:familyType = \"nonOverlapping\"")
            var names = USDName.Uniquer()
            for (s, subset) in mesh.subsets.enumerated() {
                let material = s < instance.subsetMaterials.count ? instance.subsetMaterials[s] : nil
                let target = material.flatMap { materialPaths[$0] }
                out.open("def GeomSubset \(USDATextBuilder.quoted(names.name(subset.name)))",
                         metadata: target == nil ? [] : ["prepend apiSchemas = [\"MaterialBindingAPI\"]"])
                out.line("uniform token elementType = \"face\"")
                out.line("uniform token familyName = \"materialBind\"")
                out.line("int[] indices = \(USDATextBuilder.ints(subset.faceIndices))")
                if let target { out.line("rel material:binding = <\(target)>") }
                out.close()
            }
        }
        out.close()
    }

    private mutating func writePrimvar(_ primvar: Primvar) {
        let name = USDName.sanitize(primvar.name)
        var values = primvar.values
        var opacity: [Float]?
        let type: String
        switch (values, primvar.role) {
        case (.float(let v), _):
            type = "float[]"
            values = .float(v)
        case (.float2, _):
            type = primvar.role == .textureCoordinate ? "texCoord2f[]" : "float2[]"
        case (.float3, .normal): type = "normal3f[]"
        case (.float3, .color): type = "color3f[]"
        case (.float3, .vector): type = "vector3f[]"
        case (.float3, .point): type = "point3f[]"
        case (.float3, _): type = name == Primvar.normalsName ? "normal3f[]" : "float3[]"
        case (.float4(let v), .color) where name == Primvar.displayColorName:
            // displayColor is color3f; its alpha travels as displayOpacity.
            type = "color3f[]"
            values = .float3(v.map { SIMD3($0.x, $0.y, $0.z) })
            opacity = v.map(\.w)
        case (.float4, .color): type = "color4f[]"
        case (.float4, _): type = "float4[]"
        }
        let text: [String]
        switch values {
        case .float(let v): text = v.map(NumberText.float)
        case .float2(let v): text = v.map(USDATextBuilder.vec2)
        case .float3(let v): text = v.map(USDATextBuilder.vec3)
        case .float4(let v): text = v.map(USDATextBuilder.vec4)
        }
        out.line("\(type) primvars:\(name) = \(USDATextBuilder.array(text)) (")
        out.line("    interpolation = \"\(primvar.interpolation.rawValue)\"")
        out.line(")")
        if let indices = primvar.indices { out.line("int[] primvars:\(name):indices = \(USDATextBuilder.ints(indices))") }
        if let opacity {
            out.line("float[] primvars:displayOpacity = \(USDATextBuilder.array(opacity.map(NumberText.float))) (")
            out.line("    interpolation = \"\(primvar.interpolation.rawValue)\"")
            out.line(")")
            if let indices = primvar.indices { out.line("int[] primvars:displayOpacity:indices = \(USDATextBuilder.ints(indices))") }
        }
    }
}

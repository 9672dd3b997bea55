import AssetCore

extension USDLayerBuilder {
    /// The `Looks` scope: one Material per scene material, a UsdPreviewSurface, a UsdUVTexture per
    /// textured input, and a UsdPrimvarReader_float2 per texture coordinate set they read.
    mutating func looksScope(path looksPath: String) -> USDPrimSpec {
        let looksName = String(looksPath.split(separator: "/").last ?? "Looks")
        var looks = USDPrimSpec(specifier: .def, typeName: "Scope", name: looksName, line: 0)
        let tinted = tintedMaterials
        for (i, material) in scene.materials.enumerated() {
            guard let path = materialPaths[i] else { continue }
            looks.children.append(materialPrim(material, index: i, path: path, tinted: tinted.contains(i)))
        }
        return looks
    }

    /// Materials bound to a mesh that has vertex colours (for the primvar reader their base colour
    /// takes from them).
    var tintedMaterials: Set<Int> {
        var tinted: Set<Int> = []
        scene.forEachNode { node, _ in
            for instance in node.meshInstances where scene.meshes.indices.contains(instance.mesh)
                && scene.meshes[instance.mesh].primvar(named: Primvar.displayColorName) != nil {
                for m in [instance.material] + instance.subsetMaterials { if let m { tinted.insert(m) } }
            }
        }
        return tinted
    }

    private mutating func materialPrim(_ material: Material, index: Int, path: String, tinted: Bool) -> USDPrimSpec {
        let name = String(path.split(separator: "/").last!)
        var prim = USDPrimSpec(specifier: .def, typeName: "Material", name: name, line: 0)
        prim.properties = [.connection("outputs:surface", "token", to: "\(path)/PreviewSurface.outputs:surface")]
        var textureShaders: [USDPrimSpec] = []
        var readers: Set<String> = []
        var surface = USDPrimSpec(specifier: .def, typeName: "Shader", name: "PreviewSurface", line: 0)
        surface.properties = [.attribute("info:id", "token", .string("UsdPreviewSurface"), uniform: true)]

        func input(_ key: String, type: String, constant: USDValue?, texture: TextureReference?, output: String, fallback: USDValue) {
            guard let texture, let file = textureFile(texture.texture) else {
                if let constant { surface.properties.append(.attribute("inputs:\(key)", type, constant)) }
                return
            }
            let shaderName = "\(key)_texture"
            let reader = "TexCoordReader_\(USDName.sanitize(texture.texcoordSet))"
            readers.insert(texture.texcoordSet)
            surface.properties.append(.connection("inputs:\(key)", type, to: "\(path)/\(shaderName).outputs:\(output)"))
            var st = "\(path)/\(reader).outputs:result"
            if let transform = texture.transform {
                // UsdTransform2d between the reader and the texture, as UsdPreviewSurface's spec draws it.
                var node = USDPrimSpec(specifier: .def, typeName: "Shader", name: "\(key)_transform", line: 0)
                node.properties = [
                    .attribute("info:id", "token", .string("UsdTransform2d"), uniform: true),
                    .connection("inputs:in", "float2", to: st),
                    .attribute("inputs:scale", "float2", .floats(transform.scale)),
                    .attribute("inputs:rotation", "float", .number(Double(transform.rotation))),
                    .attribute("inputs:translation", "float2", .floats(transform.translation)),
                    .attribute("outputs:result", "float2", nil),
                ]
                textureShaders.append(node)
                st = "\(path)/\(key)_transform.outputs:result"
            }
            var shader = USDPrimSpec(specifier: .def, typeName: "Shader", name: shaderName, line: 0)
            shader.properties = [
                .attribute("info:id", "token", .string("UsdUVTexture"), uniform: true),
                .attribute("inputs:file", "asset", .asset(file)),
                .connection("inputs:st", "float2", to: st),
                .attribute("inputs:wrapS", "token", .string(scene.textures[texture.texture].wrapS.rawValue)),
                .attribute("inputs:wrapT", "token", .string(scene.textures[texture.texture].wrapT.rawValue)),
                .attribute("inputs:fallback", "float4", fallback),
            ]
            if ["normal", "occlusion", "metallic", "roughness", "clearcoat", "clearcoatRoughness"].contains(key) {
                shader.properties.append(.attribute("inputs:sourceColorSpace", "token", .string("raw")))
            }
            if key == "normal" {
                // Normal maps store [-1, 1] as [0, 1]. UsdPreviewSurface (and usd-core's normal-map
                // validator, and ARKit's) take only this decoding, so a glTF normal strength is left out.
                shader.properties.append(.attribute("inputs:scale", "float4", .tuple([2, 2, 2, 1])))
                shader.properties.append(.attribute("inputs:bias", "float4", .tuple([-1, -1, -1, 0])))
                if let scale = texture.scale, scale != SIMD4(2, 2, 2, 1) {
                    diagnostics.append(.warning("material \(material.name): normal map strength \(scale.x / 2) is left out (USD normal maps decode with scale (2,2,2,1) only)"))
                }
            } else {
                // A reference's own scale and bias (glTF factors and strengths) are written as they are.
                if let scale = texture.scale { shader.properties.append(.attribute("inputs:scale", "float4", .floats(scale))) }
                if let bias = texture.bias { shader.properties.append(.attribute("inputs:bias", "float4", .floats(bias))) }
            }
            shader.properties.append(.attribute("outputs:\(output)", output == "rgb" ? "float3" : "float", nil))
            textureShaders.append(shader)
        }

        let c = material.baseColor.value
        if material.baseColorFromVertexColor && material.baseColor.texture == nil && tinted {
            // The base colour is the vertex colour, as the source's primvar reader said. Its
            // constant can only be the reader's fallback (UsdPreviewSurface multiplies nothing),
            // so a base colour other than white is named where it is lost.
            if c != .one {
                diagnostics.append(.warning("material \(material.name): the vertex colour's factor \(c) is left out (a primvar reader feeds diffuseColor alone)"))
            }
            surface.properties.append(.connection("inputs:diffuseColor", "color3f", to: "\(path)/VertexColorReader.outputs:result"))
            var reader = USDPrimSpec(specifier: .def, typeName: "Shader", name: "VertexColorReader", line: 0)
            reader.properties = [
                .attribute("info:id", "token", .string("UsdPrimvarReader_float3"), uniform: true),
                .attribute("inputs:varname", "string", .string(Primvar.displayColorName)),
                .attribute("inputs:fallback", "float3", .floats(c)),
                .attribute("outputs:result", "float3", nil),
            ]
            textureShaders.append(reader)
        } else {
            input("diffuseColor", type: "color3f", constant: .floats(c), texture: material.baseColor.texture,
                  output: "rgb", fallback: .floats(SIMD4(c, 1)))
        }
        input("emissiveColor", type: "color3f", constant: material.emissive.value == .zero ? nil : .floats(material.emissive.value),
              texture: material.emissive.texture, output: "rgb", fallback: .floats(SIMD4(material.emissive.value, 1)))
        // An opaque material (glTF OPAQUE) keeps USD's opacity fallback of 1, so USD reads it opaque too.
        let opacity = material.alphaMode == .opaque ? MaterialProperty<Float>(1) : material.opacity
        for (key, property) in [("metallic", material.metallic), ("roughness", material.roughness), ("opacity", opacity)] {
            let channel = property.texture.map { $0.channels == .rgb || $0.channels == .rgba ? "r" : $0.channels.rawValue } ?? "r"
            input(key, type: "float", constant: .number(Double(property.value)), texture: property.texture, output: channel,
                  fallback: .floats(SIMD4(repeating: property.value)))
        }
        if material.usesSpecularWorkflow {
            surface.properties.append(.attribute("inputs:useSpecularWorkflow", "int", .number(1)))
            let s = material.specularColor.value
            input("specularColor", type: "color3f", constant: .floats(s), texture: material.specularColor.texture,
                  output: "rgb", fallback: .floats(SIMD4(s, 1)))
        }
        for (key, property) in [("clearcoat", material.clearcoat), ("clearcoatRoughness", material.clearcoatRoughness)]
        where material.clearcoat.value != 0 || material.clearcoat.texture != nil {
            let channel = property.texture.map { $0.channels == .rgb || $0.channels == .rgba ? "r" : $0.channels.rawValue } ?? "r"
            input(key, type: "float", constant: .number(Double(property.value)), texture: property.texture, output: channel,
                  fallback: .floats(SIMD4(repeating: property.value)))
        }
        if material.ior != 1.5 { surface.properties.append(.attribute("inputs:ior", "float", .number(Double(material.ior)))) }
        if material.opacityThreshold > 0 {
            surface.properties.append(.attribute("inputs:opacityThreshold", "float", .number(Double(material.opacityThreshold))))
        }
        input("normal", type: "normal3f", constant: nil, texture: material.normal, output: "rgb", fallback: .tuple([0.5, 0.5, 1, 1]))
        input("occlusion", type: "float", constant: nil, texture: material.occlusion, output: "r", fallback: .tuple([1, 1, 1, 1]))
        surface.properties.append(.attribute("outputs:surface", "token", nil))
        addTimeSamples(to: &surface, material: material, index: index)

        prim.children = [surface] + textureShaders
        for set in readers.sorted() {
            var reader = USDPrimSpec(specifier: .def, typeName: "Shader", name: "TexCoordReader_\(USDName.sanitize(set))", line: 0)
            reader.properties = [
                .attribute("info:id", "token", .string("UsdPrimvarReader_float2"), uniform: true),
                .attribute("inputs:varname", "string", .string(set)),
                .attribute("outputs:result", "float2", nil),
            ]
            prim.children.append(reader)
        }
        if writesNetworks, let network = material.network, addNetwork(network, of: material, to: &prim, path: path) {
            prim.metadata["apiSchemas"] = .list([.string("MaterialXConfigAPI")])
        }
        return prim
    }

    /// Animated inputs as time samples on the preview surface's constants (the default stays the
    /// rest value). An input a texture drives is left out with a warning: USD reads a connected input
    /// from its source, so samples on it would change nothing.
    private mutating func addTimeSamples(to surface: inout USDPrimSpec, material: Material, index: Int) {
        let channels = (scene.animations.first?.materialChannels ?? []).filter { $0.material == index && !$0.times.isEmpty }
        for channel in channels {
            let (key, type) = Self.previewSurfaceInput(channel.input)
            guard material.texture(of: channel.input) == nil else {
                diagnostics.append(.warning("material \(material.name): \(key) is animated and textured; USD reads the texture, so the animation is left out"))
                continue
            }
            // Step and cubic keys are written as the linear samples that follow them (USD interpolates linearly).
            let times = channel.interpolation == .linear ? channel.times : channel.linearSampleTimes()
            let samples: [(time: Double, value: USDValue)] = times.compactMap { t in
                guard let v = channel.sample(at: t) else { return nil }
                let value: USDValue = v.count == 1 ? .number(Double(v[0])) : .floats(SIMD3(v[0], v[1], v[2]))
                return (timeCode(t), value)
            }
            let rest = material.animatedValue(channel.input)
            let restValue: USDValue = rest.count == 1 ? .number(Double(rest[0])) : .floats(SIMD3(rest[0], rest[1], rest[2]))
            if let at = surface.properties.firstIndex(where: { $0.name == "inputs:\(key)" }) {
                surface.properties[at].timeSamples = samples
            } else {
                var spec = USDPropertySpec.attribute("inputs:\(key)", type, restValue)
                spec.timeSamples = samples
                surface.properties.insert(spec, at: max(0, surface.properties.count - 1))
            }
        }
    }

    static func previewSurfaceInput(_ input: MaterialAnimationChannel.Input) -> (name: String, type: String) {
        switch input {
        case .baseColor: ("diffuseColor", "color3f")
        case .emissive: ("emissiveColor", "color3f")
        case .opacity: ("opacity", "float")
        case .metallic: ("metallic", "float")
        case .roughness: ("roughness", "float")
        }
    }

    /// The package-relative path of a texture's copy, or nil when its bytes cannot be had (the
    /// material then keeps its constant, with a warning).
    mutating func textureFile(_ index: Int) -> String? {
        if let known = texturePaths[index] { return known }
        let texture = scene.textures[index]
        guard let bytes = context.textureBytes(texture) else {
            diagnostics.append(.warning("texture \(texture.authoredPath) could not be read; its material keeps its constant value"))
            texturePaths[index] = .some(nil)
            return nil
        }
        var fileName = texture.outputFileName
        var k = 2
        while usedTextureNames.contains(fileName) {
            fileName = "\(k)_" + texture.outputFileName
            k += 1
        }
        usedTextureNames.insert(fileName)
        let path = "\(textureFolder)/\(fileName)"
        textureFiles.append(OutputFile(relativePath: path, bytes: bytes))
        texturePaths[index] = path
        return path
    }
}

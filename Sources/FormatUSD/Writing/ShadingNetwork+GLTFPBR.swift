import AssetCore

extension ShadingNetwork {
    /// The material as a MaterialX `ND_gltf_pbr_surfaceshader` network, as guc writes glTF materials
    /// into USD: constants on the surface node, each texture an `ND_gltf_image_*` node (its factor the
    /// reference's scale) reading the primvar its set names through `ND_geompropvalue_vector2`, glTF's
    /// packed metallic-roughness picked by `ND_extract_vector3`, the normal map an
    /// `ND_gltf_normalmap_vector3`. Texture transforms are not part of glTF PBR's image nodes here:
    /// the preview surface beside it carries them.
    public static func glTFPBR(from material: Material) -> ShadingNetwork {
        let surface = "GltfPbr"
        var network = ShadingNetwork()
        var inputs: [ShadingProperty] = []
        var readers: Set<String> = []

        func reader(_ set: String) -> String {
            let name = "TexCoord_" + String(set.map { $0.isLetter || $0.isNumber ? $0 : "_" })
            if readers.insert(name).inserted {
                network.nodes.append(ShadingNode(path: name, kind: .shader, id: "ND_geompropvalue_vector2", properties: [
                    ShadingProperty(name: "inputs:geomprop", typeName: "string", value: .text(set)),
                    ShadingProperty(name: "outputs:out", typeName: "float2"),
                ]))
            }
            return name
        }
        func image(_ name: String, _ reference: TextureReference, id: String, outputType: String) -> String {
            var properties = [
                ShadingProperty(name: "inputs:file", typeName: "asset", value: .texture(reference.texture),
                                colorSpace: outputType == "color3f" ? "srgb_texture" : "raw"),
                ShadingProperty(name: "inputs:texcoord", typeName: "float2", connection: reader(reference.texcoordSet) + ".outputs:out"),
            ]
            if let scale = reference.scale, id.hasSuffix("color3") {
                properties.append(ShadingProperty(name: "inputs:factor", typeName: "color3f", value: .numbers([scale.x, scale.y, scale.z].map(Double.init))))
            } else if let scale = reference.scale, id.hasSuffix("float") {
                properties.append(ShadingProperty(name: "inputs:factor", typeName: "float", value: .numbers([Double(scale.x)])))
            }
            properties.append(ShadingProperty(name: "outputs:out", typeName: outputType))
            network.nodes.append(ShadingNode(path: name, kind: .shader, id: id, properties: properties))
            return name + ".outputs:out"
        }
        func color(_ input: String, _ property: MaterialProperty<SIMD3<Float>>, image name: String) {
            if let reference = property.texture {
                inputs.append(ShadingProperty(name: "inputs:" + input, typeName: "color3f",
                                              connection: image(name, reference, id: "ND_gltf_image_color3", outputType: "color3f")))
            } else {
                let v = property.value
                inputs.append(ShadingProperty(name: "inputs:" + input, typeName: "color3f", value: .numbers([v.x, v.y, v.z].map(Double.init))))
            }
        }
        func scalar(_ input: String, _ property: MaterialProperty<Float>, image name: String) {
            guard let reference = property.texture else {
                inputs.append(ShadingProperty(name: "inputs:" + input, typeName: "float", value: .numbers([Double(property.value)])))
                return
            }
            let index = ["r": 0, "g": 1, "b": 2, "a": 3][reference.channels.rawValue]
            if let index, index < 3 {
                // One channel of a colour image (glTF's packed metallic-roughness): the image, then the channel.
                let source = image(name, reference, id: "ND_gltf_image_vector3", outputType: "float3")
                network.nodes.append(ShadingNode(path: name + "_" + reference.channels.rawValue, kind: .shader, id: "ND_extract_vector3", properties: [
                    ShadingProperty(name: "inputs:in", typeName: "float3", connection: source),
                    ShadingProperty(name: "inputs:index", typeName: "int", value: .numbers([Double(index)])),
                    ShadingProperty(name: "outputs:out", typeName: "float"),
                ]))
                inputs.append(ShadingProperty(name: "inputs:" + input, typeName: "float", connection: name + "_" + reference.channels.rawValue + ".outputs:out"))
            } else {
                inputs.append(ShadingProperty(name: "inputs:" + input, typeName: "float",
                                              connection: image(name, reference, id: "ND_gltf_image_float", outputType: "float")))
            }
        }

        color("base_color", material.baseColor, image: "BaseColorImage")
        scalar("metallic", material.metallic, image: "MetallicImage")
        scalar("roughness", material.roughness, image: "RoughnessImage")
        let e = material.emissive.value, strength = max(1, e.x, e.y, e.z)
        var emissive = material.emissive
        emissive.value = e / strength
        color("emissive", emissive, image: "EmissiveImage")
        inputs.append(ShadingProperty(name: "inputs:emissive_strength", typeName: "float", value: .numbers([Double(strength)])))
        if let normal = material.normal {
            var properties = [
                ShadingProperty(name: "inputs:file", typeName: "asset", value: .texture(normal.texture), colorSpace: "raw"),
                ShadingProperty(name: "inputs:texcoord", typeName: "float2", connection: reader(normal.texcoordSet) + ".outputs:out"),
            ]
            properties.append(ShadingProperty(name: "outputs:out", typeName: "float3"))
            network.nodes.append(ShadingNode(path: "NormalImage", kind: .shader, id: "ND_gltf_normalmap_vector3", properties: properties))
            inputs.append(ShadingProperty(name: "inputs:normal", typeName: "float3", connection: "NormalImage.outputs:out"))
        }
        if let occlusion = material.occlusion {
            scalar("occlusion", MaterialProperty(1, texture: occlusion), image: "OcclusionImage")
        }
        // Transmission was folded into opacity when read; gltf_pbr holds it apart, as glTF does.
        let t = material.transmission
        let alpha = t > 0 && t < 1 ? min(1, material.opacity.value / (1 - t)) : t >= 1 ? 1 : material.opacity.value
        inputs.append(ShadingProperty(name: "inputs:alpha", typeName: "float", value: .numbers([Double(alpha)])))
        if t > 0 { inputs.append(ShadingProperty(name: "inputs:transmission", typeName: "float", value: .numbers([Double(t)]))) }
        let mode: Double = switch material.alphaMode { case .opaque: 0; case .mask: 1; case .blend: 2 }
        inputs.append(ShadingProperty(name: "inputs:alpha_mode", typeName: "int", value: .numbers([mode])))
        if material.alphaMode == .mask {
            inputs.append(ShadingProperty(name: "inputs:alpha_cutoff", typeName: "float", value: .numbers([Double(material.opacityThreshold)])))
        }
        if material.clearcoat.value != 0 || material.clearcoat.texture != nil {
            scalar("clearcoat", material.clearcoat, image: "ClearcoatImage")
            scalar("clearcoat_roughness", material.clearcoatRoughness, image: "ClearcoatRoughnessImage")
        }
        if material.ior != 1.5 { inputs.append(ShadingProperty(name: "inputs:ior", typeName: "float", value: .numbers([Double(material.ior)]))) }
        network.nodes.insert(ShadingNode(path: surface, kind: .shader, id: "ND_gltf_pbr_surfaceshader",
                                         properties: inputs + [ShadingProperty(name: "outputs:out", typeName: "token")]), at: 0)
        network.materialProperties = [ShadingProperty(name: "outputs:mtlx:surface", typeName: "token", connection: surface + ".outputs:out")]
        return network
    }
}

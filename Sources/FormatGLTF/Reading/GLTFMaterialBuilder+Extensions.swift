import AssetCore

/// The material extensions beyond metallic-roughness, in UsdPreviewSurface's terms:
/// specular-glossiness as the specular workflow, transmission as opacity, clearcoat and ior as the
/// inputs of the same names. Sheen, volume, iridescence, KHR_materials_specular, anisotropy,
/// dispersion and diffuse transmission have no input there: each is named once with the materials
/// that use it.
extension GLTFMaterialBuilder {
    /// KHR_materials_pbrSpecularGlossiness replaces the metallic-roughness inputs: diffuse into the
    /// base colour (its alpha into opacity as alphaMode says), specular into `specularColor`,
    /// glossiness into roughness as 1 - glossiness (the texture's alpha, through scale -g and bias 1).
    mutating func specularGlossiness(_ glossy: GLTFAsset.Material.Extensions.SpecularGlossiness, into material: inout Material,
                                     alphaMode: String, material index: Int, at here: SourceLocation) throws(AssetError) {
        let diffuse = glossy.diffuseFactor ?? [1, 1, 1, 1]
        let specular = glossy.specularFactor ?? [1, 1, 1]
        guard diffuse.count == 4 else { throw AssetError(.malformed("diffuseFactor has \(diffuse.count) numbers, not 4"), at: here) }
        guard specular.count == 3 else { throw AssetError(.malformed("specularFactor has \(specular.count) numbers, not 3"), at: here) }
        let gloss = Float(glossy.glossinessFactor ?? 1)
        let diffuseScale = SIMD4(Float(diffuse[0]), Float(diffuse[1]), Float(diffuse[2]), Float(diffuse[3]))
        material.usesSpecularWorkflow = true
        material.baseColor = MaterialProperty(SIMD3(diffuseScale.x, diffuseScale.y, diffuseScale.z))
        if alphaMode != "OPAQUE" { material.opacity = MaterialProperty(diffuseScale.w) }
        if let info = glossy.diffuseTexture, var reference = try texture(info, channels: .rgb, material: index, at: here) {
            if diffuseScale != .one { reference.scale = diffuseScale }
            material.baseColor.texture = reference
            if alphaMode != "OPAQUE" {
                material.opacity.texture = TextureReference(texture: reference.texture, texcoordSet: reference.texcoordSet, channels: .a,
                                                            scale: diffuseScale == .one ? nil : diffuseScale, transform: reference.transform)
            }
        }
        let specularValue = SIMD3(Float(specular[0]), Float(specular[1]), Float(specular[2]))
        material.specularColor = MaterialProperty(specularValue)
        material.metallic = MaterialProperty(0)
        material.roughness = MaterialProperty(1 - gloss)
        if let info = glossy.specularGlossinessTexture {
            if var reference = try texture(info, channels: .rgb, material: index, at: here) {
                if specularValue != .one { reference.scale = SIMD4(specularValue, 1) }
                material.specularColor.texture = reference
            }
            if var reference = try texture(info, channels: .a, material: index, at: here) {
                reference.scale = SIMD4(repeating: -gloss)
                reference.bias = SIMD4(repeating: 1)
                material.roughness.texture = reference
            }
        }
    }

    /// Transmission, clearcoat, ior, and the extensions that are only named.
    mutating func layers(_ source: GLTFAsset.Material, into material: inout Material, material index: Int,
                         at here: SourceLocation) throws(AssetError) {
        let name = material.name
        if let transmission = source.extensions?.KHR_materials_transmission {
            // UsdPreviewSurface does not refract: light through the surface becomes see-through.
            let t = Float(transmission.transmissionFactor ?? 0)
            if t > 0 {
                material.transmission = t
                material.opacity.value *= 1 - t
                // The see-through stand-in blends even where the glTF material was OPAQUE.
                if material.alphaMode == .opaque { material.alphaMode = .blend }
                if let info = transmission.transmissionTexture, var reference = try texture(info, channels: .r, material: index, at: here) {
                    if material.opacity.texture == nil {
                        reference.scale = SIMD4(repeating: -t)
                        reference.bias = SIMD4(repeating: 1)
                        material.opacity.texture = reference
                    } else {
                        unkept["KHR_materials_transmission's texture is not kept beside an alpha texture", default: []].append(name)
                    }
                }
                unkept["KHR_materials_transmission is read as opacity 1 - transmission, without refraction, where the output or the picture has no transmission (glTF output keeps the extension)", default: []].append(name)
            }
        }
        if let coat = source.extensions?.KHR_materials_clearcoat {
            material.clearcoat = MaterialProperty(Float(coat.clearcoatFactor ?? 0))
            material.clearcoatRoughness = MaterialProperty(Float(coat.clearcoatRoughnessFactor ?? 0))
            if let info = coat.clearcoatTexture, var reference = try texture(info, channels: .r, material: index, at: here) {
                if material.clearcoat.value != 1 { reference.scale = SIMD4(repeating: material.clearcoat.value) }
                material.clearcoat.texture = reference
            }
            if let info = coat.clearcoatRoughnessTexture, var reference = try texture(info, channels: .g, material: index, at: here) {
                if material.clearcoatRoughness.value != 1 { reference.scale = SIMD4(repeating: material.clearcoatRoughness.value) }
                material.clearcoatRoughness.texture = reference
            }
            if coat.clearcoatNormalTexture != nil { unkept["KHR_materials_clearcoat's clearcoatNormalTexture is not kept", default: []].append(name) }
        }
        if let ior = source.extensions?.KHR_materials_ior?.ior {
            if ior >= 1, ior.isFinite { material.ior = Float(ior) } else { unkept["KHR_materials_ior \(ior) is not kept (UsdPreviewSurface takes 1 and up)", default: []].append(name) }
        }
        let named: [(String, Bool)] = [
            ("KHR_materials_sheen", source.extensions?.KHR_materials_sheen != nil),
            ("KHR_materials_volume", source.extensions?.KHR_materials_volume != nil),
            ("KHR_materials_iridescence", source.extensions?.KHR_materials_iridescence != nil),
            ("KHR_materials_specular", source.extensions?.KHR_materials_specular != nil),
            ("KHR_materials_anisotropy", source.extensions?.KHR_materials_anisotropy != nil),
            ("KHR_materials_dispersion", source.extensions?.KHR_materials_dispersion != nil),
            ("KHR_materials_diffuse_transmission", source.extensions?.KHR_materials_diffuse_transmission != nil),
        ]
        for (extensionName, present) in named where present { unkept["\(extensionName) is not kept (UsdPreviewSurface has no input for it)", default: []].append(name) }
    }

    /// One warning per extension the scene cannot keep, with the materials that use it.
    mutating func finish() {
        for (what, materials) in unkept.sorted(by: { $0.key < $1.key }) {
            let list = materials.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (materials.count > 5 ? " and \(materials.count - 5) more" : "")
            diagnostics.append(.warning("\(what): \(materials.count == 1 ? "material" : "\(materials.count) materials") \(list)",
                                        at: SourceLocation(file: file, elementPath: "materials")))
        }
        unkept = [:]
    }
}

/// The metallic-roughness material nearest a specular-workflow one, for the writers and the renderer
/// that know metallic-roughness only (glTF core, OBJ's PBR extension, assetc's shading). The factors
/// follow the conversion Khronos published with KHR_materials_pbrSpecularGlossiness: the metalness
/// that explains how strong and how coloured the specular reflection is beside the diffuse colour,
/// with 0.04 as the reflectance of every dielectric; the colour then blends the diffuse and specular
/// colours by that metalness squared. Textures stay on the inputs they fed: the diffuse texture as
/// the base colour's, the roughness (1 - glossiness) texture as it is. A specular texture has no
/// metallic-roughness counterpart: the material is then taken as a dielectric (metalness 0, the
/// diffuse colour as it is), what most painted specular-glossiness assets are, and the caller names it.
extension Material {
    static let dielectricReflectance: Float = 0.04

    public var metallicRoughnessEquivalent: Material {
        guard usesSpecularWorkflow else { return self }
        var result = self
        result.usesSpecularWorkflow = false
        result.specularColor = MaterialProperty(.zero)
        guard specularColor.texture == nil else {
            result.metallic = MaterialProperty(0)
            return result
        }
        let diffuse = baseColor.value, specular = specularColor.value
        let strongest = max(specular.x, specular.y, specular.z)
        let metallic = Self.solveMetallic(diffuse: Self.brightness(diffuse), specular: Self.brightness(specular),
                                          oneMinusSpecularStrength: 1 - strongest)
        let fromDiffuse = diffuse * ((1 - strongest) / (1 - Self.dielectricReflectance) / max(1 - metallic, 1e-4))
        let fromSpecular = (specular - SIMD3(repeating: Self.dielectricReflectance * (1 - metallic))) / max(metallic, 1e-4)
        let blend = metallic * metallic
        var color = fromDiffuse + (fromSpecular - fromDiffuse) * blend
        color = SIMD3(min(max(color.x, 0), 1), min(max(color.y, 0), 1), min(max(color.z, 0), 1))
        result.baseColor.value = color
        result.metallic = MaterialProperty(metallic)
        return result
    }

    /// Perceived brightness (ITU-R BT.601 weights under a square root).
    static func brightness(_ c: SIMD3<Float>) -> Float {
        (0.299 * c.x * c.x + 0.587 * c.y * c.y + 0.114 * c.z * c.z).squareRoot()
    }

    /// The metalness solving the published conversion's quadratic 0.04·m² + b·m + (0.04 - specular) = 0,
    /// b = diffuse·(1 - s)/0.96 + specular - 0.08; 0 for a reflection weaker than any dielectric's.
    static func solveMetallic(diffuse: Float, specular: Float, oneMinusSpecularStrength: Float) -> Float {
        guard specular >= dielectricReflectance else { return 0 }
        let a = dielectricReflectance
        let b = diffuse * oneMinusSpecularStrength / (1 - a) + specular - 2 * a
        let c = a - specular
        let discriminant = max(b * b - 4 * a * c, 0)
        return min(max((-b + discriminant.squareRoot()) / (2 * a), 0), 1)
    }
}

extension Material {
    /// The inputs set away from their defaults that Phong-style formats (Collada's profile_COMMON,
    /// MTL) have no place for, named for a writer's warning.
    public var inputsBeyondPhong: [String] {
        var names: [String] = []
        if clearcoat.value != 0 || clearcoat.texture != nil { names.append("clearcoat") }
        if ior != 1.5 { names.append("ior \(ior)") }
        if specularColor.texture != nil { names.append("specular texture") }
        // A cut-out keeps its opacity but not the threshold that cuts it.
        if alphaMode == .mask { names.append("alpha cutoff \(opacityThreshold)") }
        return names
    }
}

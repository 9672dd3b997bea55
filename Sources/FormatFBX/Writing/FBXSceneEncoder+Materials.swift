import AssetCore
import Foundation

/// Materials as `FbxSurfacePhong`s that Blender, Unity and ufbx read, with the PBR values in the
/// Maya Stingray properties Maya's exporter writes (`Maya|base_color`, `Maya|metallic`,
/// `Maya|roughness`, `Maya|emissive`): base colour in `DiffuseColor` with its texture connected
/// there, metallic in `ReflectionFactor` and roughness as the Phong shininess Blender reads back
/// (10 (1 − roughness))², opacity in `Opacity` and `TransparencyFactor`. Textures are `Texture`
/// objects over `Video` clips that embed the image, or name a file written beside the FBX.
extension FBXSceneEncoder {
    mutating func material(_ index: Int?) -> Int64 {
        guard let index, index < scene.materials.count else {
            if let defaultMaterial { return defaultMaterial }
            let id = writeMaterial(Material(name: "Default"))
            defaultMaterial = id
            return id
        }
        if let known = materialOf[index] { return known }
        let id = writeMaterial(scene.materials[index])
        materialOf[index] = id
        return id
    }

    private mutating func writeMaterial(_ material: Material) -> Int64 {
        let id = newID()
        func vector(_ v: SIMD3<Float>) -> SIMD3<Double> { SIMD3(Double(v.x), Double(v.y), Double(v.z)) }
        var p = FBXProperties70()
        p.string("ShadingModel", "phong")
        p.color("DiffuseColor", vector(material.baseColor.value))
        p.number("DiffuseFactor", 1)
        p.color("EmissiveColor", vector(material.emissive.value))
        p.number("EmissiveFactor", 1)
        p.color("AmbientColor", .zero)
        p.color("SpecularColor", SIMD3(repeating: 0.5))
        p.number("SpecularFactor", 1)
        let shininess = pow(10 * Double(1 - min(max(material.roughness.value, 0), 1)), 2)
        p.number("Shininess", shininess)
        p.number("ShininessExponent", shininess)
        p.number("ReflectionFactor", Double(material.metallic.value))
        p.color("TransparentColor", SIMD3(repeating: 1))
        p.number("TransparencyFactor", Double(1 - material.opacity.value))
        p.number("Opacity", Double(material.opacity.value))
        p.compound("Maya")
        p.custom("Maya|base_color", type: "Vector3D", label: "Vector", vector(material.baseColor.value).properties)
        p.custom("Maya|metallic", type: "double", label: "Number", [.double(Double(material.metallic.value))])
        p.custom("Maya|roughness", type: "double", label: "Number", [.double(Double(material.roughness.value))])
        p.custom("Maya|emissive", type: "Vector3D", label: "Vector", vector(material.emissive.value).properties)
        p.custom("Maya|emissive_intensity", type: "double", label: "Number", [.double(1)])
        add(FBXRecord("Material", .int64(id), FBXRecord.objectName(material.name, "Material"), .string(""), children: [
            FBXRecord("Version", .int32(102)), FBXRecord("ShadingModel", .string("Phong")), FBXRecord("MultiLayer", .int32(0)), p.record,
        ]), type: "Material")
        connectTextures(of: material, to: id)
        return id
    }

    /// Each texture input on the property engines read it from. FBX's properties take a whole
    /// image, so a metallic or roughness texture packed in one channel of a shared image (glTF's
    /// G and B) is connected only where that channel is red, and named otherwise.
    private mutating func connectTextures(of material: Material, to id: Int64) {
        if let t = material.baseColor.texture { connectTexture(t, to: id, property: "DiffuseColor") }
        if let t = material.emissive.texture { connectTexture(t, to: id, property: "EmissiveColor") }
        if let t = material.normal { connectTexture(t, to: id, property: "NormalMap") }
        if let t = material.opacity.texture { connectTexture(t, to: id, property: "TransparentColor") }
        let single: [(TextureReference?, String, String)] = [(material.metallic.texture, "Maya|TEX_metallic_map", "metallic"),
                                                             (material.roughness.texture, "Maya|TEX_roughness_map", "roughness"),
                                                             (material.occlusion, "Maya|TEX_ao_map", "occlusion")]
        var packed: [String] = []
        for (reference, property, name) in single {
            guard let reference else { continue }
            if reference.channels == .r { connectTexture(reference, to: id, property: property) } else { packed.append("\(name) (\(reference.channels.rawValue))") }
        }
        if !packed.isEmpty {
            diagnostics.append(.warning("material \(material.name): FBX texture properties take a whole image, so the \(packed.joined(separator: ", ")) "
                                        + "channel of a packed texture is left out; its constant value is written"))
        }
    }

    private mutating func connectTexture(_ reference: TextureReference, to material: Int64, property: String) {
        guard let texture = textureObject(reference) else { return }
        connect(texture, to: material, property: property)
    }

    /// One `Texture` per scene texture and set of placement (its UV set and transform).
    private mutating func textureObject(_ reference: TextureReference) -> Int64? {
        let key = "\(reference.texture) \(reference.texcoordSet) \(String(describing: reference.transform))"
        if let known = textureOf[key] { return known }
        guard reference.texture < scene.textures.count else { return nil }
        let texture = scene.textures[reference.texture]
        guard let bytes = context.textureBytes(texture) else {
            diagnostics.append(.warning("texture \(texture.name) could not be read; left out of the FBX"))
            return nil
        }
        let fileName = textureFileName(texture, bytes: bytes)
        let relative = embedsTextures ? fileName : context.textureFolder + "/" + fileName
        if !embedsTextures { textureFiles.append(OutputFile(relativePath: relative, bytes: bytes)) }
        let video = newID(), id = newID()
        var vp = FBXProperties70()
        vp.string("Path", relative)
        var videoChildren = [FBXRecord("Type", .string("Clip")), vp.record, FBXRecord("UseMipMap", .int32(0)),
                             FBXRecord("Filename", .string(relative)), FBXRecord("RelativeFilename", .string(relative))]
        if embedsTextures { videoChildren.append(FBXRecord("Content", .raw(bytes))) }
        add(FBXRecord("Video", .int64(video), FBXRecord.objectName(fileName, "Video"), .string("Clip"), children: videoChildren), type: "Video")
        var p = FBXProperties70()
        p.enumeration("CurrentTextureBlendMode", 0)
        p.string("UVSet", reference.texcoordSet)
        p.bool("UseMaterial", true)
        p.enumeration("WrapModeU", texture.wrapS == .clamp ? 1 : 0)
        p.enumeration("WrapModeV", texture.wrapT == .clamp ? 1 : 0)
        if let transform = reference.transform, !transform.isIdentity {
            p.vector("Translation", SIMD3(Double(transform.translation.x), Double(transform.translation.y), 0))
            p.vector("Rotation", SIMD3(0, 0, Double(transform.rotation)))
            p.vector("Scaling", SIMD3(Double(transform.scale.x), Double(transform.scale.y), 1))
        }
        add(FBXRecord("Texture", .int64(id), FBXRecord.objectName(fileName, "Texture"), .string(""), children: [
            FBXRecord("Type", .string("TextureVideoClip")), FBXRecord("Version", .int32(202)),
            FBXRecord("TextureName", FBXRecord.objectName(fileName, "Texture")), p.record,
            FBXRecord("Media", FBXRecord.objectName(fileName, "Video")), FBXRecord("FileName", .string(relative)),
            FBXRecord("RelativeFilename", .string(relative)), FBXRecord("ModelUVTranslation", .double(0), .double(0)),
            FBXRecord("ModelUVScaling", .double(1), .double(1)), FBXRecord("Texture_Alpha_Source", .string("None")),
            FBXRecord("Cropping", .int32(0), .int32(0), .int32(0), .int32(0)),
        ]), type: "Texture")
        connect(video, to: id)
        textureOf[key] = id
        return id
    }

    /// The texture's own file name with the extension its bytes call for, made unique in the file.
    private mutating func textureFileName(_ texture: Texture, bytes: [UInt8]) -> String {
        let ext = bytes.starts(with: [0xFF, 0xD8, 0xFF]) ? "jpg" : "png"
        var stem = ((texture.name as NSString).lastPathComponent as NSString).deletingPathExtension
        stem = String(stem.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        if stem.isEmpty { stem = "texture" }
        var name = "\(stem).\(ext)", k = 1
        while usedTextureNames.contains(name) { name = "\(stem)_\(k).\(ext)"; k += 1 }
        usedTextureNames.insert(name)
        return name
    }
}

import AssetCore
import Foundation

/// FBX materials as assetc's physically based ones. `FbxSurfaceLambert`/`Phong` map as the Collada
/// reader maps lambert and phong: base colour = DiffuseColor × DiffuseFactor, emissive =
/// EmissiveColor × EmissiveFactor, opacity = Opacity (else 1 − TransparencyFactor), roughness from
/// the Phong exponent by the Blinn-Phong rule of thumb sqrt(2 / (n + 2)) (1 for Lambert), metallic 0.
/// Where a 3ds Max Physical material or a Maya Stingray / standardSurface material writes its own PBR
/// properties, those win. Textures come from `Texture` objects connected to a material property;
/// their image is the `Video` object's embedded `Content`, else the file named by RelativeFilename
/// or FileName, looked for beside the FBX file and only inside the asset root.
struct FBXMaterialBuilder {
    let objects: FBXObjects
    let file: String
    let folder: String
    let sandbox: String
    let allowsOutside: Bool
    /// The read's staged folders: a reference into one is fetched as it is resolved.
    let staged: StagedFiles
    var textures: [Texture] = []
    var diagnostics: [Diagnostic] = []
    private var textureIndex: [String: Int] = [:]

    init(objects: FBXObjects, file: String, options: ReadOptions) {
        self.objects = objects
        self.file = file
        folder = (AssetRoot.real(file, staged: options.staged) as NSString).deletingLastPathComponent
        sandbox = options.assetRoot.folder(for: file)
        allowsOutside = options.allowsPathsOutsideAsset
        staged = options.staged
    }

    /// `uvSets` maps the geometry's UV set names to its primvars, so a texture's UVSet finds its set.
    mutating func material(_ object: FBXObject, uvSets: [String: String]) -> Material {
        var result = Material(name: object.name)
        func color(_ name: String) -> SIMD3<Float>? { object.vector(name).map { SIMD3(Float($0.x), Float($0.y), Float($0.z)) } }
        func number(_ name: String) -> Float? { object.number(name).map(Float.init) }
        let diffuse = (color("DiffuseColor") ?? color("Diffuse") ?? SIMD3(0.8, 0.8, 0.8)) * (number("DiffuseFactor") ?? 1)
        result.baseColor = MaterialProperty(diffuse)
        result.emissive = MaterialProperty((color("EmissiveColor") ?? color("Emissive") ?? .zero) * (number("EmissiveFactor") ?? 1))
        if let opacity = number("Opacity") { result.opacity = MaterialProperty(min(max(opacity, 0), 1)) }
        else if let transparency = number("TransparencyFactor") { result.opacity = MaterialProperty(min(max(1 - transparency, 0), 1)) }
        let model = (object.properties["ShadingModel"]?.first?.string ?? object.node.value("ShadingModel")?.string ?? "phong").lowercased()
        result.shadingSource = "FBX \(model)"
        if model == "lambert" {
            result.roughness = MaterialProperty(1)
        } else {
            let shininess = max(Double(number("ShininessExponent") ?? number("Shininess") ?? 20), 0)
            result.roughness = MaterialProperty(Float(min(1, (2 / (shininess + 2)).squareRoot())))
        }
        result.metallic = MaterialProperty(0)
        applyPBR(object, to: &result)
        for (texture, property) in objects.propertyChildren(of: object.id) where texture.kind == "Texture" || texture.kind == "LayeredTexture" {
            guard let reference = reference(texture.kind == "LayeredTexture" ? objects.children(of: texture.id, kind: "Texture").first ?? texture : texture,
                                            uvSets: uvSets) else { continue }
            // A texture whose file is missing is not bound: the material keeps its colours, as
            // Blender and the SDK show it (the warning names the file).
            guard textures[reference.texture].resolves else { continue }
            switch property {
            case "DiffuseColor", "Diffuse", "Maya|TEX_color_map", "Maya|baseColor", "3dsMax|Parameters|base_color_map", "Maya|base_color":
                result.baseColor = MaterialProperty(SIMD3(1, 1, 1) * (number("DiffuseFactor") ?? 1), texture: reference)
            case "EmissiveColor", "Emissive", "Maya|TEX_emissive_map", "Maya|emissionColor", "3dsMax|Parameters|emit_color_map":
                result.emissive = MaterialProperty(SIMD3(1, 1, 1), texture: reference)
            case "NormalMap", "Maya|TEX_normal_map", "Maya|normalCamera", "3dsMax|Parameters|bump_map":
                result.normal = reference
            case "Bump":
                if result.normal == nil {
                    diagnostics.append(.warning("material \(object.name): a Bump (height) texture is not a normal map and is left out", at: texture.node.location))
                }
            case "TransparentColor", "TransparencyFactor", "Maya|opacity", "3dsMax|Parameters|cutout_map":
                var alpha = reference
                alpha.channels = .a
                result.opacity = MaterialProperty(1, texture: alpha)
            case "Maya|TEX_metallic_map", "Maya|metalness", "3dsMax|Parameters|metalness_map":
                var r = reference; r.channels = .r
                result.metallic = MaterialProperty(1, texture: r)
            case "Maya|TEX_roughness_map", "Maya|specularRoughness", "3dsMax|Parameters|roughness_map":
                var r = reference; r.channels = .r
                result.roughness = MaterialProperty(1, texture: r)
            case "Maya|TEX_ao_map", "3dsMax|Parameters|ao_map":
                var r = reference; r.channels = .r
                result.occlusion = r
            default:
                diagnostics.append(.warning("material \(object.name): the texture on \(property) is not carried", at: texture.node.location))
            }
        }
        return result
    }

    /// 3ds Max Physical and Maya Stingray / standardSurface values, where written.
    private func applyPBR(_ object: FBXObject, to result: inout Material) {
        func color(_ names: [String]) -> SIMD3<Float>? {
            names.lazy.compactMap { object.vector($0) }.first.map { SIMD3(Float($0.x), Float($0.y), Float($0.z)) }
        }
        func number(_ names: [String]) -> Float? { names.lazy.compactMap { object.number($0) }.first.map(Float.init) }
        if let base = color(["3dsMax|Parameters|base_color", "Maya|base_color", "Maya|baseColor"]) {
            result.baseColor = MaterialProperty(base * (number(["3dsMax|Parameters|base_weight", "Maya|base"]) ?? 1))
        }
        if let metal = number(["3dsMax|Parameters|metalness", "Maya|metallic", "Maya|metalness"]) { result.metallic = MaterialProperty(metal) }
        if let rough = number(["3dsMax|Parameters|roughness", "Maya|roughness", "Maya|specularRoughness"]) {
            let inverted = (object.number("3dsMax|Parameters|roughness_inv") ?? 0) != 0
            result.roughness = MaterialProperty(inverted ? 1 - rough : rough)
        }
        if let emission = color(["3dsMax|Parameters|emit_color", "Maya|emissive", "Maya|emissionColor"]) {
            result.emissive = MaterialProperty(emission * (number(["3dsMax|Parameters|emission", "Maya|emissive_intensity", "Maya|emission"]) ?? 1))
        }
        if let transparency = number(["3dsMax|Parameters|transparency"]) { result.opacity = MaterialProperty(1 - transparency) }
        if let opacity = color(["Maya|opacity"]) { result.opacity = MaterialProperty((opacity.x + opacity.y + opacity.z) / 3) }
    }

    private mutating func reference(_ texture: FBXObject, uvSets: [String: String]) -> TextureReference? {
        guard let index = textureIndex(texture) else { return nil }
        let set = texture.text("UVSet").flatMap { uvSets[$0] } ?? "st"
        var reference = TextureReference(texture: index, texcoordSet: set)
        let scale = texture.vector("Scaling") ?? SIMD3(1, 1, 1), move = texture.vector("Translation") ?? .zero
        let turn = texture.vector("Rotation") ?? .zero
        if scale.x != 1 || scale.y != 1 || move.x != 0 || move.y != 0 || turn.z != 0 {
            reference.transform = TextureTransform(scale: SIMD2(Float(scale.x), Float(scale.y)), rotation: Float(turn.z),
                                                   translation: SIMD2(Float(move.x), Float(move.y)))
        }
        return reference
    }

    private mutating func textureIndex(_ texture: FBXObject) -> Int? {
        if let known = textureIndex[texture.id] { return known }
        let video = objects.children(of: texture.id, kind: "Video").first
        let relative = texture.node.value("RelativeFilename")?.string ?? video?.node.value("RelativeFilename")?.string ?? ""
        let absolute = texture.node.value("FileName")?.string ?? texture.node.value("Filename")?.string
            ?? video?.node.value("Filename")?.string ?? video?.node.value("FileName")?.string ?? ""
        let authored = relative.isEmpty ? absolute : relative
        let name = ((authored.replacingOccurrences(of: "\\", with: "/")) as NSString).lastPathComponent
        let wrap = { (key: String) -> Texture.WrapMode in (texture.number(key) ?? 0) == 1 ? .clamp : .repeat }
        var made: Texture?
        if let content = video.flatMap({ Self.content($0.node.value("Content")) }), !content.isEmpty {
            made = Texture(name: name.isEmpty ? "\(texture.name).png" : name,
                           source: .embedded(bytes: content, mimeType: Self.mimeType(content, name: name)))
        } else if !authored.isEmpty {
            made = Texture(name: name, source: .file(authoredPath: authored, resolvedPath: resolve(relative: relative, absolute: absolute, at: texture.node.location)))
        } else {
            diagnostics.append(.warning("texture \(texture.name) names no file and embeds no image", at: texture.node.location))
            return nil
        }
        guard var made else { return nil }
        (made.wrapS, made.wrapT) = (wrap("WrapModeU"), wrap("WrapModeV"))
        textures.append(made)
        textureIndex[texture.id] = textures.count - 1
        return textures.count - 1
    }

    /// The first of RelativeFilename (beside the FBX file), FileName as written, and FileName's last
    /// component beside the FBX file that exists inside the asset root. A file outside it is
    /// refused with a warning; none found is a warning.
    private mutating func resolve(relative: String, absolute: String, at location: SourceLocation) -> String? {
        var candidates: [String] = []
        let normalized = { (path: String) in path.replacingOccurrences(of: "\\", with: "/") }
        if !relative.isEmpty { candidates.append((folder as NSString).appendingPathComponent(normalized(relative))) }
        if !absolute.isEmpty {
            let path = normalized(absolute)
            if path.hasPrefix("/") { candidates.append(path) }
            candidates.append((folder as NSString).appendingPathComponent((path as NSString).lastPathComponent))
        }
        var refused: String?
        for candidate in candidates {
            let real = AssetRoot.real(candidate, staged: staged)
            guard FileManager.default.fileExists(atPath: real) else { continue }
            if !allowsOutside && !AssetRoot.contains(sandbox, real) {
                refused = refused ?? candidate
                continue
            }
            return real
        }
        let authored = relative.isEmpty ? absolute : relative
        if let refused {
            diagnostics.append(.warning("texture refused: " + staged.refusal(staged.name(ofPath: refused), root: sandbox), at: location))
        } else {
            diagnostics.append(.warning("texture '\(authored)' not found (looked for \(candidates.map(staged.name(ofPath:)).joined(separator: ", ")))", at: location))
        }
        return nil
    }

    /// A Video's Content: raw bytes in binary files, base64 text in ASCII ones.
    static func content(_ value: FBXValue?) -> [UInt8]? {
        switch value {
        case .bytes(let bytes)?: return bytes
        case .string(let text)?: return Data(base64Encoded: text, options: .ignoreUnknownCharacters).map { Array($0) }
        default: return nil
        }
    }

    static func mimeType(_ bytes: [UInt8], name: String) -> String {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        let ext = (name as NSString).pathExtension.lowercased()
        return ext == "jpg" || ext == "jpeg" ? "image/jpeg" : "image/\(ext.isEmpty ? "png" : ext)"
    }
}

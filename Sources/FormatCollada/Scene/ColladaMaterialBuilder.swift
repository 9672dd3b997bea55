import AssetCore
import Foundation

/// Maps profile_COMMON effects onto the PBR `Material`: diffuse colour or texture -> baseColor,
/// emission -> emissive, transparent/transparency (A_ONE, A_ZERO, RGB_ZERO, RGB_ONE) -> opacity,
/// shininess -> roughness (sqrt(2 / (shininess + 2)), the Blinn-Phong to microfacet rule of thumb),
/// constant shading -> emission as colour. Texture paths resolve relative to the document,
/// URL-decoded, and never outside the asset root unless allowed.
struct ColladaMaterialBuilder {
    let document: ColladaDocument
    let documentFolder: String
    let sandbox: String
    let allowsOutside: Bool
    /// The read's staged folders: a reference into one is fetched as it is resolved.
    let staged: StagedFiles
    var textures: [Texture] = []
    var diagnostics: [Diagnostic] = []
    private var textureIndex: [String: Int] = [:]

    init(document: ColladaDocument, documentPath: String, options: ReadOptions) {
        self.document = document
        let absolute = URL(fileURLWithPath: documentPath).standardizedFileURL.resolvingSymlinksInPath().path
        documentFolder = (absolute as NSString).deletingLastPathComponent
        sandbox = options.assetRoot.folder(for: documentPath)
        allowsOutside = options.allowsPathsOutsideAsset
        staged = options.staged
    }

    mutating func build(_ material: ColladaMaterial, texcoordSets: [String: String]) -> Material {
        var result = Material(name: material.name)
        let here = document.location(line: material.line, element: "material[@id=\(material.id)]")
        guard let effect = material.effect.flatMap({ document.effects[$0] }) else {
            if let effectID = material.effect {
                diagnostics.append(.warning("unresolved reference #\(effectID) (effect); defaults used", at: here))
            }
            return result
        }
        result.isDoubleSided = effect.isDoubleSided
        result.shadingSource = "Collada \(effect.shading)"
        let colorChannel = effect.shading == "constant" ? "emission" : "diffuse"
        switch effect.channels[colorChannel] {
        case .color(let c)?: result.baseColor = MaterialProperty(SIMD3(Float(c.x), Float(c.y), Float(c.z)))
        case .texture(let sampler, let texcoord)?:
            if let reference = texture(sampler, texcoord: texcoord, effect: effect, texcoordSets: texcoordSets, channels: .rgb) {
                result.baseColor = MaterialProperty(SIMD3(1, 1, 1), texture: reference)
            }
        case nil: break
        }
        if case .color(let c)? = effect.channels["emission"], effect.shading != "constant" {
            result.emissive = MaterialProperty(SIMD3(Float(c.x), Float(c.y), Float(c.z)))
        }
        if effect.shading == "constant" { result.emissive = result.baseColor }
        result.opacity = MaterialProperty(effect.opacity())
        if case .texture(let sampler, let texcoord)? = effect.channels["transparent"] {
            result.opacity.texture = texture(sampler, texcoord: texcoord, effect: effect, texcoordSets: texcoordSets, channels: .a)
        }
        result.roughness = MaterialProperty(effect.roughness())
        result.metallic = MaterialProperty(0)
        return result
    }

    /// Follows sampler -> surface -> image (1.4.1), sampler -> image (1.5), or a texture attribute
    /// naming an image directly, as several exporters write.
    private mutating func texture(_ sampler: String, texcoord: String, effect: ColladaEffect, texcoordSets: [String: String],
                                  channels: TextureReference.Channels) -> TextureReference? {
        var imageID: String?
        if let target = effect.samplers[sampler] {
            imageID = target.hasPrefix("surface:") ? effect.surfaces[String(target.dropFirst("surface:".count))] : target
        } else if document.images[sampler] != nil {
            imageID = sampler
        }
        let here = document.location(line: effect.line, element: "effect[@id=\(effect.id)]")
        guard let imageID, let image = document.images[imageID] else {
            diagnostics.append(.warning("texture '\(sampler)' leads to no image; the constant colour is used", at: here))
            return nil
        }
        let set = texcoordSets[texcoord] ?? texcoordSets.values.sorted().first ?? "st"
        return TextureReference(texture: index(for: image), texcoordSet: set, channels: channels)
    }

    private mutating func index(for image: ColladaImage) -> Int {
        if let known = textureIndex[image.id] { return known }
        let here = document.location(line: image.line, element: "image[@id=\(image.id)]")
        var path = image.path
        if path.hasPrefix("file://") { path = String(path.dropFirst("file://".count)) }
        path = path.removingPercentEncoding ?? path
        let joined = path.hasPrefix("/") ? path : (documentFolder as NSString).appendingPathComponent(path)
        let resolved = AssetRoot.real(joined, staged: staged)
        var resolvedPath: String?
        if !allowsOutside && !AssetRoot.contains(sandbox, resolved) {
            diagnostics.append(.warning("texture refused: " + staged.refusal(image.path, root: sandbox), at: here))
        } else if !FileManager.default.fileExists(atPath: resolved) {
            diagnostics.append(.warning("texture '\(image.path)' not found (looked for \(staged.name(ofPath: resolved)))", at: here))
        } else {
            resolvedPath = resolved
        }
        let name = (path as NSString).lastPathComponent
        textures.append(Texture(name: name, source: .file(authoredPath: image.path, resolvedPath: resolvedPath)))
        textureIndex[image.id] = textures.count - 1
        return textures.count - 1
    }
}

extension ColladaEffect {
    /// The opacity `<transparent>` and `<transparency>` give under the effect's opaque mode; the
    /// arguments replace the authored ones (an animation's sample).
    func opacity(transparent: SIMD4<Double>? = nil, transparency: Double? = nil) -> Float {
        // Without <transparent> the surface is opaque whatever <transparency> says: exporters
        // disagree on what a lone transparency value means, and opaque is the common intent.
        var colour: SIMD4<Double>?
        if case .color(let t)? = channels["transparent"] { colour = t }
        guard let t = transparent ?? colour else { return 1 }
        let factor = transparency ?? values["transparency"] ?? 1
        let luminance = 0.2126 * t.x + 0.7152 * t.y + 0.0722 * t.z
        let value: Double
        switch opaqueMode {
        case "RGB_ZERO": value = 1 - luminance * factor
        case "RGB_ONE": value = luminance * factor
        case "A_ZERO": value = 1 - t.w * factor
        default: value = t.w * factor
        }
        return Float(min(max(value, 0), 1))
    }

    /// Phong and Blinn shininess as roughness, sqrt(2 / (shininess + 2)); 1 for other shading.
    func roughness(shininess: Double? = nil) -> Float {
        guard shading == "phong" || shading == "blinn" else { return 1 }
        let exponent = max(shininess ?? values["shininess"] ?? 20, 0)
        return Float(min(1, (2 / (exponent + 2)).squareRoot()))
    }
}

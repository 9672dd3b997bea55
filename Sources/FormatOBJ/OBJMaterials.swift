import AssetCore
import Foundation

/// The materials an OBJ file uses, from the MTL files its `mtllib` lines name (resolved beside the
/// OBJ, under the asset root), with their texture maps resolved beside each MTL file. A material
/// used but defined nowhere gets MTL's defaults and one warning.
struct OBJMaterials {
    let objPath: String
    let display: String
    let options: ReadOptions
    var materials: [Material] = []
    var textures: [Texture] = []
    var diagnostics: [Diagnostic] = []
    private var indexByName: [String: Int] = [:]
    private var textureByPath: [String: Int] = [:]

    init(objPath: String, display: String, options: ReadOptions) {
        self.objPath = objPath
        self.display = display
        self.options = options
    }

    func index(of name: String) -> Int? { indexByName[name] }

    mutating func load(_ libraries: [(name: String, line: Int)], names: [String]) {
        var defined: [String: (MTLParser.Parsed, mtlPath: String, mtlDisplay: String)] = [:]
        let folder = (AssetRoot.real(objPath, staged: options.staged) as NSString).deletingLastPathComponent
        for (text, line) in libraries {
            let here = SourceLocation(file: display, line: line)
            // One file name that holds spaces, or several names separated by them.
            let candidates = FileManager.default.fileExists(atPath: AssetRoot.real((folder as NSString).appendingPathComponent(text), staged: options.staged)) ? [text] : text.split(separator: " ").map(String.init)
            for name in candidates {
                guard let path = resolve(name, relativeTo: folder, what: "material library", at: here) else { continue }
                do throws(AssetError) {
                    let bytes = try FileBytes.read(path: path, display: name, budget: ReadBudget(options.limits), staged: options.staged)
                    let parsed = MTLParser(file: name).parse(String(decoding: bytes, as: UTF8.self))
                    diagnostics += parsed.diagnostics
                    for (material, value) in parsed.materials where defined[material] == nil { defined[material] = (value, path, name) }
                } catch {
                    diagnostics.append(.warning("material library '\(name)' cannot be read: \(error)", at: here))
                }
            }
        }
        for name in names {
            guard let (parsed, mtlPath, mtlDisplay) = defined[name] else {
                diagnostics.append(.warning("material '\(name)' is used but defined in no material library; MTL defaults are used", at: SourceLocation(file: display)))
                var fallback = Material(name: name)
                fallback.baseColor.value = SIMD3(repeating: 0.8)
                indexByName[name] = materials.count
                materials.append(fallback)
                continue
            }
            var material = parsed.material
            let mtlFolder = (mtlPath as NSString).deletingLastPathComponent
            for map in parsed.maps {
                guard let texture = texture(map.path, folder: mtlFolder, at: SourceLocation(file: mtlDisplay, line: map.line)) else { continue }
                switch map.slot {
                case .baseColor: material.baseColor.texture = TextureReference(texture: texture, channels: .rgb)
                case .opacity: material.opacity.texture = TextureReference(texture: texture, channels: .r)
                case .emissive: material.emissive.texture = TextureReference(texture: texture, channels: .rgb)
                case .roughness: material.roughness.texture = TextureReference(texture: texture, channels: .r)
                case .metallic: material.metallic.texture = TextureReference(texture: texture, channels: .r)
                case .normal: material.normal = TextureReference(texture: texture, channels: .rgb)
                }
            }
            indexByName[name] = materials.count
            materials.append(material)
        }
    }

    /// A path under the asset root, or nil with a warning saying why not.
    private mutating func resolve(_ written: String, relativeTo folder: String, what: String, at here: SourceLocation) -> String? {
        let cleaned = written.replacingOccurrences(of: "\\", with: "/")  // exporters on Windows write backslashes
        let path = AssetRoot.real(cleaned.hasPrefix("/") ? cleaned : (folder as NSString).appendingPathComponent(cleaned), staged: options.staged)
        let root = options.assetRoot.folder(for: objPath)
        if !options.allowsPathsOutsideAsset && !AssetRoot.contains(root, path) {
            diagnostics.append(.warning("\(what) refused: " + options.refusal(written, root: root), at: here))
            return nil
        }
        guard FileManager.default.fileExists(atPath: path) else {
            diagnostics.append(.warning("\(what) '\(written)' not found (looked for \(options.name(ofPath: path)))", at: here))
            return nil
        }
        return path
    }

    /// The scene texture for a map, one per file; a missing or refused file is kept unresolved.
    private mutating func texture(_ written: String, folder: String, at here: SourceLocation) -> Int? {
        let resolved = resolve(written, relativeTo: folder, what: "texture", at: here)
        let key = resolved ?? "unresolved:" + written
        if let known = textureByPath[key] { return known }
        let name = (written.replacingOccurrences(of: "\\", with: "/") as NSString).lastPathComponent
        textures.append(Texture(name: name, source: .file(authoredPath: written, resolvedPath: resolved)))
        textureByPath[key] = textures.count - 1
        return textures.count - 1
    }
}

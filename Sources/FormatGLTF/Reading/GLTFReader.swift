import AssetCore
import Foundation

/// Reads glTF 2.0: `.glb`, and `.gltf` with its buffers and images in sidecar files (under the
/// asset root) or `data:` URIs. Extensions that change what a file means are refused by name when
/// the file requires them and assetc does not implement them; optional ones fall back with a warning.
public struct GLTFReader: SceneReader {

    /// Extensions whose meaning the reader implements or safely ignores when required.
    static let understood: Set<String> = ["KHR_lights_punctual", "KHR_materials_emissive_strength", "KHR_materials_unlit",
                                          "KHR_texture_transform", "KHR_mesh_quantization", "EXT_meshopt_compression",
                                          "KHR_draco_mesh_compression", "EXT_texture_webp",
                                          "KHR_materials_pbrSpecularGlossiness", "KHR_materials_transmission", "KHR_materials_clearcoat",
                                          "KHR_materials_ior", "KHR_materials_variants", "KHR_animation_pointer", "KHR_gaussian_splatting"]

    /// Optional extensions the material builder names itself, with the materials that use them.
    static let namedWhereUsed: Set<String> = ["KHR_materials_sheen", "KHR_materials_volume", "KHR_materials_iridescence",
                                              "KHR_materials_specular", "KHR_materials_anisotropy", "KHR_materials_dispersion",
                                              "KHR_materials_diffuse_transmission"]

    public init() {}

    public var formats: [AssetFormat] { [.gltf, .glb] }

    /// GLB by its magic; glTF JSON by an object that names `asset` near its start.
    public func sniff(prefix: [UInt8], pathExtension: String) -> AssetFormat? {
        if GLTFContainer.isGLB(prefix) { return .glb }
        guard let first = prefix.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }), first == UInt8(ascii: "{") else { return nil }
        let text = String(decoding: prefix, as: UTF8.self)
        return text.contains("\"asset\"") && (pathExtension == "gltf" || text.contains("\"version\"")) ? .gltf : nil
    }

    public func read(_ file: SniffedFile, options: ReadOptions) throws(AssetError) -> ReadResult {
        let display = options.name(of: file.url)
        let path = file.url.path
        let format = file.format
        return try LargeStack.run { () throws(AssetError) -> ReadResult in
            let budget = ReadBudget(options.limits)
            var diagnostics: [Diagnostic] = []
            let bytes = try FileBytes.read(path: path, display: display, budget: budget, staged: options.staged)
            let container = try GLTFContainer(bytes: bytes, file: display, diagnostics: &diagnostics)
            let asset = try Self.decode(container.json, file: display)
            try Self.checkVersionAndExtensions(asset, file: display, diagnostics: &diagnostics)
            let buffers = try Self.loadBuffers(asset, container: container, documentPath: path, display: display, options: options,
                                               budget: budget, diagnostics: &diagnostics)
            var accessors = GLTFAccessorReader(asset: asset, buffers: buffers, budget: budget, file: display)
            accessors.decodedViews = try GLTFMeshopt.decodeViews(asset, buffers: buffers, budget: budget, file: display)
            let viewBytes = accessors
            let loadImage = { (index: Int) throws(AssetError) -> (source: Texture.Source, warning: String?) in
                try Self.image(index, asset: asset, accessors: viewBytes, documentPath: path, display: display, options: options, budget: budget)
            }
            var builder = GLTFSceneBuilder(asset: asset, file: display, limits: options.limits,
                                           meshBuilder: GLTFMeshBuilder(accessors: accessors, file: display),
                                           materialBuilder: GLTFMaterialBuilder(asset: asset, file: display, loadImage: loadImage))
            let scene = try builder.build(format: format)
            return ReadResult(scene: scene, diagnostics: diagnostics + builder.diagnostics)
        }
    }

    static func decode(_ json: ArraySlice<UInt8>, file: String) throws(AssetError) -> GLTFAsset {
        do {
            return try JSONDecoder().decode(GLTFAsset.self, from: Data(json))
        } catch let DecodingError.dataCorrupted(context) {
            // The parser's own message says where (line and column) when the text is not JSON at all.
            let detail = (context.codingPath.isEmpty ? syntaxMessage(Data(json)) : nil) ?? context.debugDescription
            throw AssetError(.malformed("bad JSON: \(detail)"), at: SourceLocation(file: file, elementPath: path(context.codingPath)))
        } catch let DecodingError.keyNotFound(key, context) {
            throw AssetError(.malformed("'\(key.stringValue)' is required"), at: SourceLocation(file: file, elementPath: path(context.codingPath)))
        } catch let DecodingError.typeMismatch(_, context) {
            throw AssetError(.malformed("wrong type: \(context.debugDescription)"), at: SourceLocation(file: file, elementPath: path(context.codingPath + [])))
        } catch let DecodingError.valueNotFound(_, context) {
            throw AssetError(.malformed("a value is missing: \(context.debugDescription)"), at: SourceLocation(file: file, elementPath: path(context.codingPath)))
        } catch {
            throw AssetError(.malformed("bad JSON: \(error)"), at: SourceLocation(file: file))
        }
    }

    /// Where the text stops being JSON ("... around line 1, column 45"), which the decoder's error
    /// does not say; JSONSerialization's does.
    static func syntaxMessage(_ data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data)
            return nil
        } catch {
            return (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
        }
    }

    /// `meshes[0].primitives[1].attributes`, from a decoding path.
    static func path(_ keys: [any CodingKey]) -> String? {
        guard !keys.isEmpty else { return nil }
        var out = ""
        for key in keys {
            if let index = key.intValue { out += "[\(index)]" } else { out += (out.isEmpty ? "" : ".") + key.stringValue }
        }
        return out
    }

    static func checkVersionAndExtensions(_ asset: GLTFAsset, file: String, diagnostics: inout [Diagnostic]) throws(AssetError) {
        let here = SourceLocation(file: file, elementPath: "asset")
        let major = asset.asset.minVersion ?? asset.asset.version
        guard major.split(separator: ".").first == "2" else {
            throw AssetError(.unsupportedFeature("glTF version \(major); assetc reads glTF 2.x"), at: here)
        }
        for name in asset.extensionsRequired ?? [] where !understood.contains(name) {
            throw AssetError(.unsupportedFeature("the file requires extension \(name), which assetc does not implement"),
                             at: SourceLocation(file: file, elementPath: "extensionsRequired"))
        }
        let ignored = (asset.extensionsUsed ?? []).filter {
            !understood.contains($0) && !namedWhereUsed.contains($0) && !(asset.extensionsRequired ?? []).contains($0)
        }
        if !ignored.isEmpty {
            diagnostics.append(.warning("optional extensions not implemented, read without them: \(ignored.joined(separator: ", "))",
                                        at: SourceLocation(file: file, elementPath: "extensionsUsed")))
        }
    }

    /// Every buffer's bytes: the GLB's BIN chunk, a `data:` URI, or a file under the asset root. A
    /// buffer that cannot be had is nil (accessors into it fail with its reason); one shorter than
    /// its `byteLength` is an error, since every offset into it was computed from that length.
    static func loadBuffers(_ asset: GLTFAsset, container: GLTFContainer, documentPath: String, display: String, options: ReadOptions,
                            budget: ReadBudget, diagnostics: inout [Diagnostic]) throws(AssetError) -> [ArraySlice<UInt8>?] {
        var out: [ArraySlice<UInt8>?] = []
        for (index, buffer) in (asset.buffers ?? []).enumerated() {
            let here = SourceLocation(file: display, elementPath: "buffers[\(index)]")
            var bytes: ArraySlice<UInt8>?
            if let uri = buffer.uri {
                switch try GLTFURI.resolve(uri, documentPath: documentPath, options: options, budget: budget, at: here) {
                case .bytes(let data, _): bytes = data[...]
                case .file(_, let path):
                    // A buffer that is not there leaves nothing to read: fail with the file's own error.
                    bytes = try FileBytes.read(path: path, display: uri, budget: budget, staged: options.staged)[...]
                case .refused(let why): throw AssetError(.refusedPath("buffer refused: \(why)"), at: here)
                }
            } else if index == 0, let chunk = container.binaryChunk {
                bytes = chunk
            } else if buffer.extensions?.EXT_meshopt_compression?.fallback == true {
                // Only compressed views point into it; they are decoded from their own buffers.
            } else {
                diagnostics.append(.warning("buffer \(index) has no uri and there is no GLB BIN chunk for it", at: here))
            }
            if let loaded = bytes, loaded.count < buffer.byteLength {
                throw AssetError(.malformed("byteLength is \(buffer.byteLength) but the buffer holds \(loaded.count) bytes"), at: here)
            }
            out.append(bytes.map { $0.prefix(max(buffer.byteLength, 0)) })
        }
        return out
    }

    /// An image's bytes or file: a buffer view (with its mimeType), a `data:` URI, or a path under
    /// the asset root (kept unresolved, with its reason, when missing or refused).
    static func image(_ index: Int, asset: GLTFAsset, accessors: GLTFAccessorReader, documentPath: String, display: String,
                      options: ReadOptions, budget: ReadBudget) throws(AssetError) -> (source: Texture.Source, warning: String?) {
        let image = asset.images![index]
        let here = SourceLocation(file: display, elementPath: "images[\(index)]")
        if let viewIndex = image.bufferView {
            return (.embedded(bytes: Array(try accessors.viewBytes(viewIndex, at: here)), mimeType: image.mimeType ?? "image/png"), nil)
        }
        guard let uri = image.uri else { throw AssetError(.malformed("an image needs a uri or a bufferView"), at: here) }
        switch try GLTFURI.resolve(uri, documentPath: documentPath, options: options, budget: budget, at: here) {
        case .bytes(let bytes, let mime): return (.embedded(bytes: bytes, mimeType: image.mimeType ?? mime), nil)
        case .file(let authored, let path):
            let exists = FileManager.default.fileExists(atPath: path)
            return (.file(authoredPath: authored, resolvedPath: exists ? path : nil), exists ? nil : "texture '\(uri)' not found (looked for \(options.name(ofPath: path)))")
        case .refused(let why): return (.file(authoredPath: uri, resolvedPath: nil), "texture refused: \(why)")
        }
    }
}

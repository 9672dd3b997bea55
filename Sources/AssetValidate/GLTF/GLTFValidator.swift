import AssetCore
import FormatGLTF

/// `assetc validate` for glTF and GLB: the Khronos glTF-Validator's checks under its issue codes,
/// on the raw JSON and bytes rather than the Scene (which forgets how a file was written). The
/// container, then the JSON, then the schema, then the links between objects, then the data in
/// the buffers, each stage running as far as the one before lets it.
public struct GLTFValidator: Sendable {
    public static let extensions: Set<String> = ["gltf", "glb"]

    public var options: ReadOptions

    public init(options: ReadOptions = ReadOptions()) {
        self.options = options
    }

    /// The findings for one file; a file that cannot be read at all is an error, not a finding.
    public func validate(path: String, display: String? = nil, contents: [UInt8]? = nil) throws(AssetError) -> [ValidationFinding] {
        let shown = display ?? options.name(ofPath: path)
        let budget = ReadBudget(options.limits)
        let bytes: [UInt8]
        if let contents { bytes = contents } else { bytes = try GLTFResource.file(path: path, display: shown, budget: budget) }
        return findings(in: bytes, path: path, shown: shown, budget: budget)
    }

    /// The stages in order. No large stack is needed: the JSON parser stops at 256 levels, and
    /// the checks descend only as deep as the schema (a few levels), not as deep as the document.
    private func findings(in bytes: [UInt8], path: String, shown: String, budget: ReadBudget) -> [ValidationFinding] {
        var findings = GLTFFindings(file: shown)
        let isGLB = GLBStructure.isGLB(bytes) || path.lowercased().hasSuffix(".glb")
        var json: ArraySlice<UInt8>? = bytes[...]
        var binary: ArraySlice<UInt8>?
        var jsonOffset = 0
        if isGLB {
            let structure = GLBStructure(bytes, findings: &findings)
            (json, binary, jsonOffset) = (structure.json, structure.binary, structure.jsonOffset)
        }
        guard let json else { return Self.sorted(findings.finished()) }
        let root: JSONValue
        do throws(JSONSyntaxError) {
            root = try JSONParser.parse(json)
        } catch {
            let place = isGLB ? "JSON chunk, byte \(jsonOffset + error.offset) of the file" : ""
            findings.add("INVALID_JSON", "\(error.message) (line \(error.line), column \(error.column))", at: place,
                         line: isGLB ? nil : error.line, column: isGLB ? nil : error.column)
            return Self.sorted(findings.finished())
        }
        var walk = GLTFSchemaWalk(root: root, findings: findings)
        findings = walk.run()
        var document = GLTFDocumentRules(root: root, findings: findings)
        document.run()
        findings = document.findings
        let buffers = loadBuffers(root, binary: binary, isGLB: isGLB, documentPath: path, budget: budget, findings: &findings)
        var data = GLTFDataRules(root: root, buffers: buffers, usage: document.usage, findings: findings, budget: budget)
        data.decodeStreams(json: json)
        data.run()
        findings = data.findings
        checkImages(root, buffers: buffers, isGLB: isGLB, documentPath: path, budget: budget, findings: &findings)
        return Self.sorted(findings.finished())
    }

    static func sorted(_ findings: [ValidationFinding]) -> [ValidationFinding] {
        findings.sorted { ($0.location.elementPath ?? "", $0.rule, $0.message) < ($1.location.elementPath ?? "", $1.rule, $1.message) }
    }

    /// Each buffer's bytes (nil where they cannot be had, with the finding that says why), cut to
    /// its byteLength.
    private func loadBuffers(_ root: JSONValue, binary: ArraySlice<UInt8>?, isGLB: Bool, documentPath: String, budget: ReadBudget,
                             findings: inout GLTFFindings) -> [ArraySlice<UInt8>?] {
        let buffers = root["buffers"]?.elements ?? []
        return buffers.enumerated().map { index, buffer -> ArraySlice<UInt8>? in
            let here = "/buffers/\(index)"
            guard let declared = buffer["byteLength"]?.integer, declared >= 1 else { return nil }
            var bytes: ArraySlice<UInt8>?
            if let uri = buffer["uri"]?.string {
                // The schema walk named a URI that is invalid or not relative; neither is loaded.
                let form = GLTFURIForm(uri)
                guard form.isLoadable else { return nil }
                if isGLB { findings.add(uri.hasPrefix("data:") ? "DATA_URI_GLB" : "URI_GLB", "a GLB's buffer \(index) refers to '\(uri.prefix(40))'", at: here + "/uri") }
                if case .data(let media, _) = form, media != "application/octet-stream" && media != "application/gltf-buffer" {
                    findings.add("BUFFER_DATA_URI_MIME_TYPE_INVALID", "the data: URI's media type is '\(media)'", at: here + "/uri")
                }
                switch GLTFResource.load(uri: uri, documentPath: documentPath, options: options, budget: budget) {
                case .bytes(let data, _): bytes = data[...]
                case .refused(let why): findings.add("IO_ERROR", "buffer \(index) is not read: \(why)", at: here + "/uri")
                case .unreadable(let why): findings.add("IO_ERROR", "buffer \(index) cannot be read: \(why)", at: here + "/uri")
                }
            } else if isGLB && index == 0, let binary {
                bytes = binary
                if binary.count > declared + 3 {
                    findings.add("BUFFER_GLB_CHUNK_TOO_BIG", "the BIN chunk holds \(binary.count - declared) bytes past the buffer's byteLength", at: here)
                }
            } else if buffer["extensions"]?["EXT_meshopt_compression"]?["fallback"]?.bool == true {
                return nil
            } else if !isGLB || index != 0 {
                // A buffer without uri that is not the GLB's BIN chunk is data an application
                // supplies (a placeholder, to the validator): nothing to check.
                return nil
            } else {
                findings.add("BUFFER_MISSING_GLB_DATA", isGLB && index == 0 ? "the buffer has no uri and the GLB no BIN chunk"
                                                                           : "buffer \(index) has no uri and is not the GLB's first buffer", at: here)
                return nil
            }
            guard let loaded = bytes else { return nil }
            if loaded.count < declared {
                findings.add("BUFFER_BYTE_LENGTH_MISMATCH", "the data is \(loaded.count) bytes; byteLength says \(declared)", at: here + "/byteLength")
                return loaded
            }
            return loaded.prefix(declared)
        }
    }

    /// Images: what their bytes are against what they say they are, and their sizes.
    private func checkImages(_ root: JSONValue, buffers: [ArraySlice<UInt8>?], isGLB: Bool, documentPath: String, budget: ReadBudget,
                             findings: inout GLTFFindings) {
        let views = root["bufferViews"]?.elements ?? []
        for (index, image) in (root["images"]?.elements ?? []).enumerated() {
            let here = "/images/\(index)"
            var bytes: [UInt8]?
            if let viewIndex = image["bufferView"]?.integer, views.indices.contains(viewIndex) {
                let view = views[viewIndex]
                if view["byteStride"] != nil { findings.add("IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE", "bufferView \(viewIndex) holds an image and has a byteStride", at: here + "/bufferView") }
                bytes = GLTFBytes.view(view, buffers: buffers).map(Array.init)
            } else if let uri = image["uri"]?.string {
                let form = GLTFURIForm(uri)
                guard form.isLoadable else { continue }
                if isGLB && !uri.hasPrefix("data:") { findings.add("URI_GLB", "a GLB's image \(index) refers to '\(uri.prefix(40))'", at: here + "/uri") }
                if isGLB && uri.hasPrefix("data:") { findings.add("DATA_URI_GLB", "a GLB's image \(index) is a data: URI", at: here + "/uri") }
                switch GLTFResource.load(uri: uri, documentPath: documentPath, options: options, budget: budget) {
                case .bytes(let data, _): bytes = data
                case .refused(let why): findings.add("IO_ERROR", "image \(index) is not read: \(why)", at: here + "/uri")
                case .unreadable(let why): findings.add("IO_ERROR", "image \(index) cannot be read: \(why)", at: here + "/uri")
                }
            }
            guard let bytes else { continue }
            let declared = image["mimeType"]?.string
            guard let found = GLTFImageKind.detect(bytes) else {
                findings.add("IMAGE_UNRECOGNIZED_FORMAT", "image \(index) is in no format glTF knows (it starts \(bytes.prefix(4).map { String($0, radix: 16) }.joined(separator: " ")))", at: here)
                continue
            }
            if case .data(let media, _)? = image["uri"]?.string.map(GLTFURIForm.init), !media.isEmpty, media != found.mimeType {
                findings.add("INVALID_URI", "the data: URI says \(media); its payload is \(found.mimeType)", at: here + "/uri")
            }
            if let declared, declared != found.mimeType {
                findings.add("IMAGE_MIME_TYPE_INVALID", "the bytes are \(found.mimeType); mimeType says \(declared)", at: here + "/mimeType")
            }
            if let features = found.unsupportedFeatures(bytes) {
                findings.add("IMAGE_FEATURES_UNSUPPORTED", "image \(index) has \(features)", at: here)
            }
            switch found.dimensions(bytes) {
            case .some((let width, let height)):
                if width & (width - 1) != 0 || height & (height - 1) != 0 {
                    findings.add("IMAGE_NPOT_DIMENSIONS", "\(width) x \(height)", at: here)
                }
            case .none:
                findings.add(found.truncated(bytes) ? "IMAGE_UNEXPECTED_EOS" : "IMAGE_DATA_INVALID",
                             "the \(found.mimeType) header cannot be read", at: here)
            }
        }
    }
}

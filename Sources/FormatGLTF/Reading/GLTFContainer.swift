import AssetCore
import Foundation

/// The two ways a glTF asset is packed: a `.glb` (a 12-byte header, then a JSON chunk and an
/// optional BIN chunk, every length checked against the file before it is used) or a `.gltf`
/// (the JSON alone, its buffers and images in sidecar files or `data:` URIs).
struct GLTFContainer {
    var json: ArraySlice<UInt8>
    /// The GLB's BIN chunk: the bytes of the buffer with no `uri`.
    var binaryChunk: ArraySlice<UInt8>?

    static let magic: [UInt8] = Array("glTF".utf8)
    static let jsonChunkType: UInt32 = 0x4E4F_534A
    static let binChunkType: UInt32 = 0x004E_4942

    static func isGLB(_ bytes: [UInt8]) -> Bool { bytes.starts(with: magic) }

    init(bytes: [UInt8], file: String, diagnostics: inout [Diagnostic]) throws(AssetError) {
        guard Self.isGLB(bytes) else {
            json = bytes[...]
            return
        }
        func malformed(_ message: String) -> AssetError { AssetError(.malformed(message), at: SourceLocation(file: file, elementPath: "GLB header")) }
        guard bytes.count >= 20 else { throw malformed("the file is \(bytes.count) bytes, too short for a GLB header and a chunk") }
        let version = Self.u32(bytes, 4), length = Int(Self.u32(bytes, 8))
        guard version == 2 else { throw malformed("GLB version \(version); assetc reads version 2") }
        if length != bytes.count {
            guard length < bytes.count else { throw malformed("the header says \(length) bytes but the file has \(bytes.count)") }
            diagnostics.append(.warning("the header says \(length) bytes; the \(bytes.count - length) bytes after that are ignored",
                                        at: SourceLocation(file: file, elementPath: "GLB header")))
        }
        var chunks: [(type: UInt32, range: Range<Int>)] = []
        var offset = 12
        while offset < length {
            guard length - offset >= 8 else { throw malformed("a chunk header at byte \(offset) runs past the end") }
            let size = Int(Self.u32(bytes, offset)), type = Self.u32(bytes, offset + 4)
            // Subtracting keeps the check overflow-free whatever size the chunk claims.
            guard size <= length - offset - 8 else {
                throw malformed("the chunk at byte \(offset) claims \(size) bytes; only \(length - offset - 8) follow")
            }
            chunks.append((type, (offset + 8)..<(offset + 8 + size)))
            offset += 8 + size
        }
        guard let first = chunks.first, first.type == Self.jsonChunkType else { throw malformed("the first chunk is not JSON") }
        json = bytes[first.range]
        binaryChunk = chunks.dropFirst().first { $0.type == Self.binChunkType }.map { bytes[$0.range] }
    }

    @inline(__always) static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }
}

/// Where a buffer or image `uri` leads: inline bytes (`data:`), or a file that must lie under the
/// asset root. URIs are percent-decoded (RFC 3986, as glTF writes them) before they are resolved.
enum GLTFURI {
    enum Resolved {
        case bytes([UInt8], mimeType: String)
        case file(authored: String, path: String)
        case refused(String)
    }

    static func resolve(_ uri: String, documentPath: String, options: ReadOptions, budget: ReadBudget,
                        at here: SourceLocation) throws(AssetError) -> Resolved {
        if uri.hasPrefix("data:") { return try decodeData(uri, budget: budget, at: here) }
        if uri.contains("://") { return .refused("'\(uri)' is not a relative path (only files beside the asset are read)") }
        let decoded = uri.removingPercentEncoding ?? uri
        if decoded.hasPrefix("/") { return .refused("'\(uri)' is an absolute path") }
        let folder = (AssetRoot.real(documentPath, staged: options.staged) as NSString).deletingLastPathComponent
        let joined = AssetRoot.real((folder as NSString).appendingPathComponent(decoded), staged: options.staged)
        let root = options.assetRoot.folder(for: documentPath)
        if !options.allowsPathsOutsideAsset && !AssetRoot.contains(root, joined) {
            return .refused(options.refusal(uri, root: root))
        }
        return .file(authored: uri, path: joined)
    }

    /// `data:[mime][;base64],payload`. The decoded size is charged to the budget before decoding.
    static func decodeData(_ uri: String, budget: ReadBudget, at here: SourceLocation) throws(AssetError) -> Resolved {
        guard let comma = uri.firstIndex(of: ",") else { throw AssetError(.malformed("a data: URI without a ','"), at: here) }
        let header = uri[uri.index(uri.startIndex, offsetBy: 5)..<comma]
        let payload = uri[uri.index(after: comma)...]
        let mime = header.split(separator: ";").first.map(String.init) ?? "application/octet-stream"
        guard header.hasSuffix(";base64") else {
            let text = String(payload).removingPercentEncoding ?? String(payload)
            return .bytes(Array(text.utf8), mimeType: mime)
        }
        try budget.spend(bytes: payload.utf8.count / 4 * 3, for: "a data: URI", at: here)
        guard let data = Data(base64Encoded: String(payload), options: [.ignoreUnknownCharacters]) else {
            throw AssetError(.malformed("a data: URI is not valid base64"), at: here)
        }
        return .bytes(Array(data), mimeType: mime)
    }
}

import AssetCore

/// A buffer's or image's bytes as a glTF `uri` names them, for callers outside the reader
/// (validation): a `data:` URI decoded, or a file read from under the asset root, never from
/// elsewhere.
public enum GLTFResource {
    public enum Loaded: Sendable {
        case bytes([UInt8], mimeType: String?)
        /// The file is outside the asset root, or the URI is not a relative path.
        case refused(String)
        /// The file cannot be read (missing, unreadable, over the read limits).
        case unreadable(String)
    }

    /// A glTF or GLB file's bytes, within the budget's size limit: what validation reads.
    public static func file(path: String, display: String, budget: ReadBudget) throws(AssetError) -> [UInt8] {
        try FileBytes.read(path: path, display: display, budget: budget)
    }

    public static func load(uri: String, documentPath: String, options: ReadOptions, budget: ReadBudget) -> Loaded {
        let here = SourceLocation(file: options.name(ofPath: documentPath))
        do throws(AssetError) {
            switch try GLTFURI.resolve(uri, documentPath: documentPath, options: options, budget: budget, at: here) {
            case .bytes(let bytes, let mime): return .bytes(bytes, mimeType: mime)
            case .refused(let why): return .refused(why)
            case .file(_, let path): return .bytes(try FileBytes.read(path: path, display: uri, budget: budget, staged: options.staged), mimeType: nil)
            }
        } catch {
            return .unreadable(error.message)
        }
    }
}

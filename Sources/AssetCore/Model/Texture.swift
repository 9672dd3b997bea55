/// An image a material samples.
public struct Texture: Sendable, Equatable {
    public var name: String
    public var source: Source
    public var wrapS: WrapMode
    public var wrapT: WrapMode
    /// A PNG of the same picture, where the texture keeps an encoding some readers of the output
    /// lack (WebP in glTF, under EXT_texture_webp): those readers take this instead. Set by the
    /// converter's texture pass; any pass that replaces `source` clears it.
    public var fallbackPNG: [UInt8]?

    public init(name: String, source: Source, wrapS: WrapMode = .repeat, wrapT: WrapMode = .repeat) {
        self.name = name
        self.source = source
        self.wrapS = wrapS
        self.wrapT = wrapT
    }

    public enum Source: Sendable, Equatable {
        /// A file beside the asset. `resolvedPath` is absolute and inside the asset's folder, or nil
        /// when the file is missing or was refused for pointing outside it.
        case file(authoredPath: String, resolvedPath: String?)
        /// An entry of the usdz package the scene came from.
        case packageEntry(package: String, entry: String)
        /// Bytes carried by the asset itself (glTF buffers, data URIs).
        case embedded(bytes: [UInt8], mimeType: String)
    }

    public enum WrapMode: String, Sendable, Hashable, Codable {
        case `repeat`
        case mirror
        case clamp
        case black
    }

    /// The path as the asset wrote it.
    public var authoredPath: String {
        switch source {
        case .file(let authored, _): return authored
        case .packageEntry(_, let entry): return entry
        case .embedded: return name
        }
    }

    /// Whether the image can be loaded.
    public var resolves: Bool {
        switch source {
        case .file(_, let resolved): return resolved != nil
        case .packageEntry, .embedded: return true
        }
    }
}

import Foundation

/// A format module's entry point for reading. Implementations live in the format modules, which
/// import AssetCore only; the registry in AssetPipeline knows them all.
public protocol SceneReader: Sendable {
    /// Short names of the formats this reader handles ("usda", "usdz").
    var formats: [FormatDescription] { get }
    /// The format the content is in, judged from the first bytes of the file, or nil when it is not
    /// one of this reader's. Content wins over the extension.
    func sniff(prefix: [UInt8], pathExtension: String) -> FormatDescription?
    func read(from url: URL, options: ReadOptions) throws(AssetError) -> ReadResult
}

public struct FormatDescription: Sendable, Hashable, CustomStringConvertible {
    /// Short name, as `info` prints it: "usda", "usdz", "dae".
    public var name: String
    public var fileExtensions: [String]
    public var summary: String

    public init(name: String, fileExtensions: [String], summary: String) {
        self.name = name
        self.fileExtensions = fileExtensions
        self.summary = summary
    }

    public var description: String { name }
}

/// A scene and what the reader noticed on the way.
public struct ReadResult: Sendable {
    public var scene: Scene
    public var diagnostics: [Diagnostic]

    public init(scene: Scene, diagnostics: [Diagnostic] = []) {
        self.scene = scene
        self.diagnostics = diagnostics
    }

    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
}

import AssetCore
import Foundation

/// Reads Autodesk FBX: binary 7.1-7.7 and ASCII 6.1 and 7.x, into the same Scene every reader
/// fills. The records parse into an `FBXDocument`, the `Objects` and `Connections` into an
/// object graph, and `FBXSceneBuilder` builds the scene from it. `FBXWriter` writes binary 7.4.
public struct FBXReader: SceneReader {
    public init() {}

    public var formats: [AssetFormat] { [.fbx] }

    public func sniff(prefix: [UInt8], pathExtension: String) -> AssetFormat? {
        if prefix.starts(with: Array("Kaydara FBX Binary".utf8)) { return .fbx }
        return FBXTextParser.looksLikeText(prefix) ? .fbx : nil
    }

    public func read(_ file: SniffedFile, options: ReadOptions) throws(AssetError) -> ReadResult {
        let display = options.name(of: file.url)
        let budget = ReadBudget(options.limits)
        let bytes = try FileBytes.read(path: file.url.path, display: display, budget: budget, staged: options.staged)
        let document = bytes.starts(with: Array("Kaydara FBX Binary".utf8))
            ? try FBXBinaryParser.parse(bytes, file: display, budget: budget)
            : try FBXTextParser.parse(bytes, file: display, budget: budget)
        var builder = FBXSceneBuilder(document: document, objects: FBXObjects(document), file: file.url.path, options: options, budget: budget)
        let scene = try builder.build()
        return ReadResult(scene: scene, diagnostics: builder.diagnostics)
    }
}

import AssetCore

/// One transformation of a whole scene, run by the converter when the options or the target
/// writer ask for it.
public protocol ScenePass: Sendable {
    var name: String { get }
    func run(_ scene: inout Scene, diagnostics: inout [Diagnostic])
}


import AssetCore

/// One transformation of a whole scene, run by the converter when the options or the target
/// writer ask for it.
public protocol ScenePass: Sendable {
    var name: String { get }
    func run(_ scene: inout Scene, diagnostics: inout [Diagnostic])
}

/// A pass whose work depends on the format written (which texture encodings that format carries):
/// the converter asks it for the pass to run for the writer's format.
public protocol TargetedScenePass: ScenePass {
    func targeting(_ format: AssetFormat) -> any ScenePass
}

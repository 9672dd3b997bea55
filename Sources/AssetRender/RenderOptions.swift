import AssetCore

/// What to render and how.
public struct RenderOptions: Sendable {
    /// Width and height in pixels.
    public var size: Int = 256
    public var view: RenderView = .iso
    /// An explicit camera (the renderer sets its near and far planes around the model); nil
    /// frames the scene automatically from `view`.
    public var camera: RenderCamera?
    /// Samples per pixel along each axis (2 gives 2x2).
    public var supersample: Int = 2
    /// nil: transparent background.
    public var background: SIMD3<Float>?
    /// The bytes of a scene texture, or nil when it cannot be had.
    public var textureBytes: @Sendable (Texture) -> [UInt8]? = { _ in nil }
    /// The memory and work one render may take (framebuffer bytes, triangles after instancing).
    public var limits = ReadLimits()
    /// Where errors say the scene came from.
    public var source: String?
    /// Environment light (the default) or SceneKit's headlight.
    public var lighting: Lighting = .environment
    /// The environment that lights the scene; nil is the built-in studio (`StudioEnvironment`).
    public var environment: PrefilteredEnvironment?
    /// Degrees the environment is turned about the up axis, counter-clockwise seen from above
    /// (as Blender's mapping rotation about Z and three.js's `environmentRotation.y`).
    public var environmentRotation: Double = 0
    /// Stops of exposure: light is scaled by 2^EV before tone mapping.
    public var exposure: Double = 0
    /// nil: Khronos PBR Neutral under environment light, a plain clamp under the headlight (its old look).
    public var toneMapping: ToneMapping?
    /// A soft contact shadow under the model on the ground plane (`GroundShadow`).
    public var shadow = false

    public init() {}

    /// What the tone mapping is once the default is applied.
    public var effectiveToneMapping: ToneMapping { toneMapping ?? (lighting == .headlight ? .none : .neutral) }

    /// A short text naming every option that changes the look of a picture but not its framing,
    /// for cache keys: two renders with the same scene, size, view and look are the same picture.
    public var look: String {
        var parts = [lighting.rawValue]
        if lighting == .environment {
            parts.append(environment?.key ?? StudioEnvironment.key)
            if environmentRotation != 0 { parts.append("rot\(environmentRotation)") }
        }
        if exposure != 0 { parts.append("ev\(exposure)") }
        parts.append(effectiveToneMapping.rawValue)
        if shadow { parts.append("shadow") }
        return parts.joined(separator: ",")
    }

    /// `look` as eight hex digits, for file names.
    public var lookDigest: String {
        let hash = PrefilteredEnvironment.checksum(Array(look.utf8))
        let hex = String(hash >> 32, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}

public struct RenderResult: Sendable {
    public var image: RGBAImage
    public var camera: RenderCamera
    public var diagnostics: [Diagnostic]
    /// The scene's world bounds, as framing took them (`Scene.worldBounds`): a caller reporting
    /// them need not walk a million splats again.
    public var bounds: Bounds3
}

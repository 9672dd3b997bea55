import ArgumentParser
import AssetCore
import AssetKit
import AssetRender

extension Lighting: ExpressibleByArgument {}
extension ToneMapping: ExpressibleByArgument {}

/// How pictures are lit and finished, shared by every command that renders (`thumbnail`,
/// `index --thumbnails`, `worker`, `serve`), so their thumbnails agree.
struct LookOptions: ParsableArguments {
    @Option(help: ArgumentHelp("environment: physically based shading lit by an environment; headlight: SceneKit's default lighting (Lambert and Blinn-Phong from a light at the camera).",
                               valueName: "mode"))
    var lighting: Lighting = .environment

    @Option(help: ArgumentHelp("An equirectangular environment image (Radiance .hdr; PNG and JPEG are taken as sRGB), oriented as three.js and Blender map one: the centre column faces +X, three quarters across faces +Z, the top row is up. Default: a built-in neutral studio.",
                               valueName: "file"))
    var environment: String?

    // Unconditional: `--environment-rotation -90` and `--exposure -1` take their negative value.
    @Option(parsing: .unconditional, help: ArgumentHelp("Turn the environment about the up axis, counter-clockwise seen from above.", valueName: "degrees"))
    var environmentRotation = 0.0

    @Option(parsing: .unconditional, help: ArgumentHelp("Exposure in stops: light is scaled by 2^EV before tone mapping.", valueName: "EV"))
    var exposure = 0.0

    @Option(help: ArgumentHelp("neutral: Khronos PBR Neutral; aces: ACES filmic as three.js applies it; none: clamp (Blender's Standard view). Default: neutral, none with --lighting headlight.",
                               valueName: "curve"))
    var toneMapping: ToneMapping?

    @Flag(inversion: .prefixedNo,
          help: "Lay a soft contact shadow under the model on the ground plane (black with alpha over a transparent background). Default: off, on for serve.")
    var shadow: Bool?

    @Flag(name: .customLong("no-cache"),
          help: "Prefilter --environment anew rather than take it from (and add it to) the cache of prefiltered environments: the catalog's folder for index, worker and serve, else ASSETC_CACHE_DIR, $XDG_CACHE_HOME/assetc or ~/.cache/assetc.")
    var noCache = false

    func validate() throws {
        guard environmentRotation.isFinite else { throw ValidationError("--environment-rotation takes a number of degrees") }
        guard exposure.isFinite, (-20...20).contains(exposure) else { throw ValidationError("--exposure takes -20 to 20 stops") }
        if environment != nil && lighting == .headlight { throw ValidationError("--environment lights --lighting environment; the headlight has none") }
    }

    /// `render` with this look; the environment is read and prefiltered here (once per process,
    /// kept on disk under `cacheFolder`, else the user's cache folder, unless `--no-cache`), so a
    /// bad one stops the command before anything is written: 64 when it is missing, 65 when it is
    /// not a usable image.
    @discardableResult
    func apply(to render: inout RenderOptions, cacheFolder: String? = nil, shadowByDefault: Bool = false) throws -> [Diagnostic] {
        render.lighting = lighting
        render.environmentRotation = environmentRotation
        render.exposure = exposure
        render.toneMapping = toneMapping
        render.shadow = shadow ?? shadowByDefault
        guard let environment else { return [] }
        let loaded: EnvironmentLibrary.Loaded
        do throws(AssetError) {
            loaded = try EnvironmentLibrary.shared.environment(at: environment, cacheFolder: noCache ? nil : cacheFolder ?? UserCacheFolder.path())
        } catch {
            var stderr = StandardError()
            print("assetc: error: --environment: \(TerminalText.safe(error.description))", to: &stderr)
            if case .fileNotFound = error.kind { throw ExitCode(64) }
            throw ExitCode(65)
        }
        render.environment = loaded.environment
        var stderr = StandardError()
        for warning in loaded.warnings { print("assetc: warning: \(TerminalText.safe(warning.description))", to: &stderr) }
        return loaded.warnings
    }
}

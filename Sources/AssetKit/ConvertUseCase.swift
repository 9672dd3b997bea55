import AssetCore
import AssetPipeline
import Foundation

/// `assetc convert`, and the service's conversions: read, run the passes the target needs, write
/// atomically.
public struct ConvertUseCase: Sendable {
    let converter: Converter
    /// Whether a glTF input is validated first (one warning counting its errors; fatal with
    /// --strict). Off where the caller reports the glTF findings itself (`validate --target usdz`).
    package var checksGLTF = true

    public init() {
        self.init(registry: .standard)
    }

    package init(registry: FormatRegistry) {
        converter = Converter(registry: registry)
    }

    public struct Report: Sendable {
        public var format: AssetFormat
        /// What the input was read as.
        public var sourceFormat: AssetFormat
        public var writtenFiles: [String]
        public var diagnostics: [Diagnostic]
        /// The source's metadata as read (its own up axis and units).
        public var sourceMetadata: SceneMetadata
        /// The converted scene's textures, each with whether it resolved.
        public var textures: [Texture]
        /// What simplification did, mesh by mesh (`--max-triangles`, `--ratio`).
        public var simplification: [SimplifiedMesh] = []
        /// The textures resized or re-encoded (`--max-texture`, `--texture-format`, `--budget`).
        public var shrunkTextures: [ShrinkTexturesPass.TextureReport] = []
        /// The outputs `--max-size` found too large before the one written.
        public var sizeTries: [SizeTry] = []
        /// The written files' bytes, all together.
        public var bytesWritten = 0
    }

    /// One mesh `--max-triangles` or `--ratio` simplified.
    public struct SimplifiedMesh: Sendable, Equatable, Encodable {
        public var mesh: String
        public var trianglesBefore: Int
        public var trianglesAfter: Int
        /// The largest deviation from the original surface, in the mesh's units.
        public var error: Float
        /// Whether its borders (UV seams, material edges) had to move to reach the budget.
        public var bordersMoved: Bool
    }

    /// The formats assetc writes, as `--to` and the service's `to=` take them.
    public static var outputFormats: [AssetFormat] { FormatRegistry.standard.writers.map(\.format) }

    public func run(input: String, output: String, options: ConvertOptions) throws(AssetError) -> Report {
        // With --strict the check must stop the conversion before anything is written; otherwise
        // it runs beside the conversion, on the other core, and only adds its warning.
        let strict = options.readOptions.isStrict
        let early = checksGLTF && strict ? try GLTFValidationNotice.check(input, options: options.readOptions) : nil
        let pending = checksGLTF && !strict ? GLTFValidationNotice.Pending(input, options: options.readOptions) : nil
        let report: ConvertReport
        do throws(AssetError) { report = try converter.convert(input: input, output: output, options: options) } catch {
            pending?.finish()  // the conversion's error is the one to report
            throw error
        }
        var notice = early
        if let pending { notice = try pending.wait() }
        return Report(format: report.format, sourceFormat: report.sourceFormat, writtenFiles: report.writtenFiles,
                      diagnostics: (notice.map { [$0] } ?? []) + report.diagnostics,
                      sourceMetadata: report.sourceMetadata, textures: report.scene.textures, simplification: report.simplification.map {
                          SimplifiedMesh(mesh: $0.mesh, trianglesBefore: $0.trianglesBefore, trianglesAfter: $0.trianglesAfter, error: $0.error,
                                         bordersMoved: $0.usedSloppy)
                      }, shrunkTextures: report.textures, sizeTries: report.sizeTries, bytesWritten: report.bytes)
    }

    /// The bytes of `input` converted to `format` (the main file; sidecars stay beside it), kept
    /// under `folder/<contentHash>/` so an unchanged asset is converted once. `adjust` changes the
    /// conversion's options (a budget, say); the file name must then say so, as it is the cache key.
    public func convertedBytes(of input: String, contentHash: String, format: AssetFormat, fileName: String,
                               cacheFolder folder: String, readOptions: ReadOptions = ReadOptions(),
                               adjust: (inout ConvertOptions) -> Void = { _ in }) throws(AssetError) -> [UInt8] {
        let output = ((folder as NSString).appendingPathComponent(contentHash) as NSString).appendingPathComponent(fileName)
        if let data = FileManager.default.contents(atPath: output) { return Array(data) }
        var options = ConvertOptions()
        options.format = format
        options.force = true
        options.readOptions = readOptions
        adjust(&options)
        _ = try run(input: input, output: output, options: options)
        guard let data = FileManager.default.contents(atPath: output) else {
            throw AssetError(.io("the converted file vanished before it could be read"), at: SourceLocation(file: output))
        }
        return Array(data)
    }
}

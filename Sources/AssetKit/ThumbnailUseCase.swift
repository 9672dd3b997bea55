import AssetCore
import AssetImage
import AssetPipeline
import AssetRender
import Foundation

/// `assetc thumbnail`: find the assets under the given files and folders, render each to a PNG on
/// all cores, write them atomically under the output folder mirroring the input paths, and
/// optionally an HTML gallery. One failed file never stops the rest.
public struct ThumbnailUseCase: Sendable {
    /// Every format assetc reads; tests substitute their own.
    package var registry: FormatRegistry = .standard
    public var render: RenderOptions
    public var readOptions: ReadOptions
    /// With a count, an animated asset also gets that many evenly spaced frames as numbered PNGs
    /// (`ship.dae.001.png`...) and one looping animated WebP (`ship.dae.webp`), all framed alike;
    /// a still asset with Gaussian splats gets a turntable of that many frames instead.
    public var frames: Int?

    public init(render: RenderOptions = RenderOptions(), readOptions: ReadOptions = ReadOptions()) {
        self.render = render
        self.readOptions = readOptions
    }

    public struct Job: Sendable, Equatable {
        public var input: String
        /// Relative to the output folder: the input's path mirrored, with `.png` appended.
        public var output: String
    }

    public struct Outcome: Sendable {
        public var job: Job
        public var info: AssetInfo?
        public var error: AssetError?
        public var warnings: [Diagnostic]
        /// The animated WebP beside the PNG (relative to the output folder), when frames were made.
        public var preview: String?
    }

    /// The assets to render: files as given, folders walked recursively (hidden entries and
    /// `skipping` left out), keeping files a reader recognises.
    public func jobs(for paths: [String], skipping: String? = nil) throws(AssetError) -> [Job] {
        try AssetFolder.inputs(for: paths, registry: registry, skipping: skipping).map { Job(input: $0.path, output: $0.id + ".png") }
    }

    /// Renders every job, `progress` told of each as it finishes (from worker threads, one at a time).
    public func run(_ jobs: [Job], outputFolder: String, force: Bool = true,
                    progress: @Sendable (Outcome, Int) -> Void = { _, _ in }) -> [Outcome] {
        OrderedFanOut.run(count: jobs.count, { renderOne(jobs[$0], outputFolder: outputFolder, force: force) }, progress: progress)
    }

    /// `index.html` in the output folder: a gallery of the outcomes, written atomically.
    public func writeGallery(_ outcomes: [Outcome], outputFolder: String) throws(AssetError) -> String {
        let path = (outputFolder as NSString).appendingPathComponent("index.html")
        let page = OutputFile(relativePath: "index.html", bytes: Array(ThumbnailGallery.html(outcomes).utf8))
        _ = try AtomicOutput.write([page], mainPath: path, force: true)
        return path
    }

    /// The scene of one asset file, read with this use case's options.
    public func scene(at path: String) throws(AssetError) -> Scene {
        let scene = try registry.read(URL(fileURLWithPath: path), options: readOptions).scene
        return readOptions.poseTime.map { scene.posed(at: $0) } ?? scene
    }

    /// Renders a scene with this use case's options, textures loaded from wherever they live,
    /// and encodes the PNG; also returns the renderer's warnings.
    public func png(for scene: Scene, source: String? = nil) throws(AssetError) -> (bytes: [UInt8], warnings: [Diagnostic], bounds: Bounds3) {
        var options = render
        let (limits, staged) = (readOptions.limits, readOptions.staged)
        options.textureBytes = { TextureBytes.load($0, limits: limits, staged: staged) }
        options.limits = limits
        options.source = source
        let rendered = try Renderer.render(scene, options: options)
        return (try PNGCodec.encode(rendered.image, effort: .fast), rendered.diagnostics, rendered.bounds)
    }

    private func renderOne(_ job: Job, outputFolder: String, force: Bool) -> Outcome {
        do throws(AssetError) {
            let result = try registry.read(URL(fileURLWithPath: job.input), options: readOptions)
            let posed = readOptions.poseTime.map { result.scene.posed(at: $0) } ?? result.scene
            let (png, renderWarnings, bounds) = try png(for: posed, source: job.input)
            let target = (outputFolder as NSString).appendingPathComponent(job.output)
            _ = try AtomicOutput.write([OutputFile(relativePath: (target as NSString).lastPathComponent, bytes: png)],
                                       mainPath: target, force: force)
            var preview: String?
            if let frames, Self.moves(result.scene) {
                try writeFrames(of: result.scene, count: frames, source: job.input, target: target, force: force)
                preview = String(job.output.dropLast(".png".count)) + ".webp"
            }
            return Outcome(job: job, info: AssetInfo(file: job.input, result: result, poseTime: readOptions.poseTime, worldBounds: bounds), error: nil,
                           warnings: result.warnings + renderWarnings, preview: preview)
        } catch {
            return Outcome(job: job, info: nil, error: error, warnings: [])
        }
    }
}

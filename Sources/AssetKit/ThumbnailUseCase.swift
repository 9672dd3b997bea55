import AssetCore
import AssetPipeline
import AssetRender
import Foundation

/// `assetc thumbnail`: find the assets under the given files and folders, render each to a PNG on
/// all cores, write them atomically under the output folder mirroring the input paths, and
/// optionally an HTML gallery. One failed file never stops the rest.
public struct ThumbnailUseCase: Sendable {
    public var registry: FormatRegistry
    public var render: RenderOptions
    public var readOptions: ReadOptions

    public init(registry: FormatRegistry = .standard, render: RenderOptions = RenderOptions(), readOptions: ReadOptions = ReadOptions()) {
        self.registry = registry
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
    }

    /// The assets to render: files as given, folders walked recursively (hidden entries and
    /// `skipping` left out), keeping files a reader recognises.
    public func jobs(for paths: [String], skipping: String? = nil) throws(AssetError) -> [Job] {
        var jobs: [Job] = []
        let skip = skipping.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw AssetError(.fileNotFound, at: SourceLocation(file: path))
            }
            guard isDirectory.boolValue else {
                jobs.append(Job(input: path, output: (path as NSString).lastPathComponent + ".png"))
                continue
            }
            let root = URL(fileURLWithPath: path).standardizedFileURL
            let base = root.lastPathComponent
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey],
                                                        options: [.skipsHiddenFiles])
            var found: [String] = []
            while let url = walker?.nextObject() as? URL {
                if let skip, url.standardizedFileURL.path == skip { walker?.skipDescendants(); continue }
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }  // unreadable entries are not assets
                let relative = String(url.standardizedFileURL.path.dropFirst(root.path.count + 1))
                if (try? registry.reader(for: url)) != nil { found.append(relative) }  // files no reader recognises are not assets
            }
            for relative in found.sorted() {
                jobs.append(Job(input: (path as NSString).appendingPathComponent(relative), output: base + "/" + relative + ".png"))
            }
        }
        return jobs
    }

    /// Renders every job, `progress` told of each as it finishes (from worker threads, one at a time).
    public func run(_ jobs: [Job], outputFolder: String, force: Bool = true,
                    progress: @Sendable (Outcome, Int) -> Void = { _, _ in }) -> [Outcome] {
        let results = ResultsBox(count: jobs.count)
        DispatchQueue.concurrentPerform(iterations: jobs.count) { k in
            let outcome = renderOne(jobs[k], outputFolder: outputFolder, force: force)
            let done = results.store(outcome, at: k)
            progress(outcome, done)
        }
        return results.outcomes.map { $0! }
    }

    /// The PNG of one asset file, for callers that keep it themselves (the service's cache).
    public func png(for path: String) throws(AssetError) -> [UInt8] {
        try png(for: try registry.read(URL(fileURLWithPath: path), options: readOptions).scene).bytes
    }

    /// Renders a scene with this use case's options, textures loaded from wherever they live,
    /// and encodes the PNG; also returns the renderer's warnings.
    public func png(for scene: Scene) throws(AssetError) -> (bytes: [UInt8], warnings: [Diagnostic]) {
        var options = render
        let limits = readOptions.limits
        options.textureBytes = { TextureBytes.load($0, limits: limits) }
        let rendered = Renderer.render(scene, options: options)
        return (try PNGCodec.encode(rendered.image), rendered.diagnostics)
    }

    private func renderOne(_ job: Job, outputFolder: String, force: Bool) -> Outcome {
        do throws(AssetError) {
            let result = try registry.read(URL(fileURLWithPath: job.input), options: readOptions)
            let (png, renderWarnings) = try png(for: result.scene)
            let target = (outputFolder as NSString).appendingPathComponent(job.output)
            _ = try AtomicOutput.write([OutputFile(relativePath: (target as NSString).lastPathComponent, bytes: png)],
                                       mainPath: target, force: force)
            return Outcome(job: job, info: AssetInfo(file: job.input, result: result), error: nil,
                           warnings: result.warnings + renderWarnings)
        } catch {
            return Outcome(job: job, info: nil, error: error, warnings: [])
        }
    }
}

/// Outcomes written by the worker threads, each into its own slot, under a lock.
private final class ResultsBox: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var outcomes: [ThumbnailUseCase.Outcome?]
    private var done = 0

    init(count: Int) { outcomes = Array(repeating: nil, count: count) }

    func store(_ outcome: ThumbnailUseCase.Outcome, at index: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        outcomes[index] = outcome
        done += 1
        return done
    }
}

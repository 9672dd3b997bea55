import AssetCore
import AssetPipeline
import Foundation

/// `assetc convert FILE|FOLDER... --to FORMAT --out-dir DIR`: many conversions in one process, on
/// all cores, each written atomically under DIR with its name kept relative to its input's folder
/// (`Art/ships/ship.dae` given as `Art` becomes `DIR/ships/ship.usdz`). One failed file is reported
/// and counted; the rest go on.
public struct BatchConvertUseCase: Sendable {
    package var registry: FormatRegistry = .standard
    public var options: ConvertOptions

    public init(options: ConvertOptions) {
        self.options = options
    }

    public struct Job: Sendable, Equatable {
        public var input: String
        /// Relative to the output folder.
        public var output: String
        /// Set when the job cannot run (its output is another input's); it is reported, not run.
        public var refusal: AssetError?
    }

    public struct Outcome: Sendable {
        public var job: Job
        public var report: ConvertUseCase.Report?
        public var error: AssetError?
    }

    /// The conversions `paths` stand for: files as given, folders walked recursively (hidden
    /// entries and the output folder left out), keeping what a reader recognises; an input given
    /// twice is converted once. A folder's assets keep their path inside it (`convert Art` writes
    /// `Art/ships/ship.dae` as `ships/ship.usdz`); files given by themselves mirror their folders
    /// below the deepest folder holding them all (`convert a/scene.gltf b/scene.gltf` writes
    /// `a/scene.usdz` and `b/scene.usdz`; one file, or files side by side, land by name). Inputs
    /// that would still share an output keep their source extension (`Box.gltf.usdz`,
    /// `Box.glb.usdz`); one that collides even then is refused alone, and the others run.
    public func jobs(for paths: [String], format: AssetFormat, outputFolder: String) throws(AssetError) -> [Job] {
        var seen = Set<String>()
        let inputs = try AssetFolder.inputs(for: paths, registry: registry, skipping: outputFolder).filter {
            seen.insert(AssetFolder.absolute($0.path)).inserted
        }
        var sharing: [String: Int] = [:]
        for input in inputs { sharing[Self.renamed(input.relativePath, to: format), default: 0] += 1 }
        var claimed: [String: String] = [:]
        return inputs.map { input in
            let relative = input.relativePath
            let plain = Self.renamed(relative, to: format)
            let output = sharing[plain]! > 1 ? relative + "." + format.fileExtension : plain
            var job = Job(input: input.path, output: output)
            if let other = claimed[output] {
                job.refusal = AssetError(.refusedPath("\(other) is already written as \(output); convert this one to a separate folder"),
                                         at: SourceLocation(file: input.path))
            } else {
                claimed[output] = input.path
            }
            return job
        }
    }

    /// `ships/ship.dae` as `ships/ship.usdz`.
    static func renamed(_ relative: String, to format: AssetFormat) -> String {
        ((relative as NSString).deletingPathExtension as NSString).appendingPathExtension(format.fileExtension) ?? relative
    }

    /// Converts every job, at most one per core at a time (each holds a whole scene); `progress`
    /// hears of each as it finishes, one at a time. Output folders are made by the atomic write.
    public func run(_ jobs: [Job], outputFolder: String, progress: @Sendable (Outcome, Int) -> Void = { _, _ in }) -> [Outcome] {
        let convert = ConvertUseCase(registry: registry)
        return OrderedFanOut.run(count: jobs.count, { k in
            let job = jobs[k]
            if let refusal = job.refusal { return Outcome(job: job, report: nil, error: refusal) }
            do throws(AssetError) {
                let output = (outputFolder as NSString).appendingPathComponent(job.output)
                return Outcome(job: job, report: try convert.run(input: job.input, output: output, options: options), error: nil)
            } catch {
                return Outcome(job: job, report: nil, error: error)
            }
        }, progress: progress)
    }
}

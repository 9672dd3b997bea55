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
    }

    public struct Outcome: Sendable {
        public var job: Job
        public var report: ConvertUseCase.Report?
        public var error: AssetError?
    }

    /// The conversions `paths` stand for: a file as given (named by its file name), folders walked
    /// recursively (hidden entries and the output folder left out; names relative to the folder),
    /// keeping what a reader recognises. Two inputs that would write the same output (`ship.dae`
    /// and `ship.glb` to `ship.usdz`) are refused before anything runs, naming both.
    public func jobs(for paths: [String], format: AssetFormat, outputFolder: String) throws(AssetError) -> [Job] {
        let jobs = try AssetFolder.inputs(for: paths, registry: registry, skipping: outputFolder).map {
            Job(input: $0.path, output: Self.renamed($0.relativePath, to: format))
        }
        var first: [String: String] = [:]
        for job in jobs {
            if let other = first[job.output] {
                throw AssetError(.refusedPath("\(other) and \(job.input) would both be written as \(job.output); convert them to separate folders"),
                                 at: SourceLocation(file: job.input))
            }
            first[job.output] = job.input
        }
        return jobs
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
            do throws(AssetError) {
                let output = (outputFolder as NSString).appendingPathComponent(job.output)
                return Outcome(job: job, report: try convert.run(input: job.input, output: output, options: options), error: nil)
            } catch {
                return Outcome(job: job, report: nil, error: error)
            }
        }, progress: progress)
    }
}

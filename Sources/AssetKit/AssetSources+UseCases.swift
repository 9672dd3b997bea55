import AssetCore
import AssetPipeline
import Foundation

// The use cases given locations that may be `s3://` objects and prefixes: each stages its inputs
// through `AssetSources`, reads them with the staged folders and the bucket root, writes outputs
// bound for a bucket locally and uploads them once complete. The CLI's `convert`, `validate`,
// `info` and `thumbnail` are these calls and their printing; a library user with a `StoreOpener`
// does the same. `keepingRoot` is for a caller whose options already name a folder as the root
// (`--asset-root DIR`).

extension ConvertUseCase {
    /// Converts `input` to `output`, either of them a file or an `s3://` object; errors, warnings
    /// and written files name the `s3://` locations.
    public func run(input: String, output: String, options: ConvertOptions, sources: AssetSources,
                    keepingRoot: Bool = false) throws(AssetError) -> Report {
        do throws(AssetError) {
            let (local, target) = (try sources.input(input), try sources.output(output, isFolder: false, force: options.force))
            var staged = options
            staged.readOptions = sources.readOptions(options.readOptions, keepingRoot: keepingRoot)
            let report = try run(input: local, output: target, options: staged)
            try sources.upload()
            return sources.named(report)
        } catch {
            throw sources.named(error)
        }
    }
}

extension ValidateUseCase {
    /// This use case with its inputs staged: the files to validate under `locations` (files,
    /// folders, `s3://` objects and prefixes), and itself reading with their staged folders.
    public func staged(_ locations: [String], sources: AssetSources, keepingRoot: Bool = false) throws(AssetError) -> (ValidateUseCase, files: [String]) {
        let inputs = try locations.map { location throws(AssetError) in try sources.input(location) }
        var useCase = self
        useCase.options = sources.readOptions(options, keepingRoot: keepingRoot)
        return (useCase, useCase.files(for: inputs))
    }
}

extension InfoUseCase {
    /// The figures of one file or `s3://` object, its bucket folder as its root as a file's folder
    /// is, its warnings naming `s3://` locations.
    public func run(location: String, sources: AssetSources, keepingRoot: Bool = false) throws(AssetError) -> Report {
        do throws(AssetError) {
            let path = try sources.input(location)
            var useCase = self
            useCase.options = sources.readOptions(options, forInput: path, location: location, keepingRoot: keepingRoot)
            var report = try useCase.run(path: path)
            if path != location { report.info.file = location }
            return report
        } catch {
            throw sources.named(error)
        }
    }
}

extension ThumbnailUseCase {
    /// This use case with its inputs staged and its output folder made: the jobs for `locations`
    /// (files, folders, `s3://` objects and prefixes), and the local folder standing for `output`
    /// (uploaded by `sources.upload()` once the pictures are made).
    public func staged(_ locations: [String], output: String, sources: AssetSources,
                       keepingRoot: Bool = false) throws(AssetError) -> (ThumbnailUseCase, jobs: [Job], outputFolder: String) {
        let inputs = try locations.map { location throws(AssetError) in try sources.input(location) }
        let folder = try sources.output(output, isFolder: true, force: true)
        var useCase = self
        useCase.readOptions = sources.readOptions(readOptions, keepingRoot: keepingRoot)
        return (useCase, try useCase.jobs(for: inputs, skipping: folder), folder)
    }
}

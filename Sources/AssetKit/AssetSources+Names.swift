import AssetCore
import AssetValidate

// What the bucket-aware use cases hand back names `s3://` locations, not the local folders that
// stand for them. Warnings, errors and findings name them from the start (the readers and
// validators name every file through `ReadOptions.name(of:)`); the paths an outcome holds (its
// input, the files written) are named here as it leaves the use case, so the CLI, the service
// and a library user print what they are given. On local files nothing changes.

extension AssetSources {
    /// `relative` under `folder`, a local folder or an `s3://` prefix (which NSString's path
    /// joining would collapse to `s3:/`).
    public static func joined(_ folder: String, _ relative: String) -> String {
        var base = folder
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        return base.isEmpty ? relative : base + "/" + relative
    }

    /// A thumbnail outcome with its input, error, warnings and figures named by their locations.
    public func named(_ outcome: ThumbnailUseCase.Outcome) -> ThumbnailUseCase.Outcome {
        var named = outcome
        named.job.input = name(of: outcome.job.input)
        named.error = outcome.error.map(self.named)
        if let file = outcome.info?.file { named.info?.file = name(of: file) }
        return named
    }

    /// A conversion of a batch, named likewise (its input, written files, warnings and error).
    public func named(_ outcome: BatchConvertUseCase.Outcome) -> BatchConvertUseCase.Outcome {
        var named = outcome
        named.job.input = name(of: outcome.job.input)
        named.error = outcome.error.map(self.named)
        named.report = outcome.report.map { self.named($0) }
        return named
    }

    /// A conversion's report with its written files named by their locations.
    public func named(_ report: ConvertUseCase.Report) -> ConvertUseCase.Report {
        var named = report
        named.writtenFiles = report.writtenFiles.map(name(of:))
        return named
    }

    /// A validation outcome with its file and every finding's location named.
    public func named(_ outcome: ValidateUseCase.Outcome) -> ValidateUseCase.Outcome {
        switch outcome {
        case .report(let report): return .report(named(report))
        case .failed(let file, let error): return .failed(file: name(of: file), named(error))
        }
    }

    public func named(_ report: ValidationReport) -> ValidationReport {
        var named = report
        named.file = name(of: report.file)
        for i in named.findings.indices { named.findings[i].location.file = named.findings[i].location.file.map(name(of:)) }
        return named
    }

    /// A repair's outcome with its output and both reports named.
    public func named(_ outcome: RepairUseCase.Outcome) -> RepairUseCase.Outcome {
        var named = outcome
        named.output = name(of: outcome.output)
        named.before = self.named(outcome.before)
        named.after = self.named(outcome.after)
        for i in named.changes.indices { named.changes[i].location.file = named.changes[i].location.file.map(name(of:)) }
        for i in named.skipped.indices { named.skipped[i].location.file = named.skipped[i].location.file.map(name(of:)) }
        return named
    }
}

extension ThumbnailUseCase {
    /// `run` for jobs `staged` made: every outcome, as `progress` hears of it and as returned,
    /// names its input by its location.
    public func run(_ jobs: [Job], outputFolder: String, sources: AssetSources,
                    progress: @Sendable (Outcome, Int) -> Void = { _, _ in }) -> [Outcome] {
        run(jobs, outputFolder: outputFolder) { outcome, done in progress(sources.named(outcome), done) }.map(sources.named)
    }
}

extension BatchConvertUseCase {
    /// `run` for staged inputs, each outcome named by its locations.
    public func run(_ jobs: [Job], outputFolder: String, sources: AssetSources,
                    progress: @Sendable (Outcome, Int) -> Void = { _, _ in }) -> [Outcome] {
        run(jobs, outputFolder: outputFolder) { outcome, done in progress(sources.named(outcome), done) }.map(sources.named)
    }
}

extension ValidateUseCase {
    /// `run` for files `staged` found, each outcome named by its location.
    public func run(files: [String], sources: AssetSources, progress: (@Sendable (Int, Int) -> Void)? = nil) -> [Outcome] {
        run(files: files, progress: progress).map(sources.named)
    }
}

extension RepairUseCase {
    /// `run` for a staged file and output, the outcome and any error named by their locations.
    public func run(file: String, output: String, force: Bool, sources: AssetSources) throws(AssetError) -> Outcome {
        do throws(AssetError) { return sources.named(try run(file: file, output: output, force: force)) } catch { throw sources.named(error) }
    }
}

import AssetCore
import AssetPipeline
import AssetValidate
import Foundation

/// `assetc validate`: the ARKit rules over USD files and the Khronos checks over glTF and GLB,
/// given one by one or found in folders.
public struct ValidateUseCase: Sendable {
    package var registry: FormatRegistry = .standard
    public var options: ReadOptions
    public var budget = ValidationBudget()
    /// `--target usdz`: sources in other formats are checked for what converting them to usdz would
    /// change or break (UsdzTargetCheck), instead of being refused.
    public var targetsUsdz = false

    public init(options: ReadOptions = ReadOptions()) {
        self.options = options
    }

    /// One file's verdict, or why it could not be validated.
    public enum Outcome: Sendable {
        case report(ValidationReport)
        case failed(file: String, AssetError)

        public var file: String {
            switch self {
            case .report(let report): return report.file
            case .failed(let file, _): return file
            }
        }
    }

    /// The files `paths` stand for: a file as given; a folder's files with a USD or glTF extension,
    /// hidden entries skipped, in path order. Unlike `AssetFolder` (index, thumbnail), this walk
    /// asks the file system for names only: no sizes, dates or sniffing, which cost more than
    /// validating a small package when a folder holds thousands.
    public func files(for paths: [String]) -> [String] {
        let extensions = targetsUsdz ? Set(registry.readers.flatMap { $0.formats.flatMap(\.fileExtensions) }.map { $0.lowercased() })
            : AssetValidator.usdExtensions.union(GLTFValidator.extensions)
        return paths.flatMap { path -> [String] in
            let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
            let found = FolderNames.files(under: folder.isEmpty ? "/" : folder) { name in
                guard let dot = name.lastIndex(of: ".") else { return false }
                return extensions.contains(name[name.index(after: dot)...].lowercased())
            }
            guard let found else { return [path] }
            let prefix = path.hasSuffix("/") ? path : path + "/"
            return found.sorted().map { prefix + $0 }
        }
    }

    /// Validates every file on all cores; `progress` hears of each finished file, in any order.
    /// Each worker takes the next file from a shared counter and stays on one large stack for all of
    /// them (LargeStack runs nested work in place).
    public func run(files: [String], progress: (@Sendable (Int, Int) -> Void)? = nil) -> [Outcome] {
        let outcomes = Locked([Outcome?](repeating: nil, count: files.count))
        let next = Locked(0)
        let done = Locked(0)
        let validator = AssetValidator(options: options, budget: budget)
        let workers = max(1, min(files.count, ProcessInfo.processInfo.activeProcessorCount))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let worker = { @Sendable () throws(AssetError) in
                while true {
                    let k = next.withLock { index -> Int in defer { index += 1 }; return index }
                    guard k < files.count else { return }
                    let outcome = validate(files[k], with: validator)
                    outcomes.withLock { $0[k] = outcome }
                    let finished = done.withLock { count -> Int in count += 1; return count }
                    progress?(finished, files.count)
                }
            }
            do throws(AssetError) { try LargeStack.run(worker) } catch {
                preconditionFailure("the worker loop throws nothing: every file's failure is its outcome")
            }
        }
        return outcomes.value.compactMap { $0 }
    }

    /// The outcome for `file`, which it names as the read does (a staged file by its `s3://`
    /// location).
    private func validate(_ file: String, with validator: AssetValidator) -> Outcome {
        switch checked(file, with: validator) {
        case .report(var report):
            report.file = options.name(ofPath: file)
            return .report(report)
        case .failed(_, let error): return .failed(file: options.name(ofPath: file), error)
        }
    }

    private func checked(_ file: String, with validator: AssetValidator) -> Outcome {
        do throws(AssetError) {
            // Said to be no folder, the URL does not stat the file to find out (the sniff does).
            let match = try registry.reader(for: URL(fileURLWithPath: file, isDirectory: false), staged: options.staged)
            let contents = match.file.isWhole ? match.file.prefix : nil
            if match.format == .gltf || match.format == .glb {
                let findings = try GLTFValidator(options: options).validate(path: file, contents: contents)
                guard targetsUsdz else { return .report(ValidationReport(file: file, format: match.format, findings: findings)) }
                // Both: the file as glTF, and what its usdz conversion would change or break.
                var report = try usdzTargetReport(file, budget: validator.budget)
                report.findings = findings + report.findings
                return .report(report)
            }
            if targetsUsdz && !match.format.isUSD { return .report(try usdzTargetReport(file, budget: validator.budget)) }
            guard match.format.isUSD else {
                throw AssetError(.unsupportedFormat("validate checks USD (usda, usdc, usdz) and glTF (gltf, glb) files; this is \(match.format.name), convert it first, or pass --target usdz to see what converting it to usdz would change",
                                                    supported: AssetFormat.allCases.filter { $0.isUSD || $0 == .gltf || $0 == .glb }.map(\.name)),
                                 at: SourceLocation(file: options.name(ofPath: file)))
            }
            // A small file the sniff read whole is not read a second time.
            return .report(try validator.validate(path: file, format: match.format, contents: contents))
        } catch {
            return .failed(file: file, error)
        }
    }

    private func usdzTargetReport(_ file: String, budget: ValidationBudget) throws(AssetError) -> ValidationReport {
        var check = UsdzTargetCheck(options: options)
        check.registry = registry
        check.budget = budget
        return try check.run(file: file)
    }
}

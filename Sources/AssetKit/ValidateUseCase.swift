import AssetCore
import AssetPipeline
import AssetValidate
import Foundation

/// `assetc validate`: the ARKit rules over USD files, given one by one or found in folders.
public struct ValidateUseCase: Sendable {
    package var registry: FormatRegistry = .standard
    public var options: ReadOptions

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

    public static let usdFormats: Set<String> = ["usda", "usdc", "usdz"]

    /// The files `paths` stand for: a file as given, a folder's USD files (by content or
    /// extension, hidden entries skipped) in path order.
    public func files(for paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
            return AssetFolder.files(under: path, registry: registry, skipping: nil, includeTextures: false).compactMap { file in
                guard let match = try? registry.reader(for: URL(fileURLWithPath: file.path)) else { return nil }  // unreadable: not a USD file to check
                // Named as the user wrote the folder, so reports and SARIF keep their relative paths.
                return Self.usdFormats.contains(match.format.name) ? (path.hasSuffix("/") ? path : path + "/") + file.relativePath : nil
            }
        }
    }

    /// Validates every file on all cores; `progress` hears of each finished file, in any order.
    public func run(files: [String], progress: (@Sendable (Int, Int) -> Void)? = nil) -> [Outcome] {
        let outcomes = Locked([Outcome?](repeating: nil, count: files.count))
        let done = Locked(0)
        let validator = AssetValidator(options: options)
        DispatchQueue.concurrentPerform(iterations: files.count) { k in
            let outcome = validate(files[k], with: validator)
            outcomes.withLock { $0[k] = outcome }
            let finished = done.withLock { count -> Int in count += 1; return count }
            progress?(finished, files.count)
        }
        return outcomes.value.compactMap { $0 }
    }

    private func validate(_ file: String, with validator: AssetValidator) -> Outcome {
        do throws(AssetError) {
            let match = try registry.reader(for: URL(fileURLWithPath: file))
            guard Self.usdFormats.contains(match.format.name) else {
                throw AssetError(.unsupportedFormat("validate checks USD files (usda, usdc, usdz); this is \(match.format.name), convert it to usdz first",
                                                    supported: Self.usdFormats.sorted()),
                                 at: SourceLocation(file: file))
            }
            return .report(try validator.validate(path: file, format: match.format.name))
        } catch {
            return .failed(file: file, error)
        }
    }
}

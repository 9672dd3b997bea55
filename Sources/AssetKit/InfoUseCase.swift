import AssetCore
import AssetPipeline
import Foundation

/// `assetc info`: read an asset and report its figures.
public struct InfoUseCase: Sendable {
    /// Every format assetc reads; tests substitute their own.
    package var registry: FormatRegistry = .standard
    public var options: ReadOptions

    public init(options: ReadOptions = ReadOptions()) {
        self.options = options
    }

    public struct Report: Sendable {
        public var info: AssetInfo
        public var result: ReadResult
    }

    public func run(path: String) throws(AssetError) -> Report {
        let validation = GLTFValidationNotice.Pending(path, options: options)
        var result: ReadResult
        do throws(AssetError) { result = try registry.read(URL(fileURLWithPath: path), options: options) } catch {
            validation.finish()  // the read's error is the one to report
            throw error
        }
        if let notice = try validation.wait() { result.diagnostics.insert(notice, at: 0) }
        return Report(info: AssetInfo(file: path, result: result, poseTime: options.poseTime), result: result)
    }
}

import AssetCore
import AssetPipeline

@_exported import struct AssetPipeline.ConvertOptions

/// `assetc convert`: read, run the passes the target needs, write atomically.
public struct ConvertUseCase: Sendable {
    public var converter: Converter

    public init(converter: Converter = Converter()) {
        self.converter = converter
    }

    public struct Report: Sendable {
        public var format: FormatDescription
        public var writtenFiles: [String]
        public var diagnostics: [Diagnostic]
    }

    public func run(input: String, output: String, options: ConvertOptions) throws(AssetError) -> Report {
        let report = try converter.convert(input: input, output: output, options: options)
        return Report(format: report.format, writtenFiles: report.writtenFiles, diagnostics: report.diagnostics)
    }
}

import ArgumentParser
import AssetCore
import AssetKit
import AssetService

// Options that take one of a fixed set of values parse into these, so a wrong value is refused by
// the parser with the list of right ones, and `--help` shows them.

extension RenderView: ExpressibleByArgument {}
extension TextureStorage: ExpressibleByArgument {}

extension ServiceConfiguration.LogLevel: ExpressibleByArgument {}

/// `--up-axis`: USD and every other format assetc writes have Y or Z up.
enum UpAxisArgument: String, CaseIterable, ExpressibleByArgument {
    case y, z

    var upAxis: UpAxis { self == .y ? .y : .z }
}

/// `--to`: one of the formats assetc writes.
struct OutputFormatArgument: ExpressibleByArgument {
    let format: AssetFormat

    init?(argument: String) {
        guard let format = AssetFormat(rawValue: argument.lowercased()), ConvertUseCase.outputFormats.contains(format) else { return nil }
        self.format = format
    }

    static var allValueStrings: [String] { ConvertUseCase.outputFormats.map(\.name) }
}

import ArgumentParser
import AssetKit

@main
struct Assetc: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assetc",
        abstract: "Convert, catalog and preview 3D assets (USD, Collada) headless on Linux.",
        discussion: """
            Exit status: 0 success, 1 an asset could not be read (malformed, refused, over a limit), \
            2 unsupported format, 3 missing file or I/O error, 64 bad command line.
            """,
        version: AssetcVersion.current,
        subcommands: [InfoCommand.self, ConvertCommand.self, ValidateCommand.self, ThumbnailCommand.self, IndexCommand.self, QueryCommand.self, SearchCommand.self, ShowCommand.self, ServeCommand.self, WorkerCommand.self, JobsCommand.self, StorageCommand.self]
    )

    static func main() async {
        LocalTimeZone.pin()
        await main(nil)
    }
}

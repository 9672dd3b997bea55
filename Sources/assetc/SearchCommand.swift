import ArgumentParser
import AssetCatalog
import AssetKit

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Find catalogued assets by file, node and material names, best match first.")

    @Argument(help: "Words to look for.")
    var words: [String]

    @OptionGroup var location: CatalogLocation

    @Flag(help: "Print JSON.") var json = false

    @Option(help: "Print at most this many.")
    var limit = 50

    func run() throws {
        let catalog = try location.open()
        let records = try ExitStatus.orExit { try catalog.search(words.joined(separator: " "), limit: limit) }
        print(json ? CatalogOutput.json(records) : CatalogOutput.table(records))
    }
}

import ArgumentParser
import AssetCatalog
import AssetKit

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Find catalogued assets by file, node and material names, best match first.")

    @Argument(help: "Words to look for.")
    var words: [String]

    @OptionGroup var location: CatalogLocation

    @Flag(help: "Print JSON.") var json = false

    @Option(help: "Print at most this many.")
    var limit = 50

    func run() async throws {
        let records = try await location.with { catalog in try await catalog.search(words.joined(separator: " "), limit: limit) }
        print(json ? CatalogOutput.json(records) : CatalogOutput.table(records))
    }
}

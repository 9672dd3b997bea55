import ArgumentParser
import AssetCatalog
import AssetKit

struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "List catalogued assets matching an expression, e.g. 'triangles > 10000 and format = usdz'.",
        discussion: "Fields: \(CatalogQuery.fieldNames.joined(separator: ", ")). Operators: = != < <= > >= ~ (contains), and, or, not, parentheses. See Docs/CLI.md.")

    @Argument(help: "The expression; empty lists everything.")
    var expression = ""

    @OptionGroup var location: CatalogLocation

    @Flag(help: "Print JSON.") var json = false
    @Flag(help: "Print CSV.") var csv = false

    @Option(parsing: .unconditional, help: "Sort by a field; prefix - for descending (-triangles).")
    var sort: String?

    @Option(help: "Print at most this many.")
    var limit: Int?

    func run() async throws {
        let records = try await location.with { catalog in try await catalog.query(expression, sort: sort, limit: limit) }
        print(json ? CatalogOutput.json(records) : csv ? CatalogOutput.csv(records) : CatalogOutput.table(records))
    }
}

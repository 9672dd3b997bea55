import ArgumentParser
import AssetCatalog
import AssetKit

struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "List catalogued assets matching an expression, e.g. 'triangles > 10000 and format = usdz'.",
        discussion: "Fields: \(fieldList). Operators: = != < <= > >= ~ (contains), and, or, not, parentheses. See Docs/CLI.md.")

    /// Built with a loop: ArgumentParser makes every subcommand's configuration at each start, and
    /// `joined(separator:)` here was the start's largest protocol-conformance lookup (a scan of
    /// every conformance record in the binary; perf, `assetc validate`).
    private static var fieldList: String {
        var text = ""
        for name in CatalogQuery.fieldNames { text += text.isEmpty ? name : ", " + name }
        return text
    }

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

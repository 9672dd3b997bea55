import ArgumentParser
import AssetCatalog
import AssetCore
import AssetKit
import Foundation

/// Where the catalog is: --db, else `.assetc/catalog.sqlite` in the current folder.
struct CatalogLocation: ParsableArguments {
    @Option(help: "The catalog database (default: .assetc/catalog.sqlite here).")
    var db: String?

    func open(mustExist: Bool = true) throws -> Catalog {
        let path = db ?? ".assetc/catalog.sqlite"
        if mustExist && !FileManager.default.fileExists(atPath: path) {
            throw fail(AssetError(.fileNotFound, at: SourceLocation(file: path + " (run assetc index first, or pass --db)")))
        }
        do throws(AssetError) { return try Catalog(path: path) } catch { throw fail(error) }
    }
}

func fail(_ error: AssetError) -> ExitCode {
    ErrorReporter.report(error)
    return ExitCode(ExitStatus.code(for: error))
}

struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Record the assets under folders in the catalog; later runs update only what changed.")

    @Argument(help: "Folders to index (.scnassets, .xcassets or any).")
    var paths: [String]

    @Option(help: "The catalog database (default: .assetc/catalog.sqlite under the first folder).")
    var db: String?

    @Flag(help: "Render and cache a thumbnail per model.")
    var thumbnails = false

    @OptionGroup var reading: ReadingOptions

    func run() throws {
        let catalog: Catalog
        do throws(AssetError) { catalog = try Catalog(path: db ?? IndexUseCase.defaultDatabase(for: paths)) } catch { throw fail(error) }
        let useCase = IndexUseCase(readOptions: reading.readOptions, thumbnails: thumbnails)
        let report: IndexUseCase.Report
        do throws(AssetError) { report = try useCase.run(roots: paths, catalog: catalog) } catch { throw fail(error) }
        print("indexed \(report.models) models and \(report.textures) textures into \(catalog.path): " +
              "\(report.added) added, \(report.updated) updated, \(report.unchanged) unchanged, \(report.removed) removed, \(report.failed) failed to read")
    }
}

struct QueryCommand: ParsableCommand {
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

    func run() throws {
        let catalog = try location.open()
        let records: [CatalogRecord]
        do throws(AssetError) { records = try catalog.query(expression, sort: sort, limit: limit) } catch { throw fail(error) }
        print(json ? CatalogOutput.json(records) : csv ? CatalogOutput.csv(records) : CatalogOutput.table(records))
    }
}

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
        let records: [CatalogRecord]
        do throws(AssetError) { records = try catalog.search(words.joined(separator: " "), limit: limit) } catch { throw fail(error) }
        print(json ? CatalogOutput.json(records) : CatalogOutput.table(records))
    }
}

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print one catalogued asset: its record, node tree, textures and warnings.")

    @Argument(help: "The asset's id, as query prints it.")
    var id: String

    @OptionGroup var location: CatalogLocation

    func run() throws {
        let catalog = try location.open()
        let entry: CatalogEntry?
        do throws(AssetError) { entry = try catalog.record(id: id) } catch { throw fail(error) }
        guard let entry else { throw fail(AssetError(.unresolvedReference("no asset '\(id)' in the catalog"), at: SourceLocation(file: catalog.path))) }
        print(CatalogOutput.show(entry))
    }
}

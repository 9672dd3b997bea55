import ArgumentParser
import AssetCore
import AssetKit

struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print one catalogued asset: its record, node tree, textures and warnings.")

    @Argument(help: "The asset's id, as query prints it.")
    var id: String

    @OptionGroup var location: CatalogLocation

    func run() async throws {
        let entry = try await location.with { catalog in
            guard let entry = try await catalog.record(id: id) else {
                throw AssetError(.unresolvedReference("no asset '\(id)' in the catalog"), at: SourceLocation(file: catalog.location))
            }
            return entry
        }
        print(CatalogOutput.show(entry))
    }
}

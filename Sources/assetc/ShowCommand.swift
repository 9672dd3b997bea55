import ArgumentParser
import AssetCore
import AssetKit

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print one catalogued asset: its record, node tree, textures and warnings.")

    @Argument(help: "The asset's id, as query prints it.")
    var id: String

    @OptionGroup var location: CatalogLocation

    func run() throws {
        let catalog = try location.open()
        let entry = try ExitStatus.orExit { () throws(AssetError) in
            guard let entry = try catalog.record(id: id) else {
                throw AssetError(.unresolvedReference("no asset '\(id)' in the catalog"), at: SourceLocation(file: catalog.path))
            }
            return entry
        }
        print(CatalogOutput.show(entry))
    }
}

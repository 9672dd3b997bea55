import ArgumentParser
import AssetCore
import AssetKit
import Foundation

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print an asset's figures: format, up axis, units, counts, bounds, warnings.",
        discussion: "With several files, --json prints an array with one object per file that could be read.")

    @Argument(help: "Asset files to inspect.")
    var files: [String]

    @Flag(name: .long, help: "Print the JSON contract of Docs/CLI.md instead of text.")
    var json = false

    @Flag(name: .long, help: "Also print the node hierarchy.")
    var tree = false

    @OptionGroup var reading: ReadingOptions

    func run() throws {
        let sources = try AssetSources.forCommand(assetRoot: reading.sandbox.assetRoot, maxBytes: reading.readOptions.limits.maxFileBytes)
        defer { sources.closeSaying() }
        var reports: [InfoUseCase.Report] = []
        var status: Int32 = 0
        for file in files {
            do throws(AssetError) {
                reports.append(try InfoUseCase(options: reading.readOptions).run(location: file, sources: sources,
                                                                                 keepingRoot: reading.sandbox.hasFolderRoot))
            } catch {
                let exit = ExitStatus.fail(error)
                if status == 0 { status = exit.rawValue }
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = files.count == 1
                ? try reports.first.map { try encoder.encode($0.info) }
                : try encoder.encode(reports.map(\.info))
            if let data { print(String(decoding: data, as: UTF8.self)) }
        } else {
            for (i, report) in reports.enumerated() {
                if i > 0 { print("") }
                print(InfoTextFormatter.format(report.info))
                if tree { print(SceneTreeFormatter.format(report.result.scene)) }
            }
        }
        if status != 0 { throw ExitCode(status) }
    }
}

import ArgumentParser
import AssetCore
import AssetKit
import Foundation

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert an asset to another format: usda, usdc, usdz, dae, gltf, glb, obj, stl, ply.",
        discussion: """
            The output format comes from OUT's extension unless --to names it. What the target cannot \
            hold is dropped with one warning each. Files are written to temporary names and renamed \
            into place only when every one is complete, so a failed conversion leaves nothing behind.
            """)

    @Argument(help: "The asset to read.")
    var input: String

    @Argument(help: "The file to write; sidecar files (textures, .bin, .mtl) go beside it.")
    var output: String

    @Option(name: .customLong("to"), help: "Output format, when OUT's extension does not say.")
    var format: OutputFormatArgument?

    @Option(help: "Up axis of the output.")
    var upAxis: UpAxisArgument?

    @Option(help: "Units of the output, in metres per unit (0.01 for centimetres).")
    var metersPerUnit: Double?

    @Flag(help: "Split every polygon into triangles.")
    var triangulate = false

    @Flag(help: "Bake transforms into world-space meshes with no hierarchy.")
    var flatten = false

    @Flag(help: "Give a usdz output a usda (text) root layer instead of usdc. ARKit and AR Quick Look want usdc.")
    var usdaRoot = false

    @Flag(help: "Replace the output if it exists.")
    var force = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @OptionGroup var reading: ReadingOptions

    func validate() throws {
        if let metersPerUnit, !(metersPerUnit.isFinite && metersPerUnit > 0) {
            throw ValidationError("--meters-per-unit takes a positive number")
        }
    }

    func run() throws {
        var options = ConvertOptions()
        options.format = format?.format
        options.upAxis = upAxis?.upAxis
        options.metersPerUnit = metersPerUnit
        options.triangulate = triangulate
        options.flatten = flatten
        options.force = force
        options.textRootLayer = usdaRoot
        options.readOptions = reading.readOptions
        let report = try ExitStatus.orExit { try ConvertUseCase().run(input: input, output: output, options: options) }
        var stderr = StandardError()
        for diagnostic in report.diagnostics { print("assetc: warning: \(TerminalText.safe(diagnostic.description))", to: &stderr) }
        if !quiet {
            print("wrote \(report.writtenFiles.joined(separator: ", ")) (\(report.format.name))")
        }
    }
}

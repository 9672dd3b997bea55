import ArgumentParser
import AssetCore
import AssetKit
import Foundation

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert an asset to another format: usda, usdc, usdz, dae, gltf, glb, obj, stl, ply, spz.",
        usage: """
            assetc convert IN OUT [options]
            assetc convert IN|FOLDER... --to FORMAT --out-dir DIR [options]
            """,
        discussion: """
            The output format comes from OUT's extension unless --to names it. What the target cannot \
            hold is dropped with one warning each. Files are written to temporary names and renamed \
            into place only when every one is complete, so a failed conversion leaves nothing behind.

            With --out-dir, every file given and every asset under every folder given is converted \
            to --to's format on all cores, written under DIR with its name relative to its folder \
            (Art/ships/ship.dae given as Art becomes DIR/ships/ship.usdz). A file that fails is \
            reported and the rest go on; the exit status is 0 only when every one converted.
            """)

    @Argument(help: ArgumentHelp("IN OUT: the asset to read and the file to write (sidecar textures, .bin and .mtl go beside it); with --out-dir, the files and folders to convert.",
                                 valueName: "paths"))
    var paths: [String] = []

    @Option(name: .customLong("out-dir"), help: ArgumentHelp("Convert every path given into this folder (needs --to).", valueName: "DIR"))
    var outputFolder: String?

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

    @Flag(help: "USD output: give every material that has no MaterialX network an ND_gltf_pbr one beside its UsdPreviewSurface, as guc does (usda and usdc; a usdz keeps the preview surface only).")
    var materialx = false

    @Option(help: ArgumentHelp("FBX output: embed the textures in the file, or write them in a folder beside it named after the output (OUT_textures/) and name them by relative path.",
                               valueName: "embed|beside"))
    var textures = TextureStorage.embedded

    @Flag(help: "Replace the output if it exists.")
    var force = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(help: "Print the report as JSON: what each pass did, the files written and the warnings.")
    var json = false

    @OptionGroup(title: "Budgets") var budget: BudgetOptions

    @OptionGroup var reading: ReadingOptions

    func validate() throws {
        if outputFolder != nil {
            if paths.isEmpty { throw ValidationError("give the files and folders to convert") }
            if format == nil { throw ValidationError("--out-dir needs --to FORMAT: it names every output's extension") }
        } else if paths.count != 2 {
            throw ValidationError(paths.count < 2 ? "give IN and OUT (or files and folders with --to FORMAT --out-dir DIR)"
                                                  : "several inputs need --to FORMAT --out-dir DIR; OUT names one file")
        }
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
        options.addsMaterialXNetworks = materialx
        options.textureStorage = textures
        options.readOptions = reading.readOptions
        budget.apply(to: &options)
        let sources = try AssetSources.forCommand(assetRoot: reading.sandbox.assetRoot, maxBytes: options.readOptions.limits.maxFileBytes)
        defer { sources.closeSaying() }
        // Inputs staged from one bucket location resolve their references under it (the prefix is
        // the asset root) unless --asset-root named a folder.
        let keepingRoot = reading.sandbox.hasFolderRoot
        if let outputFolder {
            let (inputs, folder) = try ExitStatus.orExit {
                (try paths.map { path throws(AssetError) in try sources.input(path) }, try sources.output(outputFolder, isFolder: true, force: force))
            }
            options.readOptions = sources.readOptions(options.readOptions, keepingRoot: keepingRoot)
            try runBatch(options, inputs: inputs, into: folder, sources: sources)
            return
        }
        let report = try ExitStatus.orExit {
            try ConvertUseCase().run(input: paths[0], output: paths[1], options: options, sources: sources, keepingRoot: keepingRoot)
        }
        if json {
            print(CatalogOutput.json(ConvertJSON(input: paths[0], output: paths[1], report: report)))
            return
        }
        var stderr = StandardError()
        for diagnostic in report.diagnostics { print("assetc: warning: \(TerminalText.safe(diagnostic.description))", to: &stderr) }
        if !quiet {
            for line in ConvertTextFormatter.lines(report) { print(line) }
        }
    }

    /// Many inputs: one line per file on standard error (a progress bar on a terminal), warnings
    /// and failures as they come, one summary line on standard output.
    private func runBatch(_ options: ConvertOptions, inputs: [String], into folder: String, sources: AssetSources) throws {
        let useCase = BatchConvertUseCase(options: options)
        let jobs = try ExitStatus.orExit { try useCase.jobs(for: inputs, format: options.format!, outputFolder: folder) }
        if jobs.isEmpty {
            throw ExitStatus.fail(AssetError(.unsupportedFormat("no assets found", supported: []), at: SourceLocation(file: paths.joined(separator: " "))))
        }
        let terminal = isatty(STDERR_FILENO) != 0
        let quiet = quiet
        let json = json
        let outputFolder = self.outputFolder ?? folder
        let outcomes = useCase.run(jobs, outputFolder: folder, sources: sources) { outcome, done in
            var stderr = StandardError()
            if terminal { print("\r\u{1B}[K", terminator: "", to: &stderr) }
            if let error = outcome.error {
                print("assetc: error: \(TerminalText.safe(error.description))", to: &stderr)
            } else {
                for diagnostic in outcome.report?.diagnostics ?? [] where !quiet && !json {
                    print("assetc: warning: \(TerminalText.safe(diagnostic.description))", to: &stderr)
                }
                if !terminal && !quiet {
                    print("convert \(done)/\(jobs.count): \(TerminalText.safe(outcome.job.input)) -> \(TerminalText.safe(AssetSources.joined(outputFolder, outcome.job.output)))",
                          to: &stderr)
                }
            }
            if terminal {
                print("converted \(done)/\(jobs.count) \(TerminalText.safe(outcome.job.input))", terminator: done == jobs.count ? "\n" : "", to: &stderr)
            }
        }
        let failures = outcomes.filter { $0.error != nil }
        // What converted goes to the bucket even when others failed, as it stays in a folder.
        _ = try ExitStatus.orExit { try sources.upload() }
        if json {
            print(CatalogOutput.json(ConvertJSON(outcomes, folder: outputFolder)))
        } else {
            print("\(outcomes.count - failures.count) converted to \(outputFolder), \(failures.count) failed")
        }
        if let first = failures.first?.error { throw ExitCode(ExitStatus.code(for: first)) }
    }
}

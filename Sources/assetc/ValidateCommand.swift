import ArgumentParser
import AssetCore
import AssetKit
import AssetValidate
import Foundation

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check USD files against OpenUSD's ARKit rules (usdchecker's names), and glTF and GLB against the Khronos validator's checks (its issue codes).",
        discussion: """
            Folders are searched for usda, usdc, usdz, gltf and glb files. A glTF finding is named by the Khronos \
            glTF-Validator's issue code and located by its JSON pointer (or GLB chunk), graded error, warning, info or hint \
            as that validator grades it. Exit status: 0 when every file passes, 1 when a rule \
            reports an error (with --strict, a warning too; info and hints never fail), and a read failure's own status (1 malformed, 2 not USD or glTF, \
            3 missing) when a file cannot be validated at all. With --fix OUT.usdz, one file is repaired into a new \
            package where a rule has a safe repair; the report lists each change, and the status is the copy's verdict.
            """)

    @Argument(help: "USD and glTF files, or folders to search for them.")
    var paths: [String] = []

    @Flag(name: .long, help: "Print findings as JSON (Docs/CLI.md has the contract).")
    var json = false

    @Flag(name: .long, help: "Print findings as a SARIF 2.1.0 log, for GitHub code scanning annotations.")
    var sarif = false

    @Flag(name: .long, help: "Fail on warnings too.")
    var strict = false

    @Flag(name: .long, help: "List the ARKit rules (with their framework validator ids) and the glTF issue codes (with their severity), then exit.")
    var listRules = false

    @Option(name: .long, help: ArgumentHelp("Also check sources in other formats (dae, glTF, OBJ, STL, PLY) for what converting them to usdz would change or break.",
                                            valueName: "usdz"))
    var target: ValidationTarget?

    @Option(name: .long, help: ArgumentHelp(
        "Warn past these limits (defaults: AR Quick Look's guidance, triangles=100000,texture=2048,size=200MB,duration=10s); KEY=none or none lifts them.",
        valueName: "KEY=VALUE,..."))
    var budget: String?

    @Option(name: .long, help: ArgumentHelp("Write a repaired copy of the one FILE as this usdz; the input is never touched.", valueName: "OUT.usdz"))
    var fix: String?

    @Flag(name: .long, help: "With --fix, replace OUT if it exists.")
    var force = false

    @OptionGroup var sandbox: SandboxOptions

    func validate() throws {
        if json && sarif { throw ValidationError("--json and --sarif are alternatives; choose one") }
        if !listRules && paths.isEmpty { throw ValidationError("give at least one USD or glTF file, or a folder") }
        if fix != nil && (paths.count != 1 || sarif) { throw ValidationError("--fix repairs one file at a time and reports as text or --json") }
        if force && fix == nil { throw ValidationError("--force only applies to --fix") }
        if target != nil && fix != nil { throw ValidationError("--fix repairs USD files; convert other formats to usdz first (--target reports what that changes)") }
    }

    func run() throws {
        if listRules {
            for rule in ARKitRule.allCases {
                let validators = rule.validators.isEmpty ? "ARKit only" : rule.validators.joined(separator: ", ")
                print("\(rule.rawValue)  (\(validators))\n    \(rule.summary)")
            }
            print("\nglTF and GLB (the Khronos glTF-Validator's issue codes):")
            for issue in GLTFIssue.all {
                print("\(issue.code)  (\(issue.severity.rawValue)\(issue.checked ? "" : "; not checked, see Docs/Validation.md"))\n    \(issue.summary)")
            }
            return
        }
        let sources = try AssetSources.forCommand(assetRoot: sandbox.assetRoot, maxBytes: sandbox.readOptions.limits.maxFileBytes)
        defer { sources.closeSaying() }
        if let fix {
            let (input, output) = try ExitStatus.orExit { (try sources.input(paths[0]), try sources.output(fix, isFolder: false, force: force)) }
            try repair(input, into: output, options: sources.readOptions(sandbox.readOptions, keepingRoot: sandbox.hasFolderRoot), sources: sources)
            _ = try ExitStatus.orExit { try sources.upload() }
            return
        }
        var base = ValidateUseCase(options: sandbox.readOptions)
        base.budget = try ExitStatus.orExit { try parsedBudget() }
        base.targetsUsdz = target == .usdz
        let (useCase, files) = try ExitStatus.orExit { try base.staged(paths, sources: sources, keepingRoot: sandbox.hasFolderRoot) }
        if files.isEmpty {
            throw ExitStatus.fail(AssetError(.fileNotFound, at: SourceLocation(file: paths.joined(separator: ", "), elementPath: "no USD or glTF files")))
        }
        let outcomes = useCase.run(files: files, sources: sources, progress: ProgressLine.forTerminal(total: files.count, noun: "validated"))
        if json || sarif {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try json ? encoder.encode(ValidationJSON(outcomes)) : encoder.encode(SARIFLog(outcomes))
            print(String(decoding: data, as: UTF8.self))
        } else {
            for outcome in outcomes { if let text = ValidationTextFormatter.format(outcome) { print(text) } }
            if outcomes.count > 1 { print(ValidationTextFormatter.summary(outcomes)) }
        }
        var status: Int32 = 0
        for outcome in outcomes {
            switch outcome {
            case .failed(_, let error):
                if !json && !sarif { _ = ExitStatus.fail(error) }
                if status == 0 { status = ExitStatus.code(for: error) }
            case .report(let report):
                if status == 0 && (report.errorCount > 0 || (strict && report.warningCount > 0)) { status = 1 }
            }
        }
        if status != 0 { throw ExitCode(status) }
    }

    private func parsedBudget() throws(AssetError) -> ValidationBudget {
        guard let budget else { return ValidationBudget() }
        return try ValidationBudget.parse(budget)
    }

    private func repair(_ file: String, into output: String, options: ReadOptions, sources: AssetSources) throws {
        let outcome: RepairUseCase.Outcome
        do throws(AssetError) {
            var useCase = RepairUseCase(options: options)
            useCase.budget = try parsedBudget()
            outcome = try useCase.run(file: file, output: output, force: force, sources: sources)
        } catch {
            throw ExitStatus.fail(error)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(RepairJSON(outcome)), as: UTF8.self))
        } else {
            print(RepairTextFormatter.format(outcome))
        }
        if outcome.after.errorCount > 0 || (strict && outcome.after.warningCount > 0) { throw ExitCode(1) }
    }
}

/// What `--target` checks a source for; usdz, the one format AR Quick Look opens, is the only one.
enum ValidationTarget: String, CaseIterable, ExpressibleByArgument {
    case usdz
}

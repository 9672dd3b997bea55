import ArgumentParser
import AssetCore

/// Flags every command that reads assets shares.
struct ReadingOptions: ParsableArguments {
    @Flag(name: .long, help: "Treat the first warning as an error.")
    var strict = false

    @Flag(name: .long, help: "Let references and textures resolve outside the asset's folder.")
    var allowOutsidePaths = false

    var readOptions: ReadOptions {
        ReadOptions(allowsPathsOutsideAsset: allowOutsidePaths, isStrict: strict)
    }
}

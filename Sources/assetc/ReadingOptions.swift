import ArgumentParser
import AssetCore
import AssetStorage
import Foundation

/// Flags every command that reads assets shares.
struct ReadingOptions: ParsableArguments {
    @Flag(name: .long, help: "Treat the first warning as an error.")
    var strict = false

    @OptionGroup var sandbox: SandboxOptions

    @Option(name: .long, help: ArgumentHelp("Purposes whose geometry counts in figures, bounds, thumbnails and conversions to formats without purposes, comma-separated from default, render, proxy, guide (default: default,render, as usd-core computes bounds).",
                                            valueName: "list"))
    var purpose: PurposeListArgument?

    @Option(name: .long, help: ArgumentHelp("Metres per unit for files that carry no unit (OBJ, STL, PLY; default: metres).", valueName: "x"))
    var sourceMetersPerUnit: Double?

    @Option(name: .long, help: ArgumentHelp("Which way the splat data of files that do not say points: three letters, r/l, u/d, f/b for x, y, z (default: rdf for 3DGS PLY, as COLMAP and the trainers write it; rub for SPZ; USD and glTF data is taken as placed).",
                                            valueName: "axes"))
    var splatAxes: SplatAxesArgument?

    @Option(name: .long, help: ArgumentHelp("Pose the scene at this many seconds into its first animation clip (skins, blend shapes and animated nodes applied) for bounds, thumbnails and conversions.",
                                            valueName: "seconds"))
    var time: Double?

    func validate() throws {
        if let time, !time.isFinite { throw ValidationError("--time takes a number of seconds") }
        if let sourceMetersPerUnit, !(sourceMetersPerUnit.isFinite && sourceMetersPerUnit > 0) {
            throw ValidationError("--source-meters-per-unit takes a positive number")
        }
    }

    var readOptions: ReadOptions {
        var options = sandbox.readOptions
        options.isStrict = strict
        if let purpose { options.purposes = purpose.set }
        options.sourceMetersPerUnit = sourceMetersPerUnit
        options.poseTime = time
        options.splatAxes = splatAxes?.axes
        return options
    }
}

/// Where a read may look and how much it may spend: the flags of every command that opens assets,
/// `validate` included.
struct SandboxOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Folder references, sublayers, payloads and textures may resolve under (default: the folder index and serve walk; else the current directory when the asset lies under it; else the asset's folder).",
                                            valueName: "dir"))
    var assetRoot: String?

    @Flag(name: .long, help: "Let references and textures resolve outside the asset root.")
    var allowOutsidePaths = false

    @Option(name: .long, help: SandboxOptions.maxMemoryHelp)
    var maxMemory: ByteSizeArgument?

    @Option(name: .long, help: ArgumentHelp("The largest file, or bucket object, one read takes, e.g. 200M (default 4G); larger ones are an error before their bytes are read.",
                                            valueName: "size"))
    var maxFileSize: ByteSizeArgument?

    @Option(name: .long, help: SandboxOptions.maxWorkHelp)
    var maxWork: Int?

    // Help made once, not at each of the several times a parse makes these options; the memory
    // figure's formatting was most of what making SandboxOptions cost (perf, `thumbnail`).
    private static let maxMemoryHelp = ArgumentHelp("Memory one read may set aside for decoded data, e.g. 512M or 4G (default: half of what this process may use, \(ByteCount.text(ReadLimits.defaultMemoryBytes)) here).",
                                                    valueName: "size")
    private static let maxWorkHelp = ArgumentHelp("Work one read may do, in units: array elements, triangles after instancing, \(ReadBudget.arcWeight) per composed prim or arc (default \(ReadLimits.defaultWork)).",
                                                  valueName: "units")

    func validate() throws {
        if let maxWork, maxWork <= 0 { throw ValidationError("--max-work must be a positive number of units") }
        if let assetRoot, StorageLocation.isBucket(assetRoot) {
            do { _ = try StorageLocation.parse(assetRoot) } catch { throw ValidationError("--asset-root: \(error.message)") }
        } else if let assetRoot {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: assetRoot, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--asset-root '\(assetRoot)' is not a folder")
            }
        }
    }

    /// Whether --asset-root names a folder on this machine (not a bucket).
    var hasFolderRoot: Bool { assetRoot.map { !StorageLocation.isBucket($0) } ?? false }

    var readOptions: ReadOptions {
        var limits = ReadLimits()
        if let maxMemory { limits.maxMemoryBytes = maxMemory.bytes }
        if let maxWork { limits.maxWork = maxWork }
        if let maxFileSize { limits.maxFileBytes = maxFileSize.bytes }
        // A bucket root is given to the read as its staging folder (AssetSources).
        let folder = assetRoot.flatMap { StorageLocation.isBucket($0) ? nil : $0 }
        return ReadOptions(limits: limits, assetRoot: folder.map { .folder($0) } ?? .currentDirectoryOrAssetFolder,
                           allowsPathsOutsideAsset: allowOutsidePaths)
    }
}

/// `--purpose render,proxy`: known purpose names only, so a typo is a usage error.
struct PurposeListArgument: ExpressibleByArgument {
    let set: PurposeSet

    init?(argument: String) {
        guard let set = PurposeSet(list: argument) else { return nil }
        self.set = set
    }
}

/// `--splat-axes rdf`: three axis letters (`SplatAxes(name:)`).
struct SplatAxesArgument: ExpressibleByArgument {
    let axes: SplatAxes

    init?(argument: String) {
        guard let axes = SplatAxes(name: argument) else { return nil }
        self.axes = axes
    }
}

/// A byte count with an optional binary unit: `1048576`, `512M`, `4G`, `1.5GiB`.
struct ByteSizeArgument: ExpressibleByArgument {
    let bytes: Int

    init?(argument: String) {
        guard let bytes = ByteCount.parse(argument) else { return nil }
        self.bytes = bytes
    }
}

/// The drawing budget of the commands that render (`thumbnail`, `index --thumbnails`).
struct DrawingOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Most triangles a picture draws once instances are placed; a scene past it is refused before drawing (default \(ReadLimits.defaultPlacedTriangles), about ten seconds on two cores).",
                                            valueName: "count"))
    var maxDrawnTriangles: Int?

    func validate() throws {
        if let maxDrawnTriangles, maxDrawnTriangles <= 0 { throw ValidationError("--max-drawn-triangles must be a positive number of triangles") }
    }

    /// `options` with the drawing budget set.
    func applied(to options: ReadOptions) -> ReadOptions {
        var options = options
        if let maxDrawnTriangles { options.limits.maxPlacedTriangles = maxDrawnTriangles }
        return options
    }
}

import AssetCore
import FormatUSD

/// The rules about how a usdz package is laid out and what it may hold.
enum PackageRules {
    /// ARKit's allowed package contents: the core layer formats and the usdz texture formats.
    /// Compared as written: usd-core reads extensions case-sensitively here (`TEX.PNG` fails).
    static let allowedExtensions: Set<String> = ["usd", "usda", "usdc", "usdz", "exr", "jpg", "jpeg", "png"]

    static func check(_ context: USDRuleContext, into findings: inout USDFindings) {
        let rootPackage = outermostPackage(context.facts.rootLayerLocation)
        for package in context.facts.packages {
            let file = context.facts.name(package.location)
            // The framework checks the root layer's own package under a second name as well.
            // `--fix` rebuilds the root's package; packages nested in it are carried as they are.
            let isRoot = package.location == rootPackage
            let validators = ["usdUtilsValidators:UsdzPackageValidator"] + (isRoot ? ["usdUtilsValidators:RootPackageValidator"] : [])
            let layout: USDZPackageLayout
            switch package.layout {
            case .failure(let error):
                findings.append(ValidationFinding(rule: .byteAlignment, message: "cannot read the package's layout: \(error.kind)",
                                                  location: error.location.isUnknown ? SourceLocation(file: file) : error.location))
                continue
            case .success(let read):
                layout = read
            }
            for entry in layout.entries {
                var here: SourceLocation { SourceLocation(file: "\(file)[\(entry.name)]") }
                if entry.dataOffset % 64 != 0 {
                    findings.append(ValidationFinding(
                        rule: .byteAlignment, message: "'\(entry.name)' starts at byte \(entry.dataOffset), not at a multiple of 64",
                        location: here, validators: validators, fixable: isRoot))
                }
                if entry.compressionMethod != 0 {
                    findings.append(ValidationFinding(
                        rule: .compression,
                        message: "'\(entry.name)' is compressed (method \(entry.compressionMethod), \(entry.compressedSize) of \(entry.size) bytes); usdz entries are stored",
                        location: here, validators: validators, fixable: isRoot))
                }
                if entry.isEncrypted {
                    findings.append(ValidationFinding(rule: .compression, message: "'\(entry.name)' is encrypted", location: here, validators: validators))
                }
                let fileExtension = Self.fileExtension(entry.name)
                if !allowedExtensions.contains(fileExtension) {
                    findings.append(ValidationFinding(
                        rule: .arkitFileExtension,
                        message: fileExtension.isEmpty ? "'\(entry.name)' has no extension; a package holds only layers and png, jpg or exr textures"
                            : "'\(entry.name)' has extension '\(fileExtension)'; a package holds only layers (usd, usda, usdc, usdz) and textures (png, jpg, jpeg, exr)",
                        location: here, fixable: isRoot && isUnused(entry.name, in: package.location, context)))
                }
            }
        }
        checkEncapsulation(context, into: &findings)
    }

    /// A packaged stage reads nothing from outside its outermost package.
    private static func checkEncapsulation(_ context: USDRuleContext, into findings: inout USDFindings) {
        guard context.facts.rootIsPackaged else { return }
        let package = outermostPackage(context.facts.rootLayerLocation)
        for layer in context.facts.layers where outermostPackage(layer.location) != package {
            findings.append(ValidationFinding(
                rule: .arkitPackageEncapsulation, message: "layer '\(layer.name)' is read from outside the package '\(context.facts.name(package))'",
                location: SourceLocation(file: layer.name), fixable: true))
        }
        for dependency in context.facts.dependencies where !dependency.isLayer {
            guard let resolved = dependency.resolved, outermostPackage(resolved) != package else { continue }
            findings.append(ValidationFinding(
                rule: .arkitPackageEncapsulation, message: "asset @\(dependency.assetPath)@ is read from outside the package '\(context.facts.name(package))' (\(context.facts.name(resolved)))",
                location: dependency.location, fixable: true))
        }
    }

    /// Whether the stage never reads a package entry; `--fix` leaves such entries out.
    private static func isUnused(_ entry: String, in package: AssetLocation, _ context: USDRuleContext) -> Bool {
        let location = AssetLocation.packageEntry(package: package, entry: entry)
        return !(context.facts.layers.contains { $0.location == location } || context.facts.dependencies.contains { $0.resolved == location })
    }

    static func outermostPackage(_ location: AssetLocation) -> AssetLocation {
        guard case .packageEntry(let package, _) = location else { return location }
        return outermostPackage(package)
    }

    /// What follows the last dot of the last path component ("" when none), as usd-core's
    /// resolver reads it; for `a.usdz[b.png]` it is the inner file's.
    static func fileExtension(_ path: String) -> String {
        var name = Substring(path)
        if name.hasSuffix("]"), let open = name.lastIndex(of: "[") { name = name[name.index(after: open)..<name.index(before: name.endIndex)] }
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        guard let dot = name.lastIndex(of: ".") else { return "" }
        return String(name[name.index(after: dot)...])
    }
}

import AssetCore
import AssetPipeline
import AssetValidate
import Foundation

/// `assetc validate --target usdz FILE` for a source that is not USD (dae, glTF, OBJ...): what a
/// conversion to usdz would change or break. The source is read and really converted, into a
/// temporary folder (one read), so the report is what `assetc convert FILE OUT.usdz` would give: what the
/// source itself lacks (textures that do not resolve), what the conversion turns or leaves out
/// (its warnings: Z up turned Y up, lights, curves, WebP to PNG...), then the ARKit verdict on the
/// usdz it makes, its findings pointed back at the source.
public struct UsdzTargetCheck: Sendable {
    package var registry: FormatRegistry = .standard
    public var options: ReadOptions
    public var budget = ValidationBudget()

    public init(options: ReadOptions = ReadOptions()) {
        self.options = options
    }

    public func run(file: String) throws(AssetError) -> ValidationReport {
        let folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("assetc-target-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: folder) }  // best effort: a leftover temporary folder breaks nothing
        let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let output = (folder as NSString).appendingPathComponent((stem.isEmpty ? "asset" : stem) + ".usdz")
        var convert = ConvertOptions()
        convert.format = .usdz
        convert.readOptions = options
        // One read: the conversion's report carries the source's own metadata and textures.
        var conversion = ConvertUseCase(registry: registry)
        conversion.checksGLTF = false  // a glTF source's own findings are reported beside these
        let converted = try conversion.run(input: file, output: output, options: convert)

        let name = options.name(ofPath: file)
        let here = SourceLocation(file: name)
        var findings: [ValidationFinding] = []
        let source = converted.sourceMetadata
        if source.upAxis != .y {
            findings.append(ValidationFinding(rule: .conversion, severity: .warning,
                                              message: "the source is \(source.upAxis.rawValue) up; the usdz is turned Y up, as ARKit requires",
                                              location: here))
        }
        for texture in converted.textures where !texture.resolves {
            findings.append(ValidationFinding(rule: .conversion, message: "texture '\(texture.authoredPath)' does not resolve; the usdz will have none in its place",
                                              location: here))
        }
        for diagnostic in converted.diagnostics where diagnostic.severity != .error {
            findings.append(ValidationFinding(rule: .conversion, severity: .warning, message: "converting: " + diagnostic.message,
                                              location: diagnostic.location.isUnknown ? here : diagnostic.location))
        }

        var packageOptions = options
        packageOptions.assetRoot = .assetFolder
        packageOptions.allowsPathsOutsideAsset = false
        let verdict = try AssetValidator(options: packageOptions, budget: budget).validate(path: output, format: .usdz)
        for var finding in verdict.findings {
            // Prim paths are the converted stage's; the file named is the source the user has.
            finding.message = "in the usdz: " + finding.message
            finding.location = SourceLocation(file: name, elementPath: finding.location.elementPath)
            finding.fixable = false
            findings.append(finding)
        }
        return ValidationReport(file: name, format: converted.sourceFormat, findings: findings)
    }
}

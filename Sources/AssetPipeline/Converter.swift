import AssetCore
import Foundation

public struct ConvertReport: Sendable {
    public var format: AssetFormat
    /// What the input was read as.
    public var sourceFormat: AssetFormat
    public var writtenFiles: [String]
    public var diagnostics: [Diagnostic]
    public var scene: Scene
    /// The source's metadata as read, before the passes turned it (up axis, units) for the writer.
    public var sourceMetadata: SceneMetadata
    /// What simplification did, mesh by mesh; empty when it was not asked for or changed nothing.
    public var simplification: [SimplifyPass.MeshReport] = []
}

/// Reads any format the registry reads and writes any format it writes, running the passes the
/// options and the writer's requirements call for, then writing atomically.
public struct Converter: Sendable {
    public var registry: FormatRegistry
    /// Passes the caller adds before the writer's own (AssetKit's texture transcoding, which needs
    /// the image codecs this module does not import).
    public var leadingPasses: [any ScenePass]

    public init(registry: FormatRegistry = .standard, leadingPasses: [any ScenePass] = []) {
        self.registry = registry
        self.leadingPasses = leadingPasses
    }

    public func writer(for outputPath: String, format: AssetFormat?) throws(AssetError) -> any SceneWriter {
        let names = registry.writers.map(\.format.name)
        if let format {
            guard let writer = registry.writers.first(where: { $0.format == format }) else {
                throw AssetError(.unsupportedFormat("'\(format)' is not a format assetc writes", supported: names))
            }
            return writer
        }
        let ext = (outputPath as NSString).pathExtension.lowercased()
        guard let writer = registry.writers.first(where: { $0.format.fileExtension == ext }) else {
            throw AssetError(.unsupportedFormat(ext.isEmpty ? "the output has no extension; pass --to" : "'.\(ext)' is not a format assetc writes",
                                                supported: names), at: SourceLocation(file: outputPath))
        }
        return writer
    }

    public func convert(input: String, output: String, options: ConvertOptions) throws(AssetError) -> ConvertReport {
        let writer = try writer(for: output, format: options.format)
        let match = try registry.reader(for: URL(fileURLWithPath: input))
        var result = try registry.read(match, options: options.readOptions)
        // Writers and the flatten pass copy each placed mesh, so their work is the scene's after instancing.
        try ReadBudget(options.readOptions.limits).spendInstancedTriangles(of: result.scene, for: "converting the scene",
                                                                         at: SourceLocation(file: input))
        var diagnostics = result.diagnostics
        let sourceMetadata = result.scene.metadata
        let passes = passes(for: writer.requirements, format: writer.format, options: options)
        for pass in passes {
            pass.run(&result.scene, diagnostics: &diagnostics)
        }
        let limits = options.readOptions.limits
        let context = WriteContext(outputName: (output as NSString).lastPathComponent,
                                   textureBytes: { TextureBytes.load($0, limits: limits) },
                                   prefersTextLayers: options.textRootLayer)
        let written = try writer.write(result.scene, context: context)
        diagnostics += written.diagnostics
        if options.readOptions.isStrict, let first = written.diagnostics.first {
            throw AssetError(.strict(first.message), at: first.location)
        }
        let files = try AtomicOutput.write(written.files, mainPath: output, force: options.force)
        return ConvertReport(format: writer.format, sourceFormat: match.format, writtenFiles: files, diagnostics: diagnostics, scene: result.scene,
                             sourceMetadata: sourceMetadata, simplification: passes.compactMap { $0 as? SimplifyPass }.first?.report ?? [])
    }

    func passes(for requirements: WriterRequirements, format: AssetFormat, options: ConvertOptions) -> [any ScenePass] {
        var passes: [any ScenePass] = leadingPasses
        // Posing comes first: the passes after it move and scale geometry, which a skin's bind
        // matrices would not follow.
        if let time = options.readOptions.poseTime { passes.append(PoseAnimationPass(time: time)) }
        else if !requirements.keepsAnimation { passes.append(DropAnimationPass(format: format.name)) }
        // Simplified before anything copies meshes per instance (flattening), once per mesh.
        if let budget = options.maxTriangles { passes.append(SimplifyPass(target: .triangles(budget))) }
        else if let ratio = options.simplifyRatio { passes.append(SimplifyPass(target: .ratio(ratio))) }
        if !requirements.keepsTextureTransforms { passes.append(BakeTextureTransformsPass()) }
        if !requirements.keepsLights { passes.append(DropLightsPass(format: format.name)) }
        if !requirements.keepsMaterialVariants { passes.append(DropMaterialVariantsPass(format: format.name)) }
        if !requirements.writesUsdSkel { passes.append(DropSkelSchemaNodesPass()) }
        if !requirements.keepsCurves {
            // USD holds curves; it is ARKit that refuses them in the usdz AR Quick Look opens.
            let reason = requirements.keepsLights ? "holds surfaces only" : "for AR Quick Look takes no curves (ARKit's rules)"
            passes.append(DropCurvesPass(format: format.name, reason: reason))
        }
        let upAxis = options.upAxis ?? requirements.upAxis
        let meters = options.metersPerUnit ?? requirements.metersPerUnit
        if upAxis != nil || meters != nil { passes.append(AxisAndUnitsPass(upAxis: upAxis, metersPerUnit: meters)) }
        if options.flatten || requirements.flattened { passes.append(FlattenPass()) }
        else if !requirements.keepsPurposeAndVisibility {
            // Formats without USD's purpose, visibility and transform resets.
            passes.append(DropHiddenNodesPass())
            passes.append(ResolveTransformResetsPass())
        }
        if requirements.affineTransforms && !(options.flatten || requirements.flattened) { passes.append(BakeProjectiveTransformsPass()) }
        if options.triangulate {
            passes.append(TriangulatePass())
        } else if requirements.triangles {
            passes.append(TriangulatePass(requiredBy: format.name))
        }
        return passes
    }
}

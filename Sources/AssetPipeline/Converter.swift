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
    /// The textures the texture pass resized or re-encoded.
    public var textures: [ShrinkTexturesPass.TextureReport] = []
    /// The tries `--max-size` made before the last: each output's size and the budgets it had.
    public var sizeTries: [SizeTry] = []
    /// The bytes of every file written (the package, or the main file and its sidecars).
    public var bytes = 0
}

/// One output `--max-size` found too large, and the budgets that made it.
public struct SizeTry: Sendable, Equatable, Encodable {
    public var bytes: Int
    public var maxTriangles: Int?
    public var maxTextureSize: Int?
    /// `--texture-format`'s value for the try (`keep`, or `auto` once textures try JPEG).
    public var textureFormat: String
}

/// Reads any format the registry reads and writes any format it writes, running the passes the
/// options and the writer's requirements call for, then writing atomically.
public struct Converter: Sendable {
    public var registry: FormatRegistry

    public init(registry: FormatRegistry = .standard) {
        self.registry = registry
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
        if options.meshCompression != .none && writer.format != .glb && writer.format != .gltf {
            throw AssetError(.unsupportedFormat("--compress is for glTF output; \(writer.format.name) has no mesh compression",
                                                supported: [AssetFormat.glb.name, AssetFormat.gltf.name]), at: SourceLocation(file: output))
        }
        if options.textureStorage == .beside && writer.format != .fbx {
            throw AssetError(.unsupportedFormat("--textures beside is for FBX output; \(writer.format.name) places its textures its own way",
                                                supported: [AssetFormat.fbx.name]), at: SourceLocation(file: output))
        }
        let match = try registry.reader(for: URL(fileURLWithPath: input), staged: options.readOptions.staged)
        let read = try registry.read(match, options: options.readOptions)
        // Writers and the flatten pass copy each placed mesh, so their work is the scene's after instancing.
        try ReadBudget(options.readOptions.limits).spendInstancedTriangles(of: read.scene, for: "converting the scene",
                                                                         at: SourceLocation(file: input))
        let (limits, staged) = (options.readOptions.limits, options.readOptions.staged)
        let context = WriteContext(outputName: (output as NSString).lastPathComponent,
                                   textureBytes: { TextureBytes.load($0, limits: limits, staged: staged) },
                                   prefersTextLayers: options.textRootLayer, meshCompression: options.meshCompression,
                                   textureStorage: options.textureStorage)
        var attempt = options
        var tries: [SizeTry] = []
        while true {
            var scene = read.scene
            var diagnostics = read.diagnostics
            let passes = passes(for: writer.requirements, format: writer.format, options: attempt)
            run(passes, on: &scene, diagnostics: &diagnostics)
            let written = try writer.write(scene, context: context)
            let bytes = written.files.reduce(0) { $0 + $1.bytes.count }
            if let limit = options.maxOutputBytes, bytes > limit {
                let sizeTry = SizeTry(bytes: bytes, maxTriangles: attempt.maxTriangles, maxTextureSize: attempt.maxTextureSize,
                                      textureFormat: attempt.textureEncoding.rawValue)
                if tries.count < Self.maxSizeTries, let tighter = tightened(attempt, scene: scene, bytes: bytes, limit: limit) {
                    tries.append(sizeTry)
                    attempt = tighter
                    continue
                }
                diagnostics.append(.warning("the output is \(bytes) bytes, above --max-size's \(limit), after \(tries.count + 1) tries; "
                                            + "its triangles and textures cannot usefully shrink further"))
            }
            diagnostics += written.diagnostics
            if options.readOptions.isStrict, let first = written.diagnostics.first {
                throw AssetError(.strict(first.message), at: first.location)
            }
            let files = try AtomicOutput.write(written.files, mainPath: output, force: options.force)
            return ConvertReport(format: writer.format, sourceFormat: match.format, writtenFiles: files, diagnostics: diagnostics, scene: scene,
                                 sourceMetadata: read.scene.metadata,
                                 simplification: passes.compactMap { $0 as? SimplifyPass }.first?.report ?? [],
                                 textures: passes.compactMap { $0 as? ShrinkTexturesPass }.first?.report ?? [], sizeTries: tries, bytes: bytes)
        }
    }

    /// Runs the passes in order, except that the texture pass runs on the other core beside the
    /// ones after it: it reads and writes only the textures, which no other pass touches, and
    /// decoding, filtering and encoding large images takes as long as simplifying a large mesh.
    private func run(_ passes: [any ScenePass], on scene: inout Scene, diagnostics: inout [Diagnostic]) {
        guard let split = passes.firstIndex(where: { $0 is ShrinkTexturesPass }) else {
            for pass in passes { pass.run(&scene, diagnostics: &diagnostics) }
            return
        }
        for pass in passes[..<split] { pass.run(&scene, diagnostics: &diagnostics) }
        let shrunk = Locked<(textures: [Texture], diagnostics: [Diagnostic])?>(nil)
        let source = scene, texturePass = passes[split]
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) {
            var copy = source
            var found: [Diagnostic] = []
            texturePass.run(&copy, diagnostics: &found)
            shrunk.withLock { $0 = (copy.textures, found) }
        }
        for pass in passes[(split + 1)...] { pass.run(&scene, diagnostics: &diagnostics) }
        done.wait()
        if let shrunk = shrunk.value {
            scene.textures = shrunk.textures
            diagnostics += shrunk.diagnostics
        }
    }

    func passes(for requirements: WriterRequirements, format: AssetFormat, options: ConvertOptions) -> [any ScenePass] {
        let staged = options.readOptions.staged
        var passes: [any ScenePass] = [TranscodeTexturesPass(keepsWebP: format == .gltf || format == .glb, staged: staged)]
        if options.maxTextureSize != nil || options.textureEncoding != .keep {
            var shrink = ShrinkTexturesPass(maxSize: options.maxTextureSize, encoding: options.textureEncoding, quality: options.jpegQuality)
            shrink.staged = staged
            passes.append(shrink)
        }
        // Posing comes first: the passes after it move and scale geometry, which a skin's bind
        // matrices would not follow.
        if let time = options.readOptions.poseTime { passes.append(PoseAnimationPass(time: time)) }
        else if !requirements.keepsAnimation { passes.append(DropAnimationPass(format: format.name)) }
        else if !requirements.keepsMaterialAnimation { passes.append(DropMaterialAnimationPass(format: format.name)) }
        // Simplified before anything copies meshes per instance (flattening), once per mesh.
        if let budget = options.maxTriangles { passes.append(SimplifyPass(target: .triangles(budget))) }
        else if let ratio = options.simplifyRatio { passes.append(SimplifyPass(target: .ratio(ratio))) }
        if !requirements.keepsTextureTransforms { passes.append(BakeTextureTransformsPass()) }
        if !requirements.keepsLights { passes.append(DropLightsPass(format: format.name)) }
        if !requirements.keepsMaterialVariants { passes.append(DropMaterialVariantsPass(format: format.name)) }
        if options.addsMaterialXNetworks { passes.append(AddMaterialXNetworksPass(format: format)) }
        if !requirements.writesUsdSkel { passes.append(DropSkelSchemaNodesPass()) }
        if !requirements.keepsCurves {
            // USD holds curves; it is ARKit that refuses them in the usdz AR Quick Look opens.
            let reason = requirements.keepsLights ? "holds surfaces only" : "for AR Quick Look takes no curves (ARKit's rules)"
            passes.append(DropCurvesPass(format: format.name, reason: reason))
        }
        if !requirements.keepsSplats { passes.append(DropSplatsPass(format: format.name)) }
        else if options.dropsSplats { passes.append(DropSplatsPass(format: format.name, reason: "AR Quick Look draws no Gaussian splats")) }
        else {
            if options.maxSplats != nil || options.splatSHDegree != nil {
                passes.append(SplatBudgetPass(maxSplats: options.maxSplats, shDegree: options.splatSHDegree))
            }
            if format != .gltf && format != .glb { passes.append(SplatColourSpaceNotePass(format: format.name)) }
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

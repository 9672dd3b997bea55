import ArgumentParser
import AssetCatalog
import AssetCore
import AssetKit
import AssetRender
import Foundation

struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Render PNG previews of assets on the CPU, headless, on all cores.",
        discussion: """
            Files and folders (walked recursively) are rendered to OUT, mirroring their paths with .png \
            appended: Art.scnassets/ship.dae becomes OUT/Art.scnassets/ship.dae.png. A file that fails is \
            reported and the rest go on; the exit status is non-zero if any failed.
            """)

    @Argument(help: "Asset files and folders.")
    var paths: [String]

    @Option(name: .long, help: "Folder to write the thumbnails to.")
    var out: String

    @Option(help: "Width and height in pixels.")
    var size = ThumbnailSize.default

    @Option(help: ArgumentHelp("Named view: \(RenderView.names).", valueName: "view"))
    var view: RenderView = .default

    @Option(help: "Samples per pixel along each axis (2 gives 2x2).")
    var supersample = 2

    @Option(help: "Background colour as #RRGGBB; transparent when left out.")
    var background: String?

    // Unconditional: a first value below zero (`-4.5,0.6,0`) is the value, not an option.
    @Option(parsing: .unconditional, help: "Explicit camera position x,y,z (with --camera-target).")
    var cameraPosition: String?

    @Option(parsing: .unconditional, help: "Point the explicit camera looks at, x,y,z.")
    var cameraTarget: String?

    @Option(help: "Vertical field of view in degrees for the explicit camera.")
    var fov = 60.0

    @Option(help: ArgumentHelp("For animated assets, also render this many evenly spaced frames of the first clip as numbered PNGs (ship.dae.001.png...) and one looping animated WebP (ship.dae.webp), which the gallery plays; for a still asset with Gaussian splats, a turntable of this many frames.",
                               valueName: "n"))
    var frames: Int?

    @Flag(help: "Also write OUT/index.html, a gallery of the thumbnails.")
    var html = false

    @OptionGroup var reading: ReadingOptions
    @OptionGroup var drawing: DrawingOptions

    @OptionGroup(title: "Look") var look: LookOptions

    func validate() throws {
        guard (1...Renderer.maxSize).contains(size) else { throw ValidationError("--size takes 1 to \(Renderer.maxSize)") }
        guard (1...Renderer.maxSupersample).contains(supersample) else { throw ValidationError("--supersample takes 1 to \(Renderer.maxSupersample)") }
        // Refused before anything is allocated: the framebuffer holds size² x supersample² samples.
        let samples = size * size * supersample * supersample
        guard samples <= Renderer.maxSamples else {
            throw ValidationError("--size \(size) with --supersample \(supersample) needs \(samples) samples; at most \(Renderer.maxSamples) fit the renderer's memory budget: lower --size or --supersample")
        }
        if let frames, !(1...1000).contains(frames) { throw ValidationError("--frames takes 1 to 1000") }
        if let background, RenderOptions.color(hex: background) == nil { throw ValidationError("--background takes #RRGGBB, not '\(background)'") }
        if (cameraPosition == nil) != (cameraTarget == nil) { throw ValidationError("--camera-position and --camera-target go together") }
        for text in [cameraPosition, cameraTarget].compactMap({ $0 }) where Self.vector(text) == nil {
            throw ValidationError("camera vectors take x,y,z, not '\(text)'")
        }
        guard fov > 0, fov < 180 else { throw ValidationError("--fov takes degrees between 0 and 180") }
    }

    static func vector(_ text: String) -> SIMD3<Double>? {
        let parts = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        return parts.count == 3 && parts.allSatisfy(\.isFinite) ? SIMD3(parts[0], parts[1], parts[2]) : nil
    }

    func run() throws {
        var render = RenderOptions()
        render.size = size
        render.view = view
        render.supersample = supersample
        render.background = background.flatMap { RenderOptions.color(hex: $0) }
        if let p = cameraPosition.flatMap(Self.vector), let t = cameraTarget.flatMap(Self.vector) {
            // The renderer puts the near and far planes around the model.
            render.camera = RenderCamera(position: p, target: t, verticalFieldOfView: fov)
        }
        try look.apply(to: &render)
        let sources = try AssetSources.forCommand(assetRoot: reading.sandbox.assetRoot, maxBytes: reading.readOptions.limits.maxFileBytes)
        defer { sources.closeSaying() }
        var base = ThumbnailUseCase(render: render, readOptions: drawing.applied(to: reading.readOptions))
        base.frames = frames
        let (useCase, jobs, out) = try ExitStatus.orExit {
            try base.staged(paths, output: self.out, sources: sources, keepingRoot: reading.sandbox.hasFolderRoot)
        }
        let terminal = isatty(STDERR_FILENO) != 0
        let total = jobs.count
        let shownFolder = self.out
        let outcomes = useCase.run(jobs, outputFolder: out, sources: sources) { outcome, done in
            var stderr = StandardError()
            if let error = outcome.error {
                if terminal { print("\r\u{1B}[K", terminator: "", to: &stderr) }
                print("assetc: error: \(TerminalText.safe(error.description))", to: &stderr)
            } else if terminal {
                let width = 30, filled = width * done / max(total, 1)
                print("\r\u{1B}[K[\(String(repeating: "#", count: filled))\(String(repeating: " ", count: width - filled))] \(done)/\(total) \(TerminalText.safe(outcome.job.input))",
                      terminator: done == total ? "\n" : "", to: &stderr)
            } else {
                print("thumbnail \(done)/\(total): \(TerminalText.safe(outcome.job.input)) -> \(TerminalText.safe(AssetSources.joined(shownFolder, outcome.job.output)))", to: &stderr)
            }
        }
        if html { _ = try ExitStatus.orExit { try useCase.writeGallery(outcomes, outputFolder: out) } }
        let failures = outcomes.filter { $0.error != nil }
        _ = try ExitStatus.orExit { try sources.upload() }
        print("\(outcomes.count - failures.count) thumbnails written to \(self.out), \(failures.count) failed")
        if let first = failures.first?.error { throw ExitCode(ExitStatus.code(for: first)) }
        if jobs.isEmpty {
            throw ExitStatus.fail(AssetError(.unsupportedFormat("no assets found", supported: []), at: SourceLocation(file: paths.joined(separator: " "))))
        }
    }
}

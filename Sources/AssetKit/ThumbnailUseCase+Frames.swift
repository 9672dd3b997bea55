import AssetCore
import AssetImage
import AssetPipeline
import AssetRender
import Foundation

/// The moving pictures `--frames` and the service's preview make: an animated scene's first clip
/// under one camera, or, for a still scene that holds Gaussian splats, a turntable. A capture's
/// colours change with the direction it is seen from (its spherical harmonics) and its shape reads
/// only in motion, so one still picture shows it less well than a mesh.
extension ThumbnailUseCase {
    /// Whether the scene gets moving frames: it is animated, or still and holds placed splats.
    public static func moves(_ scene: Scene) -> Bool {
        scene.isAnimated || turns(scene)
    }

    /// Whether the scene gets a turntable rather than its clip: still, with placed splats.
    public static func turns(_ scene: Scene) -> Bool {
        guard !scene.isAnimated, !scene.splats.isEmpty else { return false }
        var placed = false
        scene.forEachNode { node, visit in
            if visit.isCounted && node.splatInstances.contains(where: { scene.splats.indices.contains($0.splats) }) { placed = true }
        }
        return placed
    }

    /// One turn of a turntable takes this long, whatever the frame count.
    static let turnSeconds = 4.0

    /// `count` frames, as numbered PNGs and one looping animated WebP: the clip's frames under one
    /// camera framed on every frame's bounds together (so the asset moves and the view stays), or,
    /// for a still scene with splats, one full turn of the camera about the up axis from the
    /// chosen view, every frame framed on the same sphere.
    public func frames(of scene: Scene, count: Int, source: String?) throws(AssetError) -> (pngs: [[UInt8]], webp: [UInt8]) {
        if Self.turns(scene) { return try turntableFrames(of: scene, count: count, source: source) }
        return try animationFrames(of: scene, count: count, source: source)
    }

    /// The frames of an animated scene under one camera (framed on every frame's bounds together,
    /// so the asset moves rather than the view), as numbered PNGs and one animated WebP.
    public func animationFrames(of scene: Scene, count: Int, source: String?) throws(AssetError) -> (pngs: [[UInt8]], webp: [UInt8]) {
        let times = scene.frameTimes(count)
        var union = Bounds3.empty
        for time in times { union.formUnion(scene.posed(at: time).worldBounds) }
        var options = frameOptions(source: source)
        if options.camera == nil, !union.isEmpty {
            options.camera = RenderCamera.framing(union, view: options.view, upAxis: scene.metadata.upAxis)
        }
        let span = times.count > 1 ? times[times.count - 1] - times[0] : 0
        let milliseconds = times.count > 1 ? Int((span / Double(times.count - 1) * 1000).rounded()) : 100
        var images: [RGBAImage] = []
        for time in times { images.append(try Renderer.render(scene.posed(at: time), options: options).image) }
        return try encode(images, frameMilliseconds: milliseconds)
    }

    /// One turn about the scene's up axis in `count` frames, a turn taking `turnSeconds`. The first
    /// frame is the still thumbnail (the chosen view, or the given camera, framed as a still is);
    /// the others turn its camera.
    public func turntableFrames(of scene: Scene, count: Int, source: String?) throws(AssetError) -> (pngs: [[UInt8]], webp: [UInt8]) {
        var options = frameOptions(source: source)
        let count = max(count, 1)
        let first = try Renderer.render(scene, options: options)
        let axis: SIMD3<Double> = switch scene.metadata.upAxis {
        case .x: [1, 0, 0]
        case .y: [0, 1, 0]
        case .z: [0, 0, 1]
        }
        var images = [first.image]
        for k in 1..<count {
            options.camera = first.camera.turned(about: axis, degrees: 360 * Double(k) / Double(count))
            images.append(try Renderer.render(scene, options: options).image)
        }
        return try encode(images, frameMilliseconds: max(20, Int((Self.turnSeconds * 1000 / Double(count)).rounded())))
    }

    private func frameOptions(source: String?) -> RenderOptions {
        var options = render
        options.textureBytes = { [readOptions] in TextureBytes.load($0, limits: readOptions.limits, staged: readOptions.staged) }
        options.limits = readOptions.limits
        options.source = source
        return options
    }

    private func encode(_ images: [RGBAImage], frameMilliseconds: Int) throws(AssetError) -> (pngs: [[UInt8]], webp: [UInt8]) {
        var pngs: [[UInt8]] = []
        for image in images { pngs.append(try PNGCodec.encode(image, effort: .fast)) }
        return (pngs, try AnimatedWebPEncoder.encode(images, frameMilliseconds: frameMilliseconds))
    }

    func writeFrames(of scene: Scene, count: Int, source: String, target: String, force: Bool) throws(AssetError) {
        let (pngs, webp) = try frames(of: scene, count: count, source: source)
        let stem = String(target.dropLast(".png".count))
        let digits = max(3, String(count).count)
        for (k, png) in pngs.enumerated() {
            let number = String(repeating: "0", count: max(0, digits - String(k + 1).count)) + String(k + 1)
            let path = "\(stem).\(number).png"
            _ = try AtomicOutput.write([OutputFile(relativePath: (path as NSString).lastPathComponent, bytes: png)], mainPath: path, force: force)
        }
        let path = stem + ".webp"
        _ = try AtomicOutput.write([OutputFile(relativePath: (path as NSString).lastPathComponent, bytes: webp)], mainPath: path, force: force)
    }
}

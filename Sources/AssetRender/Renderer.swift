import AssetCore

/// What to render and how.
public struct RenderOptions: Sendable {
    /// Width and height in pixels.
    public var size: Int = 256
    public var view: RenderView = .iso
    /// An explicit camera (the renderer sets its near and far planes around the model); nil
    /// frames the scene automatically from `view`.
    public var camera: RenderCamera?
    /// Samples per pixel along each axis (2 gives 2x2).
    public var supersample: Int = 2
    /// nil: transparent background.
    public var background: SIMD3<Float>?
    /// The bytes of a scene texture, or nil when it cannot be had.
    public var textureBytes: @Sendable (Texture) -> [UInt8]? = { _ in nil }
    /// The memory and work one render may take (framebuffer bytes, triangles after instancing).
    public var limits = ReadLimits()
    /// Where errors say the scene came from.
    public var source: String?

    public init() {}
}

public struct RenderResult: Sendable {
    public var image: RGBAImage
    public var camera: RenderCamera
    public var diagnostics: [Diagnostic]
}

/// The CPU renderer: camera -> transform -> clip -> rasterize -> shade -> resolve.
/// Same scene and options, same pixels.
public enum Renderer {
    public static let maxSize = 8192
    public static let maxSupersample = 8
    /// Most samples one image may hold (size x size x supersample²): each costs 20 bytes of colour
    /// and depth, so this caps the framebuffer near 1.3 GB whatever the options say.
    public static let maxSamples = 1 << 26

    /// The supersampling grid actually used: the one asked for, lowered until the image fits
    /// `maxSamples` (size alone always does, since maxSize² is within it).
    static func grid(size: Int, supersample: Int) -> Int {
        var grid = min(max(supersample, 1), maxSupersample)
        while grid > 1 && size * size * grid * grid > maxSamples { grid -= 1 }
        return grid
    }

    /// Bytes of colour and depth one sample takes.
    static let bytesPerSample = MemoryLayout<SIMD4<Float>>.stride + MemoryLayout<Float>.stride

    /// Renders `scene`; fails, before allocating, when the framebuffer or the triangles after
    /// instancing are past `options.limits`.
    public static func render(_ scene: Scene, options: RenderOptions) throws(AssetError) -> RenderResult {
        let size = min(max(options.size, 1), maxSize)
        let grid = grid(size: size, supersample: options.supersample)
        var diagnostics: [Diagnostic] = []
        if grid < min(max(options.supersample, 1), maxSupersample) {
            diagnostics.append(.warning("supersampling lowered from \(options.supersample) to \(grid): a \(size)-pixel image may hold at most \(maxSamples) samples"))
        }
        let budget = ReadBudget(options.limits)
        let here = SourceLocation(file: options.source)
        try budget.spend(bytes: size * size * grid * grid * bytesPerSample, for: "a \(size)-pixel image at \(grid)x\(grid) samples", at: here)
        try budget.spendInstancedTriangles(of: scene, for: "drawing the scene", at: here)
        let bounds = scene.worldBounds
        let placed = scene.placedMeshes()
        // One unwelded copy per mesh, however many instances place it.
        var shapes = [DrawMesh?](repeating: nil, count: scene.meshes.count)
        for p in placed where shapes[p.instance.mesh] == nil { shapes[p.instance.mesh] = DrawMesh(mesh: scene.meshes[p.instance.mesh]) }
        let placedCurves = scene.placedCurves()
        let radius = bounds.isEmpty ? nil : max(farthestPoint(placed, shapes, from: bounds.center),
                                                farthestPoint(placedCurves, scene.curves, from: bounds.center))
        // An explicit camera keeps where it looks; its near and far planes still come from the
        // bounding sphere, so no part of the model is cut off whatever planes it came with.
        let camera = if let given = options.camera {
            radius.map { given.clipping(around: bounds.center, radius: $0) } ?? given
        } else {
            RenderCamera.framing(bounds.isEmpty ? Bounds3(min: [-1, -1, -1], max: [1, 1, 1]) : bounds,
                                 radius: radius, view: options.view, upAxis: scene.metadata.upAxis)
        }
        var rasterizer = TriangleRasterizer(framebuffer: Framebuffer(width: size, height: size, grid: grid))
        guard !bounds.isEmpty else {
            return RenderResult(image: rasterizer.framebuffer.resolve(background: options.background), camera: camera, diagnostics: diagnostics)
        }
        let viewProjection = camera.projection(aspect: 1) * camera.view
        let vp = (0..<16).map { Float(viewProjection.columnMajorElements[$0]) }
        let samplers = loadTextures(scene, options: options, diagnostics: &diagnostics)
        let eye = SIMD3<Float>(Float(camera.position.x), Float(camera.position.y), Float(camera.position.z))
        // Opaque geometry first, then transparent on top of it (unsorted, but in a fixed order).
        let passes = scene.materials.contains(where: isTransparent) ? [true, false] : [true]
        for pass in passes {
            for placed in placed {
                let source = scene.meshes[placed.instance.mesh]
                guard let shape = shapes[placed.instance.mesh] else { continue }
                let mesh = shape.placed(source, instance: placed.instance, world: placed.worldTransform)
                let sets = scene.materials.map { material -> Int in
                    guard let name = material.baseColor.texture?.texcoordSet else { return 0 }
                    return source.texcoordSets.firstIndex { $0.name == name } ?? 0
                }
                let shader = SurfaceShader(mesh: mesh, materials: scene.materials, samplers: samplers, eye: eye, baseColorSet: sets)
                let clip = mesh.positions.map { p -> SIMD4<Float> in
                    let c0 = SIMD4(vp[0], vp[1], vp[2], vp[3]), c1 = SIMD4(vp[4], vp[5], vp[6], vp[7])
                    let c2 = SIMD4(vp[8], vp[9], vp[10], vp[11]), c3 = SIMD4(vp[12], vp[13], vp[14], vp[15])
                    return c0 * p.x + c1 * p.y + c2 * p.z + c3
                }
                for t in 0..<mesh.triangleCount {
                    let m = Int(mesh.triangleMaterials[t])
                    let opaque = !(m >= 0 && m < scene.materials.count && isTransparent(scene.materials[m]))
                    guard opaque == pass else { continue }
                    rasterizer.draw(clip[Int(mesh.indices[3 * t])], clip[Int(mesh.indices[3 * t + 1])], clip[Int(mesh.indices[3 * t + 2])],
                                    triangle: t, shader: shader, opaque: opaque)
                }
            }
        }
        drawCurves(placedCurves, of: scene, vp: vp, into: &rasterizer.framebuffer)
        return RenderResult(image: rasterizer.framebuffer.resolve(background: options.background), camera: camera, diagnostics: diagnostics)
    }

    /// Colour of curves without a material: dark, so wires and guides read against the default grey.
    static let defaultLineColor = SIMD3<Float>(0.1, 0.1, 0.1)

    /// Every placed curve's segments, one pixel wide, in its material's base colour.
    static func drawCurves(_ placed: [PlacedCurves], of scene: Scene, vp: [Float], into framebuffer: inout Framebuffer) {
        let c0 = SIMD4(vp[0], vp[1], vp[2], vp[3]), c1 = SIMD4(vp[4], vp[5], vp[6], vp[7])
        let c2 = SIMD4(vp[8], vp[9], vp[10], vp[11]), c3 = SIMD4(vp[12], vp[13], vp[14], vp[15])
        for instance in placed {
            let curves = scene.curves[instance.instance.curves]
            let rgb = instance.instance.material.flatMap { scene.materials.indices.contains($0) ? scene.materials[$0].baseColor.value : nil }
                ?? defaultLineColor
            let ink = SIMD4(rgb, 1)
            let clip = instance.worldTransform.transformedPoints(curves.points).map { c0 * $0.x + c1 * $0.y + c2 * $0.z + c3 }
            for (a, b) in curves.segments() { framebuffer.drawLine(clip[a], clip[b], ink: ink) }
        }
    }

    /// Distance from `center` to the farthest finite curve point.
    static func farthestPoint(_ placed: [PlacedCurves], _ curves: [Curves], from center: SIMD3<Double>) -> Double {
        let c = SIMD3<Float>(Float(center.x), Float(center.y), Float(center.z))
        var farthest: Float = 0
        for instance in placed {
            for p in instance.worldTransform.transformedPoints(curves[instance.instance.curves].points) {
                let d = p - c
                let squared = (d * d).sum()
                if squared.isFinite { farthest = max(farthest, squared) }
            }
        }
        return Double(farthest.squareRoot())
    }

    /// Distance from `center` to the farthest finite vertex: the radius of the bounding sphere the
    /// camera frames.
    static func farthestPoint(_ placed: [PlacedMesh], _ shapes: [DrawMesh?], from center: SIMD3<Double>) -> Double {
        let c = SIMD3<Float>(Float(center.x), Float(center.y), Float(center.z))
        var farthest: Float = 0
        for instance in placed {
            guard let shape = shapes[instance.instance.mesh] else { continue }
            for p in instance.worldTransform.transformedPoints(shape.positions) {
                let d = p - c
                let squared = (d * d).sum()
                if squared.isFinite { farthest = max(farthest, squared) }
            }
        }
        return Double(farthest.squareRoot())
    }

    static func isTransparent(_ material: Material) -> Bool {
        material.opacity.value < 1 || material.opacity.texture != nil
    }

    /// Decodes every base colour texture once; a missing or unreadable one leaves its material in
    /// its constant colour, with a warning, never black.
    private static func loadTextures(_ scene: Scene, options: RenderOptions, diagnostics: inout [Diagnostic]) -> [Int: TextureSampler] {
        var decoded: [Int: RGBAImage?] = [:]
        var samplers: [Int: TextureSampler] = [:]
        for (index, material) in scene.materials.enumerated() {
            guard let reference = material.baseColor.texture, scene.textures.indices.contains(reference.texture) else { continue }
            let texture = scene.textures[reference.texture]
            if decoded[reference.texture] == nil {
                var image: RGBAImage?
                if let bytes = options.textureBytes(texture) {
                    do throws(AssetError) { image = try ImageDecoder.decode(bytes) } catch {
                        diagnostics.append(.warning("texture \(texture.authoredPath) could not be decoded (\(error.message)); material \(material.name) renders in its constant colour"))
                    }
                } else {
                    diagnostics.append(.warning("texture \(texture.authoredPath) is missing; material \(material.name) renders in its constant colour"))
                }
                decoded[reference.texture] = .some(image)
            }
            if let image = decoded[reference.texture] ?? nil {
                samplers[index] = TextureSampler(image: image, wrapS: texture.wrapS, wrapT: texture.wrapT, isColor: true)
            }
        }
        return samplers
    }
}

import AssetCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        try render(scene, options: options, defersShading: true)
    }

    /// `render`, with opaque fragments shaded as they are drawn when `defersShading` is off: the
    /// picture is the same (`TriangleRasterizer+Deferred`), which the tests hold it to.
    static func render(_ scene: Scene, options: RenderOptions, defersShading: Bool) throws(AssetError) -> RenderResult {
        let size = min(max(options.size, 1), maxSize)
        let grid = grid(size: size, supersample: options.supersample)
        var diagnostics: [Diagnostic] = []
        if grid < min(max(options.supersample, 1), maxSupersample) {
            diagnostics.append(.warning("supersampling lowered from \(options.supersample) to \(grid): a \(size)-pixel image may hold at most \(maxSamples) samples"))
        }
        let budget = ReadBudget(options.limits)
        let here = SourceLocation(file: options.source)
        try budget.spend(bytes: size * size * grid * grid * bytesPerSample + 2 * TriangleRasterizer.deferredBytes(width: size, height: size, samples: grid * grid),
                         for: "a \(size)-pixel image at \(grid)x\(grid) samples", at: here)
        let triangles = try budget.spendInstancedTriangles(of: scene, for: "drawing the scene", at: here)
        try checkDrawingBudget(triangles, limits: options.limits, at: here)
        let bounds = scene.worldBounds
        let placed = PlacementFraming.distinct(scene.placedMeshes())
        // One unwelded copy per mesh, however many instances place it.
        var shapes = [DrawMesh?](repeating: nil, count: scene.meshes.count)
        for p in placed where shapes[p.instance.mesh] == nil { shapes[p.instance.mesh] = DrawMesh(mesh: scene.meshes[p.instance.mesh]) }
        let placedCurves = scene.placedCurves()
        let placedSplats = scene.placedSplats()
        try budget.spend(work: placedSplats.reduce(0) { $0 + scene.splats[$1.instance.splats].count }, for: "drawing the splats", at: here)
        let radius = bounds.isEmpty ? nil : max(PlacementFraming.farthestPoint(placed, shapes, from: bounds.center),
                                                farthestPoint(placedCurves, scene.curves, from: bounds.center),
                                                farthestExtent(placedSplats, scene.splats, from: bounds.center))
        let shadow = options.shadow && !placed.isEmpty
            ? radius.flatMap { GroundShadow(placed: placed, shapes: shapes, bounds: bounds, radius: Float($0), upAxis: scene.metadata.upAxis) } : nil
        // The picture holds the shadow where it can be seen as well as the model: a shadow cut by
        // the picture's border reads as a defect (8 of 36 served views were).
        let footprint = (shadow?.footprint() ?? []).map { SIMD3<Double>($0) }
        // An explicit camera keeps where it looks; its near and far planes still come from the
        // bounding sphere, so no part of the model is cut off whatever planes it came with.
        let camera = if let given = options.camera {
            radius.map { given.clipping(around: bounds.center, radius: $0) } ?? given
        } else {
            RenderCamera.framing(bounds.isEmpty ? Bounds3(min: [-1, -1, -1], max: [1, 1, 1]) : bounds,
                                 radius: radius, view: options.view, upAxis: scene.metadata.upAxis, pixels: size, holding: footprint)
        }
        guard !bounds.isEmpty else {
            return RenderResult(image: Framebuffer(width: size, height: size, grid: grid).resolve(background: options.background), camera: camera,
                                diagnostics: diagnostics, bounds: bounds)
        }
        let viewProjection = camera.projection(aspect: 1) * camera.view
        var opaquePass = BandedRasterizer(width: size, height: size, grid: grid, meshes: placed.count,
                                          split: PlacementFraming.balancedSplit(placed, shapes, viewProjection: viewProjection, height: size))
        let vp = (0..<16).map { Float(viewProjection.columnMajorElements[$0]) }
        let c0 = SIMD4(vp[0], vp[1], vp[2], vp[3]), c1 = SIMD4(vp[4], vp[5], vp[6], vp[7])
        let c2 = SIMD4(vp[8], vp[9], vp[10], vp[11]), c3 = SIMD4(vp[12], vp[13], vp[14], vp[15])
        let images = TextureImages(scene, bytes: options.textureBytes, diagnostics: &diagnostics)
        let eye = SIMD3<Float>(Float(camera.position.x), Float(camera.position.y), Float(camera.position.z))
        // Only surfaces are lit: a scene of splats alone does not prefilter the studio.
        let setup = placed.isEmpty ? nil : lightingSetup(options, upAxis: scene.metadata.upAxis)
        // Blended triangles wait until every opaque one is drawn, then go back to front.
        var blended: [SurfaceShader] = []
        @inline(__always) func clip(_ p: SIMD3<Float>) -> SIMD4<Float> { c0 * p.x + c1 * p.y + c2 * p.z + c3 }
        var blendOrder: [(distance: Float, draw: Int32, triangle: Int32)] = []
        var retained = 0
        let lastDraw = placed.count - 1
        for (drawIndex, placed) in placed.enumerated() {
            let source = scene.meshes[placed.instance.mesh]
            guard var shape = shapes[placed.instance.mesh] else { continue }
            // The instance's materials, numbered so the shader's table holds only these.
            let numbered = shape.placed(source, instance: placed.instance, world: placed.worldTransform, materialCount: scene.materials.count)
            var mesh = numbered.mesh
            let used = numbered.used
            let inputs = used.map { MaterialInputs(scene.materials[$0], mesh: source, images: images) }
            // Tangents are made once per mesh, the first time a material on it has a normal map;
            // only they need placing again, not the whole mesh.
            if let normalMap = inputs.lazy.compactMap(\.normal).first, shape.tangents == nil {
                shape.prepareTangents(set: normalMap.set)
                shapes[placed.instance.mesh] = shape
                mesh.tangents = shape.placedTangents(world: placed.worldTransform)
            }
            guard let setup else { break }
            let shader = SurfaceShader(mesh: mesh, inputs: inputs, eye: eye, setup: setup)
            let drawn = Int32(opaquePass.deferred.shaders.count)
            opaquePass.deferred.shaders.append(shader)
            // A MASK material may discard a fragment, so it is shaded as it is drawn.
            let masks = inputs.map { $0.alphaMode == .mask }
            let screen = SplitReduction.map(mesh.positions) { p in TriangleRasterizer.projected(c0 * p.x + c1 * p.y + c2 * p.z + c3, width: size, height: size) }
            let positions = mesh.positions, indices = mesh.indices
            let blends = inputs.map { $0.alphaMode == .blend }
            var blendedHere = false
            if blends.contains(true) {
                for t in 0..<mesh.triangleCount {
                    let m = Int(mesh.triangleMaterials[t])
                    guard m >= 0 && blends[m] else { continue }
                    let a = Int(mesh.indices[3 * t]), b = Int(mesh.indices[3 * t + 1]), c = Int(mesh.indices[3 * t + 2])
                    let centre = (mesh.positions[a] + mesh.positions[b] + mesh.positions[c]) / 3 - eye
                    blendOrder.append(((centre * centre).sum(), Int32(blended.count), Int32(t)))
                    blendedHere = true
                }
            }
            opaquePass.draw(triangles: mesh.triangleCount, thenShade: drawIndex == lastDraw) { rasterizer, t in
                let m = Int(mesh.triangleMaterials[t])
                if m >= 0 && blends[m] { return }
                let a = Int(indices[3 * t]), b = Int(indices[3 * t + 1]), c = Int(indices[3 * t + 2])
                let deferredAs = !defersShading || (m >= 0 && masks[m]) ? nil : drawn
                let (s0, s1, s2) = (screen[a], screen[b], screen[c])
                if s0.x.isNaN || s1.x.isNaN || s2.x.isNaN {
                    // A corner behind the near plane: clipped in clip space.
                    rasterizer.draw(clip(positions[a]), clip(positions[b]), clip(positions[c]), triangle: t, shader: shader, opaque: true, deferredAs: deferredAs)
                } else {
                    rasterizer.draw(projected: s0, s1, s2, triangle: t, shader: shader, opaque: true, deferredAs: deferredAs)
                }
            }
            if blendedHere { blended.append(shader) }
            // Deferred fragments keep their meshes' placed copies alive: past a bound, they are
            // shaded and let go (many placements of one mesh would otherwise hold a copy each).
            retained += mesh.byteEstimate
            if retained > Self.maxRetainedBytes {
                opaquePass.shadeDeferred()
                opaquePass.deferred.shaders.removeAll()
                retained = 0
            }
        }
        opaquePass.shadeDeferred()
        // With nothing to draw over the opaque pass, each band is resolved where it lies: joining
        // the bands first would hold the picture's samples twice.
        if blendOrder.isEmpty && shadow == nil && placedSplats.isEmpty && placedCurves.isEmpty {
            return RenderResult(image: opaquePass.resolve(background: options.background), camera: camera, diagnostics: diagnostics, bounds: bounds)
        }
        // Blended triangles, the shadow, splats and lines go over the whole picture, on this thread.
        var rasterizer = TriangleRasterizer(framebuffer: opaquePass.merged())
        // Back to front by the distance of each triangle's centre from the eye (the painter's
        // order; exact for layers that do not cross), ties in drawing order.
        blendOrder.sort { $0.distance != $1.distance ? $0.distance > $1.distance : ($0.draw, $0.triangle) < ($1.draw, $1.triangle) }
        for entry in blendOrder {
            let shader = blended[Int(entry.draw)]
            let t = Int(entry.triangle)
            let mesh = shader.mesh
            rasterizer.draw(clip(mesh.positions[Int(mesh.indices[3 * t])]), clip(mesh.positions[Int(mesh.indices[3 * t + 1])]),
                            clip(mesh.positions[Int(mesh.indices[3 * t + 2])]), triangle: t, shader: shader, opaque: false)
        }
        shadow?.composite(into: &rasterizer.framebuffer, camera: camera)
        SplatRasterizer(camera: camera, width: size, height: size).draw(placedSplats, of: scene, into: &rasterizer.framebuffer)
        drawCurves(placedCurves, of: scene, vp: vp, into: &rasterizer.framebuffer)
        return RenderResult(image: rasterizer.framebuffer.resolve(background: options.background), camera: camera, diagnostics: diagnostics,
                            bounds: bounds)
    }

    /// The placed meshes the opaque pass keeps for its deferred fragments, at most.
    static let maxRetainedBytes = 256 << 20

    /// The environment and its frame, exposure and tone mapping for one render.
    static func lightingSetup(_ options: RenderOptions, upAxis: UpAxis) -> LightingSetup {
        // World -> Y-up (undoing the file's up axis), then the environment turned the other way.
        let toYUp = RenderCamera.fromYUp(upAxis).inverse ?? .identity
        let turn = Matrix4x4.rotation(axis: [0, 1, 0], degrees: -options.environmentRotation)
        let m = turn * toYUp
        func column(_ axis: SIMD3<Double>) -> SIMD3<Float> {
            let d = m.transformDirection(axis)
            return SIMD3(Float(d.x), Float(d.y), Float(d.z))
        }
        let exposure = Float(pow(2, options.exposure.isFinite ? min(max(options.exposure, -20), 20) : 0))
        // The headlight needs no environment: the studio is prefiltered only when it lights.
        let environment = options.lighting == .headlight ? PrefilteredEnvironment.none : options.environment ?? StudioEnvironment.prefiltered
        return LightingSetup(lighting: options.lighting, environment: environment,
                             toEnvironment: (column([1, 0, 0]), column([0, 1, 0]), column([0, 0, 1])),
                             exposure: exposure, toneMapping: options.effectiveToneMapping,
                             table: options.lighting == .headlight ? BRDFTable.unused : BRDFTable.shared)
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

    /// Distance from `center` to the farthest point of any splat's 3-sigma ellipsoid (its centre
    /// plus three times its largest scale, times the placement's largest stretch).
    static func farthestExtent(_ placed: [PlacedSplats], _ sets: [SplatSet], from center: SIMD3<Double>) -> Double {
        var farthest = 0.0
        for instance in placed {
            let set = sets[instance.instance.splats], m = instance.worldTransform
            let stretch = [m.c0, m.c1, m.c2].map { Vector.length(SIMD3($0.x, $0.y, $0.z)) }.max() ?? 1
            let reach = set.withBuffers { b in
                nonisolated(unsafe) let b = b
                return SplitReduction.reduce(count: set.count, { range in
                    var farthest = 0.0
                    for i in range {
                        let c = m.transformPoint(b.center(i).double)
                        let reach = Vector.length(c - center) + Double(SplatSet.extentSigmas * b.scale(i).max()) * stretch
                        if reach.isFinite { farthest = max(farthest, reach) }
                    }
                    return farthest
                }, max)
            }
            farthest = max(farthest, reach)
        }
        return farthest
    }

    /// Refuses, before framing or drawing, a scene that places more triangles than a thumbnail
    /// draws in about ten seconds here (`ReadLimits.maxPlacedTriangles`): counted over every
    /// placement the file asks for, duplicates included, since that is what the file claims.
    static func checkDrawingBudget(_ triangles: Int, limits: ReadLimits, at here: SourceLocation) throws(AssetError) {
        guard triangles > limits.maxPlacedTriangles else { return }
        throw AssetError(.limitExceeded("drawing the scene places \(triangles) triangles once instances are placed, more than the \(limits.maxPlacedTriangles) a picture draws (raise it with --max-drawn-triangles)"),
                         at: here)
    }
}

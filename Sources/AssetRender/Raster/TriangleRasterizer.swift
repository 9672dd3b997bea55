/// A vertex after projection: sample-space position, NDC depth, 1/w for perspective-correct
/// interpolation, and its barycentric position in the original triangle (clipping makes new ones).
struct ScreenVertex {
    var x: Float
    var y: Float
    var z: Float
    var invW: Float
    var barycentric: SIMD3<Float>
}

/// What the rasterizer asks of a shader: the colour of one pixel of one triangle, given the
/// barycentric position (in the original triangle, perspective-correct) at that pixel and which
/// side of the triangle is seen; nil discards the fragment (a MASK cut-out).
protocol FragmentShader {
    func shade(triangle: Int, barycentric: SIMD3<Float>, frontFacing: Bool) -> SIMD4<Float>?
    /// Whether the triangle's back is not drawn (a single-sided material).
    func cullsBackFaces(triangle: Int) -> Bool
    /// Whether counter-clockwise on screen is the back (left-handed mesh, mirroring transform).
    var windingFlipped: Bool { get }
}

/// Clips triangles against the near plane and rasterizes them into the framebuffer with coverage
/// and depth tested per sample and colour shaded once per pixel (as MSAA does). Edges follow the
/// top-left rule, so triangles sharing an edge never both cover a sample on it.
struct TriangleRasterizer {
    /// The rows `rowOffset ..< rowOffset + framebuffer.height` of a picture `imageHeight` high
    /// (a band of it, when the picture is drawn on several cores; all of it otherwise).
    var framebuffer: Framebuffer
    let rowOffset: Int
    let imageHeight: Int
    /// Sample indices that pass in the current pixel, and which sample of the pixel each is; kept
    /// between triangles so drawing allocates nothing.
    private var passing: [Int], passingSample: [Int]
    /// `framebuffer.offset(k)` for each sample of a pixel, made once: an integer division and two
    /// float ones a sample were a tenth of a million-triangle thumbnail.
    let offsets: [SIMD2<Float>]
    /// The shaders deferred fragments name, shared by every band of the pass; nil when nothing is
    /// deferred (the blended pass, shadows).
    var deferred: DeferredShaders?
    /// Fragments recorded and not yet shaded, and for each sample the one it holds (-1: its colour
    /// is final); empty until the first is recorded.
    var fragments: [Fragment] = []
    var fragmentOf: [Int32] = []

    init(framebuffer: Framebuffer, rowOffset: Int = 0, imageHeight: Int? = nil) {
        self.framebuffer = framebuffer
        self.rowOffset = rowOffset
        let imageHeight = imageHeight ?? framebuffer.height
        self.imageHeight = imageHeight
        passing = [Int](repeating: 0, count: framebuffer.samplesPerPixel)
        passingSample = passing
        offsets = (0..<framebuffer.samplesPerPixel).map(framebuffer.offset)
    }

    /// Draws one triangle given in clip space.
    /// `deferredAs`, for an opaque triangle whose material cannot discard a fragment, is its
    /// shader's place in `deferred`: its fragments are then only recorded, and shaded once the
    /// opaque pass is over (`shadeDeferred`), when only the nearest is left.
    mutating func draw<S: FragmentShader>(_ c0: SIMD4<Float>, _ c1: SIMD4<Float>, _ c2: SIMD4<Float>, triangle: Int,
                                          shader: S, opaque: Bool, deferredAs: Int32? = nil) {
        let inside0 = c0.z >= -c0.w, inside1 = c1.z >= -c1.w, inside2 = c2.z >= -c2.w
        if !inside0 && !inside1 && !inside2 { return }
        // Quick reject when all three are past the same side of the view volume.
        if (c0.x > c0.w && c1.x > c1.w && c2.x > c2.w) || (c0.x < -c0.w && c1.x < -c1.w && c2.x < -c2.w)
            || (c0.y > c0.w && c1.y > c1.w && c2.y > c2.w) || (c0.y < -c0.w && c1.y < -c1.w && c2.y < -c2.w) { return }
        if inside0 && inside1 && inside2 {
            // SIMD3(...) rather than array literals, which built an array per corner.
            raster(project(c0, SIMD3(1, 0, 0)), project(c1, SIMD3(0, 1, 0)), project(c2, SIMD3(0, 0, 1)), triangle: triangle, shader: shader,
                   opaque: opaque, deferredAs: deferredAs)
            return
        }
        // Sutherland-Hodgman against the near plane z = -w, carrying barycentrics along.
        let corners: [(SIMD4<Float>, SIMD3<Float>)] = [(c0, SIMD3(1, 0, 0)), (c1, SIMD3(0, 1, 0)), (c2, SIMD3(0, 0, 1))]
        var polygon: [(SIMD4<Float>, SIMD3<Float>)] = []
        for k in 0..<3 {
            let (a, ba) = corners[k], (b, bb) = corners[(k + 1) % 3]
            let da = a.z + a.w, db = b.z + b.w
            if da >= 0 { polygon.append((a, ba)) }
            if (da >= 0) != (db >= 0) {
                let t = da / (da - db)
                polygon.append((a + (b - a) * t, ba + (bb - ba) * t))
            }
        }
        guard polygon.count >= 3 else { return }
        let projected = polygon.map { project($0.0, $0.1) }
        for k in 1..<(projected.count - 1) {
            raster(projected[0], projected[k], projected[k + 1], triangle: triangle, shader: shader, opaque: opaque, deferredAs: deferredAs)
        }
    }

    private func project(_ c: SIMD4<Float>, _ barycentric: SIMD3<Float>) -> ScreenVertex {
        let s = Self.screenPosition(c, width: framebuffer.width, height: imageHeight)
        return ScreenVertex(x: s.x, y: s.y, z: s.z, invW: s.w, barycentric: barycentric)
    }

    /// A clip-space point in sample space: x and y in pixels of a picture `width` x `height`,
    /// NDC depth, and 1/w.
    @inline(__always) static func screenPosition(_ c: SIMD4<Float>, width: Int, height: Int) -> SIMD4<Float> {
        let invW = 1 / c.w
        return SIMD4((c.x * invW + 1) * 0.5 * Float(width), (1 - c.y * invW) * 0.5 * Float(height), c.z * invW, invW)
    }

    /// A mesh point's screen position for `draw(projected:)`, made once a point rather than once a
    /// corner in every band (a dense mesh's point is a corner of six triangles, offered to two
    /// bands); x is NaN for a point behind the near plane, whose triangles are clipped instead.
    @inline(__always) static func projected(_ c: SIMD4<Float>, width: Int, height: Int) -> SIMD4<Float> {
        c.z >= -c.w ? screenPosition(c, width: width, height: height) : SIMD4(.nan, 0, 0, 0)
    }

    /// Draws one triangle whose corners `projected` made, none of them behind the near plane (no x
    /// is NaN): the same samples and depths as `draw` of their clip positions, without projecting
    /// them again. The triangle's box rejects it for a band it does not reach.
    mutating func draw<S: FragmentShader>(projected s0: SIMD4<Float>, _ s1: SIMD4<Float>, _ s2: SIMD4<Float>, triangle: Int,
                                          shader: S, opaque: Bool, deferredAs: Int32? = nil) {
        raster(ScreenVertex(x: s0.x, y: s0.y, z: s0.z, invW: s0.w, barycentric: SIMD3(1, 0, 0)),
               ScreenVertex(x: s1.x, y: s1.y, z: s1.z, invW: s1.w, barycentric: SIMD3(0, 1, 0)),
               ScreenVertex(x: s2.x, y: s2.y, z: s2.z, invW: s2.w, barycentric: SIMD3(0, 0, 1)),
               triangle: triangle, shader: shader, opaque: opaque, deferredAs: deferredAs)
    }

    /// Whether `low ... high` (in pixels) may hold a sample position of the pixels `first ..< end`.
    @inline(__always) static func holdsSample(_ low: Float, _ high: Float, from first: Int, to end: Int, grid: Int) -> Bool {
        let g = Float(grid)
        let lo = g * max(low, Float(first)) - 0.5 - 1e-3, hi = g * min(high, Float(end)) - 0.5 + 1e-3
        guard hi >= 0 else { return false }
        // Both are within 0 ... grid x 8192 here, where truncation is the floor.
        let first = lo <= 0 ? 0 : Int(lo) + (Float(Int(lo)) < lo ? 1 : 0)
        return first <= Int(hi)
    }

    @inline(__always) fileprivate static func edge(_ a: ScreenVertex, _ b: ScreenVertex, _ x: Float, _ y: Float) -> Float {
        (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)
    }

    /// An edge's function, evaluated from the same end whichever way a triangle walks it: rounding
    /// then gives the two triangles sharing the edge exactly opposite values at every sample, so
    /// the top-left rule hands each sample on it to exactly one of them. (Evaluated from either
    /// end, both could round below zero and leave a crack of uncovered samples along a diagonal.)
    struct Edge {
        var from: ScreenVertex, to: ScreenVertex, sign: Float

        init(_ a: ScreenVertex, _ b: ScreenVertex) {
            let forward = a.x < b.x || (a.x == b.x && a.y < b.y)
            (from, to, sign) = forward ? (a, b, 1) : (b, a, -1)
        }

        @inline(__always) func callAsFunction(_ x: Float, _ y: Float) -> Float {
            sign * TriangleRasterizer.edge(from, to, x, y)
        }
    }

    /// Top-left rule, with y down: an edge owns samples exactly on it when it is a top edge
    /// (horizontal, the triangle below it) or a left edge (going up the screen).
    @inline(__always) private static func owns(_ a: ScreenVertex, _ b: ScreenVertex) -> Bool {
        let dy = b.y - a.y, dx = b.x - a.x
        return (dy == 0 && dx < 0) || dy < 0
    }

    private mutating func raster<S: FragmentShader>(_ v0: ScreenVertex, _ v1In: ScreenVertex, _ v2In: ScreenVertex,
                                                    triangle: Int, shader: S, opaque: Bool, deferredAs: Int32?) {
        var v1 = v1In, v2 = v2In
        let width = framebuffer.width, height = framebuffer.height
        // The box of pixels, floor rounded: past the picture (or the band) on a side it is empty,
        // and within it every end is at least 0, where truncation is the floor (`rounded(.down)`
        // was a libm call, four a triangle, a tenth of a million-triangle thumbnail). Tested before
        // the area and the material's culling, which most triangles of a dense mesh never need.
        let (left, right) = (min(v0.x, v1.x, v2.x), max(v0.x, v1.x, v2.x)), (top, bottom) = (min(v0.y, v1.y, v2.y), max(v0.y, v1.y, v2.y))
        guard right >= 0, left < Float(width), bottom >= Float(rowOffset), top < Float(rowOffset + height) else { return }
        let minX = Int(max(left, 0)), maxX = Int(min(right, Float(width - 1)))
        let minY = Int(max(top, Float(rowOffset))), maxY = Int(min(bottom, Float(rowOffset + height - 1)))
        guard minX <= maxX, minY <= maxY else { return }
        // Most triangles of a dense mesh at thumbnail size fall between the sample rows or columns:
        // passed over before their edges are set up. Sample s of a row (or column) sits at
        // (s + 0.5) / grid; a thousandth of a sample of margin keeps rounding on the safe side.
        guard Self.holdsSample(left, right, from: 0, to: width, grid: framebuffer.grid),
              Self.holdsSample(top, bottom, from: rowOffset, to: rowOffset + height, grid: framebuffer.grid) else { return }
        var area = Self.edge(v0, v1, v2.x, v2.y)
        guard area != 0, area.isFinite else { return }
        // With y down, a triangle counter-clockwise in clip space has a negative area here.
        let frontFacing = (area < 0) != shader.windingFlipped
        if !frontFacing && shader.cullsBackFaces(triangle: triangle) { return }
        if area < 0 { swap(&v1, &v2); area = -area }
        let own0 = Self.owns(v1, v2), own1 = Self.owns(v2, v0), own2 = Self.owns(v0, v1)
        let e0 = Edge(v1, v2), e1 = Edge(v2, v0), e2 = Edge(v0, v1)
        let n = framebuffer.samplesPerPixel
        let invArea = 1 / area
        if n == 4 {
            rasterFourSamples(v0, v1, v2, edges: (e0, e1, e2), owns: (own0, own1, own2), columns: minX...maxX, rows: minY...maxY,
                              invArea: invArea, triangle: triangle, frontFacing: frontFacing, shader: shader, opaque: opaque, deferredAs: deferredAs)
            return
        }
        for py in minY...maxY {
            for px in minX...maxX {
                var count = 0
                var first = SIMD3<Float>.zero
                for k in 0..<n {
                    let o = offsets[k]
                    let sx = Float(px) + o.x, sy = Float(py) + o.y
                    let w0 = e0(sx, sy), w1 = e1(sx, sy), w2 = e2(sx, sy)
                    guard (w0 > 0 || (w0 == 0 && own0)) && (w1 > 0 || (w1 == 0 && own1)) && (w2 > 0 || (w2 == 0 && own2)) else { continue }
                    let b = SIMD3(w0, w1, w2) * invArea
                    let z = b.x * v0.z + b.y * v1.z + b.z * v2.z
                    let index = ((py - rowOffset) * width + px) * n + k
                    guard z >= -1, z <= 1, z < framebuffer.depth[index] else { continue }
                    if count == 0 { first = b }
                    passing[count] = index
                    passingSample[count] = k
                    count += 1
                }
                guard count > 0 else { continue }
                guard let (color, fragment) = fragment(at: first, v0, v1, v2, triangle: triangle, frontFacing: frontFacing,
                                                       shader: shader, deferredAs: deferredAs) else { continue }
                for k in 0..<count {
                    let index = passing[k]
                    if opaque {
                        framebuffer.color[index] = color
                        if !fragmentOf.isEmpty { fragmentOf[index] = fragment }
                        let o = offsets[passingSample[k]]
                        let sx = Float(px) + o.x, sy = Float(py) + o.y
                        let b = SIMD3(e0(sx, sy), e1(sx, sy), e2(sx, sy)) * invArea
                        framebuffer.depth[index] = b.x * v0.z + b.y * v1.z + b.z * v2.z
                    } else {
                        // "Over", premultiplied; the renderer hands blended triangles over back to front.
                        framebuffer.color[index] = color + framebuffer.color[index] * (1 - color.w)
                    }
                }
            }
        }
    }
}

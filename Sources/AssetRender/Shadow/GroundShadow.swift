import AssetCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A soft contact shadow on the ground plane under the model, as model-viewer's `shadow-intensity`
/// draws one: the model seen from straight above into a small map, each texel as dark as the
/// lowest surface over it is close to the ground, blurred, then laid under the picture wherever a
/// camera ray meets the ground and no surface is in front. Where the background is transparent
/// the shadow is black with alpha, so the picture composites onto any page.
struct GroundShadow {
    static let resolution = 128
    /// Darkness right under a surface touching the ground.
    static let intensity: Float = 0.45

    let up: SIMD3<Float>
    let axisA: SIMD3<Float>
    let axisB: SIMD3<Float>
    let ground: Float
    /// The map's corner on the two ground axes, and its texels per unit.
    let origin: SIMD2<Float>
    let scale: Float
    var darkness: [Float]

    /// Nil for a model with no extent (every point in one place, or none finite): the map's
    /// scale would be infinite and the blur's radius not a number.
    init?(placed: [PlacedMesh], shapes: [DrawMesh?], bounds: Bounds3, radius: Float, upAxis: UpAxis) {
        guard radius > 0, radius.isFinite else { return nil }
        switch upAxis {
        case .y: (up, axisA, axisB) = ([0, 1, 0], [1, 0, 0], [0, 0, 1])
        case .z: (up, axisA, axisB) = ([0, 0, 1], [1, 0, 0], [0, 1, 0])
        case .x: (up, axisA, axisB) = ([1, 0, 0], [0, 1, 0], [0, 0, 1])
        }
        let lo = SIMD3<Float>(Float(bounds.min.x), Float(bounds.min.y), Float(bounds.min.z))
        let hi = SIMD3<Float>(Float(bounds.max.x), Float(bounds.max.y), Float(bounds.max.z))
        ground = (lo * up).sum()
        let height = max((hi * up).sum() - ground, radius * 1e-3)
        let centre = SIMD2(((lo + hi) * 0.5 * axisA).sum(), ((lo + hi) * 0.5 * axisB).sum())
        // The footprint plus room for the blur on every side.
        let half = max(((hi - lo) * axisA).sum(), ((hi - lo) * axisB).sum()) * 0.5 + radius * 0.35
        origin = centre - SIMD2(repeating: half)
        let n = Self.resolution
        scale = Float(n) / (2 * half)
        // Surfaces above this height cast nothing: a contact shadow, not a projected one.
        let reach = max(height * 0.5, radius * 0.25)
        var map = [Float](repeating: 0, count: n * n)
        for instance in placed {
            guard let shape = shapes[instance.instance.mesh] else { continue }
            let points = instance.worldTransform.transformedPoints(shape.positions)
            var flat = [SIMD2<Float>](repeating: .zero, count: points.count)
            var lift = [Float](repeating: 0, count: points.count)
            for (i, p) in points.enumerated() {
                flat[i] = (SIMD2((p * axisA).sum(), (p * axisB).sum()) - origin) * scale
                lift[i] = (p * up).sum() - ground
            }
            for t in 0..<(shape.indices.count / 3) {
                let a = Int(shape.indices[3 * t]), b = Int(shape.indices[3 * t + 1]), c = Int(shape.indices[3 * t + 2])
                let low = min(lift[a], lift[b], lift[c])
                guard low < reach, low.isFinite else { continue }
                let shade = 1 - max(low, 0) / reach
                Self.fill(flat[a], flat[b], flat[c], value: shade * shade, into: &map, size: n)
            }
        }
        darkness = Self.blurred(map, size: n, radius: max(Int((radius * 0.12 * scale).rounded()), 1))
    }

    /// Keeps the larger value in every texel whose centre lies inside the triangle (either winding),
    /// and in the texel under each corner, so triangles smaller than a texel still cast.
    static func fill(_ p0: SIMD2<Float>, _ p1: SIMD2<Float>, _ p2: SIMD2<Float>, value: Float, into map: inout [Float], size n: Int) {
        for p in [p0, p1, p2] {
            let x = Int(p.x.rounded(.down)), y = Int(p.y.rounded(.down))
            if x >= 0, y >= 0, x < n, y < n { map[y * n + x] = max(map[y * n + x], value) }
        }
        let area = (p1.x - p0.x) * (p2.y - p0.y) - (p1.y - p0.y) * (p2.x - p0.x)
        guard area != 0, area.isFinite else { return }
        let minX = max(Int(min(p0.x, p1.x, p2.x).rounded(.down)), 0), maxX = min(Int(max(p0.x, p1.x, p2.x).rounded(.up)), n - 1)
        let minY = max(Int(min(p0.y, p1.y, p2.y).rounded(.down)), 0), maxY = min(Int(max(p0.y, p1.y, p2.y).rounded(.up)), n - 1)
        guard minX <= maxX, minY <= maxY else { return }
        let sign: Float = area > 0 ? 1 : -1
        for y in minY...maxY {
            for x in minX...maxX {
                let px = Float(x) + 0.5, py = Float(y) + 0.5
                let w0 = ((p2.x - p1.x) * (py - p1.y) - (p2.y - p1.y) * (px - p1.x)) * sign
                let w1 = ((p0.x - p2.x) * (py - p2.y) - (p0.y - p2.y) * (px - p2.x)) * sign
                let w2 = ((p1.x - p0.x) * (py - p0.y) - (p1.y - p0.y) * (px - p0.x)) * sign
                if w0 >= 0, w1 >= 0, w2 >= 0 { map[y * n + x] = max(map[y * n + x], value) }
            }
        }
    }

    /// Three passes of a separable box blur: close to a Gaussian, in linear time.
    static func blurred(_ map: [Float], size n: Int, radius: Int) -> [Float] {
        var a = map, b = map
        let width = Float(2 * radius + 1)
        for _ in 0..<3 {
            for y in 0..<n {
                for x in 0..<n {
                    var sum: Float = 0
                    for k in -radius...radius { let xx = x + k; if xx >= 0 && xx < n { sum += a[y * n + xx] } }
                    b[y * n + x] = sum / width
                }
            }
            for y in 0..<n {
                for x in 0..<n {
                    var sum: Float = 0
                    for k in -radius...radius { let yy = y + k; if yy >= 0 && yy < n { sum += b[yy * n + x] } }
                    a[y * n + x] = sum / width
                }
            }
        }
        return a
    }

    /// The corners, on the ground, of the rectangle where the shadow can be seen (darkness enough
    /// to move a pixel by half a step of 8-bit alpha), for framing: the picture holds them as it
    /// holds the model. The browser's view (ViewerScript's `shadowFootprint`) makes the same map
    /// from the same vertices, so its first frame is the thumbnail's. Empty when nothing casts.
    func footprint() -> [SIMD3<Float>] {
        let n = Self.resolution
        let visible = 0.5 / 255 / Self.intensity
        var lo = SIMD2<Int>(n, n), hi = SIMD2<Int>(-1, -1)
        for y in 0..<n {
            for x in 0..<n where darkness[y * n + x] > visible {
                lo = pointwiseMin(lo, SIMD2(x, y)); hi = pointwiseMax(hi, SIMD2(x, y))
            }
        }
        guard hi.x >= lo.x else { return [] }
        // Texel edges, one texel out for the bilinear lookup's reach.
        let a0 = origin.x + Float(lo.x - 1) / scale, a1 = origin.x + Float(hi.x + 2) / scale
        let b0 = origin.y + Float(lo.y - 1) / scale, b1 = origin.y + Float(hi.y + 2) / scale
        return [(a0, b0), (a1, b0), (a0, b1), (a1, b1)].map { a, b in up * ground + axisA * a + axisB * b }
    }

    /// Darkness at a ground point, bilinear; 0 off the map.
    func darkness(at p: SIMD3<Float>) -> Float {
        let n = Self.resolution
        let q = (SIMD2((p * axisA).sum(), (p * axisB).sum()) - origin) * scale - 0.5
        let x0f = q.x.rounded(.down), y0f = q.y.rounded(.down)
        let fx = q.x - x0f, fy = q.y - y0f
        let x0 = Int(x0f), y0 = Int(y0f)
        func at(_ x: Int, _ y: Int) -> Float { x >= 0 && y >= 0 && x < n && y < n ? darkness[y * n + x] : 0 }
        let top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * fx
        let bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * fx
        return top + (bottom - top) * fy
    }

    /// Lays the shadow under every sample no surface covered: black, premultiplied, behind
    /// whatever blended colour the sample already holds.
    func composite(into framebuffer: inout Framebuffer, camera: RenderCamera) {
        let eye = SIMD3<Float>(Float(camera.position.x), Float(camera.position.y), Float(camera.position.z))
        let height = (eye * up).sum() - ground
        guard height > 0 else { return }  // seen from below the ground: no shadow to see
        let f = Vector.normalize(camera.target - camera.position)
        var upVector = camera.up
        if Vector.length(Vector.cross(f, upVector)) < 1e-9 { upVector = abs(f.y) < 0.9 ? [0, 1, 0] : [0, 0, 1] }
        let s = Vector.normalize(Vector.cross(f, upVector))
        let u = Vector.cross(s, f)
        let tanHalf = Float(tan(camera.verticalFieldOfView * .pi / 360))
        let forward = SIMD3<Float>(Float(f.x), Float(f.y), Float(f.z))
        let right = SIMD3<Float>(Float(s.x), Float(s.y), Float(s.z)) * tanHalf
        let upward = SIMD3<Float>(Float(u.x), Float(u.y), Float(u.z)) * tanHalf
        let w = framebuffer.width, h = framebuffer.height, n = framebuffer.samplesPerPixel
        for py in 0..<h {
            for px in 0..<w {
                for k in 0..<n {
                    let index = (py * w + px) * n + k
                    guard framebuffer.depth[index] == .infinity else { continue }
                    let o = framebuffer.offset(k)
                    let x = (Float(px) + o.x) / Float(w) * 2 - 1, y = 1 - (Float(py) + o.y) / Float(h) * 2
                    let d = forward + right * x + upward * y
                    let down = (d * up).sum()
                    guard down < 0 else { continue }
                    let hit = eye + d * (height / -down)
                    let alpha = Self.intensity * min(darkness(at: hit), 1)
                    guard alpha > 0 else { continue }
                    let c = framebuffer.color[index]
                    framebuffer.color[index] = c + SIMD4(0, 0, 0, alpha) * (1 - c.w)
                }
            }
        }
    }
}

/// Draws line segments one pixel wide: clipped against the near plane, stepped one pixel at a
/// time along their longer screen axis, every sample of each pixel they cross depth-tested (NDC
/// depth is linear on screen, so it interpolates exactly). Lines are unlit and opaque, pulled a
/// hair towards the camera so a curve lying on a surface stays visible.
extension Framebuffer {
    static let lineDepthBias: Float = 1e-4

    mutating func drawLine(_ a: SIMD4<Float>, _ b: SIMD4<Float>, ink: SIMD4<Float>) {
        var p = a, q = b
        let dp = p.z + p.w, dq = q.z + q.w
        if dp < 0 && dq < 0 { return }
        if dp < 0 { p = p + (q - p) * (dp / (dp - dq)) }
        if dq < 0 { q = q + (p - q) * (dq / (dq - dp)) }
        guard p.w > 0, q.w > 0 else { return }
        guard let (s0, s1) = clippedToImage(screen(p), screen(q)) else { return }
        let dx = s1.x - s0.x, dy = s1.y - s0.y
        let steps = Int(max(abs(dx), abs(dy)).rounded(.up))
        let n = samplesPerPixel
        for step in 0...max(steps, 0) {
            let t = steps == 0 ? 0 : Float(step) / Float(steps)
            let x = Int((s0.x + dx * t).rounded(.down)), y = Int((s0.y + dy * t).rounded(.down))
            guard x >= 0, x < width, y >= 0, y < height else { continue }
            let z = s0.z + (s1.z - s0.z) * t - Self.lineDepthBias
            guard z >= -1, z <= 1 else { continue }
            let first = (y * width + x) * n
            for index in first..<(first + n) where z < depth[index] {
                depth[index] = z
                color[index] = ink
            }
        }
    }

    /// The part of a screen-space segment inside the image (Liang-Barsky), so a segment reaching far
    /// outside costs the pixels it crosses, not its length.
    private func clippedToImage(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> (SIMD3<Float>, SIMD3<Float>)? {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return nil }
        let d = b - a
        var low: Float = 0, high: Float = 1
        for (delta, distance) in [(-d.x, a.x), (d.x, Float(width) - a.x), (-d.y, a.y), (d.y, Float(height) - a.y)] {
            if delta == 0 {
                if distance < 0 { return nil }
                continue
            }
            let t = distance / delta
            if delta < 0 { low = max(low, t) } else { high = min(high, t) }
            if low > high { return nil }
        }
        return (a + d * low, a + d * high)
    }

    /// Pixel position and NDC depth of a clip-space point in front of the camera.
    private func screen(_ c: SIMD4<Float>) -> SIMD3<Float> {
        let invW = 1 / c.w
        return SIMD3((c.x * invW + 1) * 0.5 * Float(width), (1 - c.y * invW) * 0.5 * Float(height), c.z * invW)
    }
}

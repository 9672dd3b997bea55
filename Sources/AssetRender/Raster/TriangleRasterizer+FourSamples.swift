extension TriangleRasterizer {
    /// `raster`'s pixel loop for the default 2x2 supersampling: a pixel's four samples in SIMD
    /// lanes, each edge function, barycentric and depth computed in every lane by the very
    /// operations the scalar loop makes for one sample, so coverage, depth and the shaded
    /// barycentric are the same bit for bit. At thumbnail sizes a million-triangle mesh is mostly
    /// triangles smaller than a pixel, where the per-sample loop was a third of the picture's time.
    mutating func rasterFourSamples<S: FragmentShader>(_ v0: ScreenVertex, _ v1: ScreenVertex, _ v2: ScreenVertex,
                                                       edges: (Edge, Edge, Edge), owns: (Bool, Bool, Bool),
                                                       columns: ClosedRange<Int>, rows: ClosedRange<Int>, invArea: Float,
                                                       triangle: Int, frontFacing: Bool, shader: S, opaque: Bool, deferredAs: Int32?) {
        let ox = SIMD4(offsets[0].x, offsets[1].x, offsets[2].x, offsets[3].x)
        let oy = SIMD4(offsets[0].y, offsets[1].y, offsets[2].y, offsets[3].y)
        let width = framebuffer.width
        @inline(__always) func weight(_ e: Edge, _ sx: SIMD4<Float>, _ sy: SIMD4<Float>) -> SIMD4<Float> {
            // `Edge.callAsFunction`'s sign * ((b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)), lane by lane.
            let (a, b) = (e.from, e.to)
            return ((b.x - a.x) * (sy - a.y) - (b.y - a.y) * (sx - a.x)) * e.sign
        }
        @inline(__always) func inside(_ w: SIMD4<Float>, _ own: Bool) -> SIMDMask<SIMD4<Int32>> {
            own ? (w .>= 0) : (w .> 0)
        }
        let lower = SIMD4<Float>(repeating: -1), upper = SIMD4<Float>(repeating: 1)
        for py in rows {
            let sy = Float(py) + oy
            for px in columns {
                let sx = Float(px) + ox
                let w0 = weight(edges.0, sx, sy), w1 = weight(edges.1, sx, sy), w2 = weight(edges.2, sx, sy)
                let covered = inside(w0, owns.0) .& inside(w1, owns.1) .& inside(w2, owns.2)
                guard any(covered) else { continue }
                let b0 = w0 * invArea, b1 = w1 * invArea, b2 = w2 * invArea
                let z = b0 * v0.z + b1 * v1.z + b2 * v2.z
                let base = ((py - rowOffset) * width + px) * 4
                let depth = SIMD4(framebuffer.depth[base], framebuffer.depth[base + 1], framebuffer.depth[base + 2], framebuffer.depth[base + 3])
                let passes = covered .& (z .>= lower) .& (z .<= upper) .& (z .< depth)
                guard any(passes) else { continue }
                let k = passes[0] ? 0 : passes[1] ? 1 : passes[2] ? 2 : 3
                guard let (color, fragment) = fragment(at: SIMD3(b0[k], b1[k], b2[k]), v0, v1, v2, triangle: triangle, frontFacing: frontFacing,
                                                       shader: shader, deferredAs: deferredAs) else { continue }
                for lane in 0..<4 where passes[lane] {
                    if opaque {
                        framebuffer.color[base + lane] = color
                        framebuffer.depth[base + lane] = z[lane]
                        if !fragmentOf.isEmpty { fragmentOf[base + lane] = fragment }
                    } else {
                        framebuffer.color[base + lane] = color + framebuffer.color[base + lane] * (1 - color.w)
                    }
                }
            }
        }
    }
}

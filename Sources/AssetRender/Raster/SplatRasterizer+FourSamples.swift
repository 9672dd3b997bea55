import AssetCore
import AssetImage

extension SplatRasterizer {
    /// `blend`'s band for the default 2x2 supersampling: a pixel's four samples side by side in
    /// SIMD4 lanes (transmittance, red, green, blue, mesh depth), so one splat updates a pixel in a
    /// handful of vector operations, and a pixel whose samples are all opaque is skipped by one
    /// compare. The result is the scalar loop's: the splat is evaluated at the pixel's centre and
    /// each lane blends behind its own transmittance and in front of its own mesh depth.
    func blendFourSamples(_ band: Int, rows: Range<Int>, lists: (starts: [Int], members: [Int32]),
                          splats: UnsafeBufferPointer<Splat2D>, members: UnsafeBufferPointer<Int32>,
                          colours: UnsafeMutableBufferPointer<SIMD4<Float>>, depths: UnsafeBufferPointer<Float>) {
        let pixels = rows.count * width, firstPixel = rows.lowerBound * width
        var transmittance = [SIMD4<Float>](repeating: SIMD4(repeating: 1), count: pixels)
        var red = [SIMD4<Float>](repeating: .zero, count: pixels)
        var green = red, blue = red
        var depth = [SIMD4<Float>](repeating: .zero, count: pixels)
        depth.withUnsafeMutableBufferPointer { depth in
            for p in 0..<pixels {
                let s = (firstPixel + p) * 4
                depth[p] = SIMD4(depths[s], depths[s + 1], depths[s + 2], depths[s + 3])
            }
        }
        let floor = SIMD4<Float>(repeating: Self.minTransmittance)
        var blocks = OpenBlocks(rows: rows, width: width)
        transmittance.withUnsafeMutableBufferPointer { transmittance in
        red.withUnsafeMutableBufferPointer { red in
        green.withUnsafeMutableBufferPointer { green in
        blue.withUnsafeMutableBufferPointer { blue in
        depth.withUnsafeBufferPointer { depth in
            for m in lists.starts[band]..<lists.starts[band + 1] {
                let splat = splats[Int(members[m])]
                guard let (columns, reached) = footprint(splat, rows: rows), blocks.anyOpen(columns, reached) else { continue }
                let z = SIMD4<Float>(repeating: splat.ndcDepth), ink = splat.colour
                for py in reached {
                    let dy = Float(py) + 0.5 - splat.y
                    let row = (py - rows.lowerBound) * width
                    for px in columns {
                        // First whether any sample is still open: in a dense capture most pixels
                        // are opaque long before its last splats, which then cost two loads.
                        let p = row + px
                        let remaining = transmittance[p]
                        let open = (remaining .>= floor) .& (z .< depth[p])
                        guard any(open) else { continue }  // opaque, or behind the mesh, in every sample
                        guard let alpha = Self.alpha(splat, dx: Float(px) + 0.5 - splat.x, dy: dy) else { continue }
                        let weight = SIMD4<Float>.zero.replacing(with: remaining * alpha, where: open)
                        red[p] += weight * ink.x
                        green[p] += weight * ink.y
                        blue[p] += weight * ink.z
                        let left = remaining.replacing(with: remaining * (1 - alpha), where: open)
                        transmittance[p] = left
                        if !any(left .>= floor) { blocks.close(column: px, row: py) }
                    }
                }
            }
            for p in 0..<pixels where any(transmittance[p] .< 1) {
                for k in 0..<4 where transmittance[p][k] < 1 {
                    let s = (firstPixel + p) * 4 + k
                    colours[s] = Self.composite(SIMD3(red[p][k], green[p][k], blue[p][k]), transmittance[p][k], over: colours[s])
                }
            }
        }}}}}
    }
}

import Testing

@testable import AssetRender

/// The opaque pass drawn in bands on two cores gives the very samples one pass gives: overlapping,
/// crossing and clipped triangles, depth ties included, colour and depth bit for bit.
@Suite struct BandedRasterizerTests {
    struct Shader: FragmentShader {
        var windingFlipped: Bool { false }
        func cullsBackFaces(triangle: Int) -> Bool { triangle % 5 == 0 }
        func shade(triangle: Int, barycentric b: SIMD3<Float>, frontFacing: Bool) -> SIMD4<Float>? {
            triangle % 7 == 3 && b.x > 0.6 ? nil : SIMD4(b.x, b.y, Float(triangle % 11) / 10, 1)
        }
    }

    static func triangles(_ count: Int) -> [SIMD4<Float>] {
        var state: UInt32 = 2024
        func next() -> Float {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(state >> 8) / Float(1 << 24) * 2.6 - 1.3
        }
        // Some share a depth exactly, so ties are decided by order as in one pass.
        return (0..<(count * 3)).map { k in SIMD4(next(), next(), k % 9 == 0 ? 0.25 : next() * 0.9, 1) }
    }

    @Test(arguments: [1, 800])
    func bandsDrawWhatOnePassDraws(count: Int) {
        let clip = Self.triangles(count)
        var one = BandedRasterizer(width: 97, height: 83, grid: 2, meshes: 1, cores: 1)
        var two = BandedRasterizer(width: 97, height: 83, grid: 2, meshes: 1, cores: 2)
        #expect(one.bands.count == 1 && two.bands.count == 2)
        for pass in [0, 1] {
            let draw: (inout TriangleRasterizer, Int) -> Void = { r, t in
                r.draw(clip[3 * t], clip[3 * t + 1], clip[3 * t + 2], triangle: t, shader: Shader(), opaque: true)
            }
            if pass == 0 { one.draw(triangles: count, draw) } else { two.draw(triangles: count, draw) }
        }
        let a = one.merged(), b = two.merged()
        #expect(a.height == 83 && b.height == 83)
        #expect(a.color == b.color && a.depth == b.depth)
        #expect(a.color.contains { $0.w > 0 }, "something is drawn")
        // Resolved band by band, the picture is the one the joined samples resolve to.
        #expect(two.resolve(background: nil) == a.resolve(background: nil))
        #expect(two.resolve(background: SIMD3(0.2, 0.4, 0.6)) == b.resolve(background: SIMD3(0.2, 0.4, 0.6)))
        // Corners projected once beforehand (as the renderer does for a mesh's points) draw the
        // same samples in the bands as their clip positions drawn in one pass; a triangle with a
        // corner behind the near plane is clipped from its clip positions, as the renderer does.
        let screen = clip.map { TriangleRasterizer.projected($0, width: 97, height: 83) }
        if count > 1 { #expect(screen.contains { $0.x.isNaN } && screen.contains { !$0.x.isNaN }, "both kinds of triangle are drawn") }
        var projected = BandedRasterizer(width: 97, height: 83, grid: 2, meshes: 1, cores: 2)
        projected.draw(triangles: count) { r, t in
            let (s0, s1, s2) = (screen[3 * t], screen[3 * t + 1], screen[3 * t + 2])
            if s0.x.isNaN || s1.x.isNaN || s2.x.isNaN {
                r.draw(clip[3 * t], clip[3 * t + 1], clip[3 * t + 2], triangle: t, shader: Shader(), opaque: true)
            } else {
                r.draw(projected: s0, s1, s2, triangle: t, shader: Shader(), opaque: true)
            }
        }
        let c = projected.merged()
        #expect(c.color == a.color && c.depth == a.depth)
    }
}

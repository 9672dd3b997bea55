/// Opaque surfaces shaded once a sample, not once a fragment drawn: a million-triangle mesh at
/// thumbnail size covers each pixel about ten times, and shading every one of them was a third of
/// the picture's time. A fragment records what `shade` would be called with; every sample holds
/// the fragment nearest so far, and once the opaque pass is over each sample's fragment is shaded,
/// once a pixel when its samples share one. `shade` is a function of those arguments alone, so
/// each sample ends with the colour it would have had. A material that can discard a fragment
/// (MASK) is shaded as it is drawn, since what it discards must not hide what is behind it.
struct Fragment {
    // The vector first: 32 bytes a fragment rather than 48.
    var barycentric: SIMD3<Float>
    var shader: Int32
    var triangle: Int32
    var frontFacing: Bool

    init(shader: Int32, triangle: Int32, barycentric: SIMD3<Float>, frontFacing: Bool) {
        (self.barycentric, self.shader, self.triangle, self.frontFacing) = (barycentric, shader, triangle, frontFacing)
    }
}

/// The shaders of one opaque pass, in drawing order, named by the fragments of every band.
/// Appended to between meshes, on the thread that draws; read by the bands meanwhile.
final class DeferredShaders: @unchecked Sendable {
    var shaders: [SurfaceShader] = []
}

extension TriangleRasterizer {
    /// Fragments held before they are shaded where they stand: a scene whose triangles cover each
    /// other many times over keeps at most this many a pixel, and at most `maxFragments` (32 MB)
    /// a band however large the picture.
    static let fragmentsPerPixel = 4
    static let maxFragments = 1 << 20

    /// Bytes the deferred fragments of a `width` x `height` picture's rasterizer may take.
    static func deferredBytes(width: Int, height: Int, samples: Int) -> Int {
        min(fragmentsPerPixel * width * height, maxFragments) * MemoryLayout<Fragment>.stride + width * height * samples * 4
    }

    /// Keeps `fragment` for shading later; its index.
    @inline(__always)
    mutating func record(_ fragment: Fragment) -> Int32 {
        if fragmentOf.isEmpty {
            fragmentOf = [Int32](repeating: -1, count: framebuffer.color.count)
            fragments.reserveCapacity(min(framebuffer.width * framebuffer.height, Self.maxFragments))
        }
        if fragments.count >= min(Self.fragmentsPerPixel * framebuffer.width * framebuffer.height, Self.maxFragments) { shadeDeferred() }
        fragments.append(fragment)
        return Int32(fragments.count - 1)
    }

    /// Shades the fragment every sample holds and makes its colour final.
    mutating func shadeDeferred() {
        guard !fragments.isEmpty, let deferred, !deferred.shaders.isEmpty else { return }
        let shaders = deferred.shaders
        var last: Int32 = -1, colour = SIMD4<Float>.zero
        // The shader of the last fragment, held rather than taken from the array each time: a
        // copy of it is a retain and release of each of its mesh's arrays.
        var shaderIndex: Int32 = 0, shader = shaders[0]
        for s in fragmentOf.indices {
            let f = fragmentOf[s]
            guard f >= 0 else { continue }
            if f != last {
                let fragment = fragments[Int(f)]
                if fragment.shader != shaderIndex { (shaderIndex, shader) = (fragment.shader, shaders[Int(fragment.shader)]) }
                // A deferred material never discards (see above); .zero would be a sample left empty.
                colour = shader.shade(triangle: Int(fragment.triangle), barycentric: fragment.barycentric, frontFacing: fragment.frontFacing) ?? .zero
                last = f
            }
            framebuffer.color[s] = colour
            fragmentOf[s] = -1
        }
        fragments.removeAll(keepingCapacity: true)
    }
}

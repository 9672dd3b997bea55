/// Opaque surfaces shaded once a sample, not once a fragment drawn: a million-triangle mesh at
/// thumbnail size covers each pixel about ten times, and shading every one of them was a third of
/// the picture's time. A fragment records what `shade` would be called with; every sample holds
/// the fragment nearest so far, and once the opaque pass is over each sample's fragment is shaded,
/// once a pixel when its samples share one. `shade` is a function of those arguments alone, so
/// each sample ends with the colour it would have had. A material that can discard a fragment
/// (MASK) is shaded as it is drawn, since what it discards must not hide what is behind it.
struct Fragment {
    // Plain floats, no SIMD3 (whose alignment pads the record): 20 bytes a fragment.
    var b0: Float, b1: Float, b2: Float
    var triangle: Int32
    /// The shader's place in `DeferredShaders` times two, plus one for a front face.
    var shaderAndFacing: Int32

    init(shader: Int32, triangle: Int32, barycentric: SIMD3<Float>, frontFacing: Bool) {
        (b0, b1, b2) = (barycentric.x, barycentric.y, barycentric.z)
        self.triangle = triangle
        shaderAndFacing = shader << 1 | (frontFacing ? 1 : 0)
    }

    var shader: Int32 { shaderAndFacing >> 1 }
    var frontFacing: Bool { shaderAndFacing & 1 == 1 }
    var barycentric: SIMD3<Float> { SIMD3(b0, b1, b2) }
}

/// The shaders of one opaque pass, in drawing order, named by the fragments of every band.
/// Appended to between meshes, on the thread that draws; read by the bands meanwhile.
final class DeferredShaders: @unchecked Sendable {
    var shaders: [SurfaceShader] = []
}

extension TriangleRasterizer {
    /// Fragments kept a pixel before those no sample holds any more are dropped (most, in a dense
    /// mesh: a nearer fragment took their samples); when more than `liveFragmentsPerPixel` are
    /// still held after that, they are shaded where they stand. So a band keeps a few fragments a
    /// pixel whatever the overdraw.
    static let fragmentsPerPixel = 2
    static let liveFragmentsPerPixel = 1

    /// Bytes the deferred fragments of a `width` x `height` picture's rasterizer may take: the
    /// fragments, their renumbering while they are compacted, and a fragment index a sample.
    static func deferredBytes(width: Int, height: Int, samples: Int) -> Int {
        fragmentsPerPixel * width * height * (MemoryLayout<Fragment>.stride + 4) + width * height * samples * 4
    }

    /// A pixel's fragment of a triangle, `first` the screen barycentric of its first covered
    /// sample: shaded now (the colour, and -1), or kept for later when `deferredAs` names its
    /// shader (no colour yet, and its index); nil where the shader discards it.
    @inline(__always)
    mutating func fragment<S: FragmentShader>(at first: SIMD3<Float>, _ v0: ScreenVertex, _ v1: ScreenVertex, _ v2: ScreenVertex, triangle: Int,
                                              frontFacing: Bool, shader: S, deferredAs: Int32?) -> (SIMD4<Float>, Int32)? {
        // Perspective-correct: interpolate barycentric/w linearly on screen, then divide.
        let q = SIMD3(first.x * v0.invW, first.y * v1.invW, first.z * v2.invW)
        let s = q.x + q.y + q.z
        let screen = s != 0 ? q / s : first
        let original = v0.barycentric * screen.x + v1.barycentric * screen.y + v2.barycentric * screen.z
        if let deferredAs {
            return (.zero, record(Fragment(shader: deferredAs, triangle: Int32(triangle), barycentric: original, frontFacing: frontFacing)))
        }
        guard let shaded = shader.shade(triangle: triangle, barycentric: original, frontFacing: frontFacing) else { return nil }
        return (shaded, -1)
    }

    /// Keeps `fragment` for shading later; its index.
    @inline(__always)
    mutating func record(_ fragment: Fragment) -> Int32 {
        let pixels = framebuffer.width * framebuffer.height
        if fragmentOf.isEmpty {
            fragmentOf = [Int32](repeating: -1, count: framebuffer.color.count)
            fragments.reserveCapacity(Self.fragmentsPerPixel * pixels)
        }
        if fragments.count >= Self.fragmentsPerPixel * pixels {
            compactFragments()
            if fragments.count > Self.liveFragmentsPerPixel * pixels { shadeDeferred() }
        }
        fragments.append(fragment)
        return Int32(fragments.count - 1)
    }

    /// Drops the fragments no sample holds, in place: the rest keep their order, so each moves
    /// only nearer the start, over one already moved or dropped.
    mutating func compactFragments() {
        var renumbered = [Int32](repeating: -1, count: fragments.count)
        for f in fragmentOf where f >= 0 { renumbered[Int(f)] = 0 }
        var kept: Int32 = 0
        for f in renumbered.indices where renumbered[f] == 0 {
            renumbered[f] = kept
            fragments[Int(kept)] = fragments[f]
            kept += 1
        }
        fragments.removeLast(fragments.count - Int(kept))
        for s in fragmentOf.indices where fragmentOf[s] >= 0 { fragmentOf[s] = renumbered[Int(fragmentOf[s])] }
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

import AssetCore
import AssetImage
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Draws Gaussian splats by the published 3DGS method, after the meshes: each splat's covariance
/// projected to the screen through the perspective Jacobian (EWA) with a 0.3 px² low-pass, cut at
/// 3 sigma, its colour from its spherical harmonics seen along the ray from the eye, then every
/// sample blends the splats in front of the mesh surface there front to back (alpha capped at
/// 0.99, stopped once transmittance falls under 1/10,000) and the mesh shows through what is
/// left. Splats are display-referred, as `KHR_gaussian_splatting` says: neither lit, exposed nor
/// tone mapped, and blended in their own sRGB values before the result joins the linear
/// framebuffer.
///
/// A splat rather than a tile walks its own footprint, because on a CPU at thumbnail sizes most
/// splats cover a handful of samples: the cost is the sum of the footprints, not tiles times the
/// splats overlapping them. The rows are split into bands, one task each, so the order in every
/// sample stays front to back.
struct SplatRasterizer {
    /// The 3DGS renderers' screen-space low-pass, in pixels squared.
    static let lowPass: Float = 0.3
    static let maxAlpha: Float = 0.99
    static let minAlpha: Float = 1 / 255
    static let minTransmittance: Float = 1e-4

    /// One splat ready to draw, in one cache line (64 bytes: the vectors first, so that no
    /// padding is needed), so the blend reads each splat once in depth order without a miss per
    /// value.
    struct Splat2D {
        var x: Float, y: Float
        /// The pixels the splat can reach, within the picture: the box where it can still reach
        /// `minAlpha` (its ellipse at `reach` standard deviations, boxed exactly by the sqrt of the
        /// covariance's diagonal), rounded once here rather than in every band that draws it.
        var left: Int16, right: Int16, top: Int16, bottom: Int16
        /// The inverse 2D covariance (a, b, c) in pixels.
        var conic: SIMD3<Float>
        /// Display-referred sRGB, in 0...1.
        var colour: SIMD3<Float>
        var opacity: Float
        /// Below this exponent the splat's alpha is under `minAlpha` (or past 3 sigma): such
        /// samples are skipped before `exp`.
        var cutoff: Float
        /// NDC depth, as the mesh depth buffer holds it.
        var ndcDepth: Float
    }

    /// The splats in front of the camera and the view distance each is ordered by. The projection
    /// writes each set's two halves (one a core) at their own places in `splats`, leaving gaps
    /// where splats were culled; `keys` (the distances' bit patterns) and `positions` (where each
    /// is in `splats`) hold only the drawn ones, all halves one after another.
    struct Projected {
        var splats: [Splat2D]
        var keys: [UInt32] = []
        var positions: [Int32] = []

        init(capacity: Int) {
            splats = [Splat2D](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                // Never read where the projection wrote nothing: `positions` names what it wrote.
                HugePages.advise(UnsafeMutableRawPointer(buffer.baseAddress), byteCount: capacity * MemoryLayout<Splat2D>.stride)
                initialized = capacity
            }
        }

        var count: Int { keys.count }
    }

    let camera: RenderCamera
    let width: Int
    let height: Int

    /// Draws every placed splat set over what `framebuffer` holds.
    func draw(_ placed: [PlacedSplats], of scene: Scene, into framebuffer: inout Framebuffer) {
        var projected = Projected(capacity: placed.reduce(0) { $0 + scene.splats[$1.instance.splats].count })
        var first = 0
        for placement in placed {
            let set = scene.splats[placement.instance.splats]
            project(set, world: placement.worldTransform, at: first, into: &projected)
            first += set.count
        }
        guard projected.count > 0 else { return }
        var keys: [UInt32] = [], positions: [Int32] = []
        swap(&keys, &projected.keys)
        swap(&positions, &projected.positions)
        let order = Self.frontToBack(keys: keys, positions: positions)
        blend(Self.gathered(projected.splats, in: order), into: &framebuffer)
    }

    // MARK: Projection

    /// Writes the splats of `set` placed by `world` that lie in front of the camera and reach the
    /// picture, from position `first` of `out.splats` on.
    func project(_ set: SplatSet, world: Matrix4x4, at first: Int, into out: inout Projected) {
        let view = camera.view * world
        let w = (SIMD3<Float>(Float(view.c0.x), Float(view.c0.y), Float(view.c0.z)), SIMD3<Float>(Float(view.c1.x), Float(view.c1.y), Float(view.c1.z)),
                 SIMD3<Float>(Float(view.c2.x), Float(view.c2.y), Float(view.c2.z)))
        let t = SIMD3<Float>(Float(view.c3.x), Float(view.c3.y), Float(view.c3.z))
        // The eye in the set's own frame, so the SH are evaluated in the frame they were fitted in:
        // the placement's rotation, or mirror, undone with it.
        let inverse = world.inverse ?? .identity
        let eyeLocal = inverse.transformPoint(camera.position)
        let eye = SIMD3<Float>(Float(eyeLocal.x), Float(eyeLocal.y), Float(eyeLocal.z))
        let focal = Float(Double(height) / 2 / tan(camera.verticalFieldOfView * .pi / 360))
        let (near, far) = (Float(camera.near), Float(camera.far))
        let (cx, cy) = (Float(width) / 2, Float(height) / 2)
        let (right, bottom) = (Float(width), Float(height))
        let linearColour = set.colorSpace == .linearRec709Display
        let n = set.count
        let halves = n >= 4096 ? 2 : 1, split = n / 2
        var drawn = [(keys: [UInt32], positions: [Int32])](repeating: ([], []), count: halves)
        set.withBuffers { buffers in
        out.splats.withUnsafeMutableBufferPointer { splats in
        drawn.withUnsafeMutableBufferPointer { drawn in
            nonisolated(unsafe) let (splats, drawn, buffers) = (splats, drawn, buffers)
            DispatchQueue.concurrentPerform(iterations: halves) { half in
                let range = halves == 2 ? (half == 0 ? 0..<split : split..<n) : 0..<n
                var keys: [UInt32] = [], positions: [Int32] = []
                keys.reserveCapacity(range.count)
                positions.reserveCapacity(range.count)
                var written = first + range.lowerBound
                let k = set.coefficientsPerSplat
                guard let coefficients = buffers.sh.baseAddress else { return }
                for i in range {
                    let opacity = buffers.opacities[i]
                    guard opacity >= Self.minAlpha else { continue }
                    let c = buffers.center(i)
                    let p = w.0 * c.x + w.1 * c.y + w.2 * c.z + t
                    let depth = -p.z
                    guard depth > near, depth < far, p.isFinite else { continue }
                    // Σ' = J W M R S (J W M R S)ᵀ, with W M the view of the placement.
                    let r = SplatSet.rotationMatrix(buffers.rotation(i)), s = buffers.scale(i)
                    let a0 = (w.0 * r.0.x + w.1 * r.0.y + w.2 * r.0.z) * s.x
                    let a1 = (w.0 * r.1.x + w.1 * r.1.y + w.2 * r.1.z) * s.y
                    let a2 = (w.0 * r.2.x + w.1 * r.2.y + w.2 * r.2.z) * s.z
                    // J for screen x = cx + f x / d, y = cy - f y / d, with d = -z.
                    let inv = 1 / depth
                    let j0 = SIMD3<Float>(focal * inv, 0, focal * p.x * inv * inv)
                    let j1 = SIMD3<Float>(0, -focal * inv, -focal * p.y * inv * inv)
                    let u = SIMD3<Float>((j0 * a0).sum(), (j0 * a1).sum(), (j0 * a2).sum())
                    let v = SIMD3<Float>((j1 * a0).sum(), (j1 * a1).sum(), (j1 * a2).sum())
                    var covA = (u * u).sum(), covB = (u * v).sum(), covC = (v * v).sum()
                    let detBefore = covA * covC - covB * covB
                    covA += Self.lowPass
                    covC += Self.lowPass
                    let det = covA * covC - covB * covB
                    guard det > 0, det.isFinite else { continue }
                    var alpha = opacity
                    // Mip-Splatting's trained antialiasing keeps the splat's energy under the low-pass.
                    if set.antialiased { alpha *= (max(detBefore, 0) / det).squareRoot() }
                    guard alpha >= Self.minAlpha else { continue }
                    // alpha exp(power) >= minAlpha needs power >= log(minAlpha / alpha), and past 3
                    // sigma (power -4.5) the splat has no say: the box is cut to that ellipse. The
                    // cutoff is a thousandth looser than exact, so that rounding never skips a
                    // sample the blend's own test would keep.
                    let cutoff = log(Self.minAlpha / alpha) - 1e-3
                    let reach = (-2 * max(-4.5, cutoff)).squareRoot() * 1.0001
                    let halfWidth = reach * covA.squareRoot(), halfHeight = reach * covC.squareRoot()
                    let sx = cx + focal * p.x * inv, sy = cy - focal * p.y * inv
                    // The box's pixels, floor rounded; past the picture on any side it draws nothing.
                    let (x0, x1) = (sx - halfWidth, sx + halfWidth), (y0, y1) = (sy - halfHeight, sy + halfHeight)
                    guard x1 >= 0, x0 < right, y1 >= 0, y0 < bottom else { continue }
                    // Colour along the ray from the eye, in the set's frame.
                    var direction = c - eye
                    direction /= max((direction * direction).sum().squareRoot(), 1e-20)
                    var colour = SplatHarmonics.colour(coefficients + 3 * k * i, count: k, direction: direction, adding: SIMD3(repeating: 0.5))
                    colour = SIMD3(max(colour.x, 0), max(colour.y, 0), max(colour.z, 0))
                    if linearColour { colour = SIMD3(ColorSpace.toSRGB(min(colour.x, 1)), ColorSpace.toSRGB(min(colour.y, 1)), ColorSpace.toSRGB(min(colour.z, 1))) }
                    let ndc = ((far + near) / (near - far) * p.z + 2 * far * near / (near - far)) / depth
                    // Both ends are known to be within 0 ... width (height) here, so truncation is
                    // the floor, and the far end is clamped to the last pixel.
                    splats[written] = Splat2D(x: sx, y: sy, left: Int16(max(x0, 0)), right: Int16(min(x1, right - 1)),
                                              top: Int16(max(y0, 0)), bottom: Int16(min(y1, bottom - 1)), conic: SIMD3(covC, -covB, covA) / det,
                                              colour: SIMD3(min(colour.x, 1), min(colour.y, 1), min(colour.z, 1)),
                                              opacity: alpha, cutoff: cutoff, ndcDepth: ndc)
                    keys.append(depth.bitPattern)
                    positions.append(Int32(written))
                    written += 1
                }
                drawn[half] = (keys, positions)
            }
        }}}
        for part in drawn {
            out.keys += part.keys
            out.positions += part.positions
        }
    }
}

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

    /// One splat ready to draw, in one cache line (64 bytes), so the blend reads each splat once
    /// in depth order without a miss per value.
    struct Splat2D {
        var x: Float, y: Float
        /// Half the width and height of the box where the splat can still reach `minAlpha`: its
        /// ellipse at `reach` standard deviations, boxed exactly (sqrt of the covariance's diagonal).
        var halfWidth: Float, halfHeight: Float
        var opacity: Float
        /// Below this exponent the splat's alpha is under `minAlpha` (or past 3 sigma): such
        /// samples are skipped before `exp`.
        var cutoff: Float
        /// The inverse 2D covariance (a, b, c) in pixels.
        var conic: SIMD3<Float>
        /// Display-referred sRGB, in 0...1.
        var colour: SIMD3<Float>
        /// NDC depth, as the mesh depth buffer holds it.
        var ndcDepth: Float
    }

    /// The splats in front of the camera, in the parts the projection made them in (two a set,
    /// one a core), and the view distance each is ordered by, all parts one after another. Kept in
    /// parts: joining them would be one more copy of 64 bytes a splat before the sort's own.
    struct Projected {
        var parts: [[Splat2D]] = []
        var viewDepth: [Float] = []

        var count: Int { viewDepth.count }

        /// The splats in `order` (positions in the parts taken one after another), on both cores.
        func gathered(_ order: [Int32]) -> [Splat2D] {
            var starts = [0]
            for part in parts { starts.append(starts[starts.count - 1] + part.count) }
            let starts32 = starts.map { Int32($0) }
            return [Splat2D](unsafeUninitializedCapacity: order.count) { out, initialized in
                nonisolated(unsafe) let out = out
                let parts = parts
                order.withUnsafeBufferPointer { order in
                    nonisolated(unsafe) let order = order
                    SplitReduction.forEachHalf(count: order.count) { range in
                        for k in range {
                            let at = order[k]
                            // The last part starting at or before `at`: one compare for one set.
                            var low = 0, high = parts.count - 1
                            while low < high {
                                let middle = (low + high + 1) / 2
                                if starts32[middle] <= at { low = middle } else { high = middle - 1 }
                            }
                            (out.baseAddress! + k).initialize(to: parts[low][Int(at - starts32[low])])
                        }
                    }
                }
                initialized = order.count
            }
        }
    }

    let camera: RenderCamera
    let width: Int
    let height: Int

    /// Draws every placed splat set over what `framebuffer` holds.
    func draw(_ placed: [PlacedSplats], of scene: Scene, into framebuffer: inout Framebuffer) {
        var projected = Projected()
        for placement in placed {
            project(scene.splats[placement.instance.splats], world: placement.worldTransform, into: &projected)
        }
        guard projected.count > 0 else { return }
        let order = Self.frontToBack(projected.viewDepth)
        blend(projected.gathered(order), into: &framebuffer)
    }

    // MARK: Projection

    /// Appends the splats of `set` placed by `world` that lie in front of the camera.
    func project(_ set: SplatSet, world: Matrix4x4, into out: inout Projected) {
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
        let linearColour = set.colorSpace == .linearRec709Display
        let n = set.count
        var slots = [Projected](repeating: Projected(), count: 2)
        set.withBuffers { buffers in
        slots.withUnsafeMutableBufferPointer { halves in
            nonisolated(unsafe) let halves = halves
            nonisolated(unsafe) let buffers = buffers
            let split = n / 2
            DispatchQueue.concurrentPerform(iterations: n >= 4096 ? 2 : 1) { half in
                let range = n >= 4096 ? (half == 0 ? 0..<split : split..<n) : 0..<n
                var splats: [Splat2D] = [], viewDepth: [Float] = []
                splats.reserveCapacity(range.count)
                viewDepth.reserveCapacity(range.count)
                var basis = [Float](repeating: 0, count: 16)
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
                    guard sx + halfWidth >= 0, sx - halfWidth <= Float(width), sy + halfHeight >= 0, sy - halfHeight <= Float(height) else { continue }
                    // Colour along the ray from the eye, in the set's frame.
                    var direction = c - eye
                    direction /= max((direction * direction).sum().squareRoot(), 1e-20)
                    SplatHarmonics.basis(direction, degree: set.shDegree, into: &basis)
                    var colour = SIMD3<Float>(repeating: 0.5)
                    let own = coefficients + 3 * k * i
                    for q in 0..<k { colour += SIMD3(own[3 * q], own[3 * q + 1], own[3 * q + 2]) * basis[q] }
                    colour = pointwiseMax(colour, .zero)
                    if linearColour { colour = SIMD3(ColorSpace.toSRGB(min(colour.x, 1)), ColorSpace.toSRGB(min(colour.y, 1)), ColorSpace.toSRGB(min(colour.z, 1))) }
                    let ndc = ((far + near) / (near - far) * p.z + 2 * far * near / (near - far)) / depth
                    splats.append(Splat2D(x: sx, y: sy, halfWidth: halfWidth, halfHeight: halfHeight, opacity: alpha, cutoff: cutoff,
                                               conic: SIMD3(covC, -covB, covA) / det, colour: pointwiseMin(colour, SIMD3(repeating: 1)), ndcDepth: ndc))
                    viewDepth.append(depth)
                }
                halves[half] = Projected(parts: [splats], viewDepth: viewDepth)
            }
        }
        }
        for part in slots where part.count > 0 {
            out.parts += part.parts
            out.viewDepth += part.viewDepth
        }
    }

    /// Indices in increasing view depth (ties in drawing order), by a radix sort of the depths'
    /// bit patterns: positive floats order as their bits do.
    static func frontToBack(_ depths: [Float]) -> [Int32] {
        var keys = depths.map(\.bitPattern), index = (0..<Int32(depths.count)).map { $0 }
        var keys2 = keys, index2 = index
        for shift in stride(from: UInt32(0), to: 32, by: 8) {
            var counts = [Int](repeating: 0, count: 257)
            for key in keys { counts[Int((key >> shift) & 0xFF) + 1] += 1 }
            for b in 1..<257 { counts[b] += counts[b - 1] }
            for (k, key) in keys.enumerated() {
                let bucket = Int((key >> shift) & 0xFF)
                keys2[counts[bucket]] = key
                index2[counts[bucket]] = index[k]
                counts[bucket] += 1
            }
            swap(&keys, &keys2)
            swap(&index, &index2)
        }
        return index
    }
}

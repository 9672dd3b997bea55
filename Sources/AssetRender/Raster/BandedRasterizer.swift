import AssetCore
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The opaque pass on both cores: the picture cut into bands of rows, each drawn by a rasterizer
/// and framebuffer of its own, every triangle offered to every band in the same order. A sample
/// then meets exactly the triangles and depth tests it would in one pass, so the picture is the
/// same bit for bit; only the work of covering and shading is shared. A triangle's setup is done
/// once a band. In a scene of many small meshes, where waking a second core for each would cost
/// more than it saves, the small ones draw their bands one after the other.
struct BandedRasterizer {
    private(set) var bands: [TriangleRasterizer]
    let width: Int
    let height: Int
    let grid: Int
    /// Meshes with fewer triangles than this are drawn band after band on this thread, in a scene
    /// of more than `fewMeshes` meshes.
    static let parallelTriangles = 2048
    static let fewMeshes = 64
    /// Pictures of at least this many samples have their bands' framebuffers made on two cores.
    static let parallelSamples = 1 << 18
    let meshes: Int
    /// The shaders the bands' deferred fragments name (`TriangleRasterizer+Deferred`).
    let deferred = DeferredShaders()

    /// `split`, when given, is the row the second band starts at (a heavy mesh's triangles are
    /// seldom spread evenly over the picture's two halves); bands keep at least 16 rows.
    init(width: Int, height: Int, grid: Int, meshes: Int, split: Int? = nil, cores: Int = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) {
        self.meshes = meshes
        self.width = width
        self.height = height
        self.grid = grid
        // Bands of at least 16 rows: below that a triangle mostly lands in every band.
        let count = max(1, min(cores, 2, height / 16))
        let middle = min(max(split ?? height / 2, 16), height - 16)
        let band = { @Sendable (k: Int) -> TriangleRasterizer in
            let top = count == 2 ? (k == 0 ? 0 : middle) : height * k / count
            let bottom = count == 2 ? (k == 0 ? middle : height) : height * (k + 1) / count
            return TriangleRasterizer(framebuffer: Framebuffer(width: width, height: bottom - top, grid: grid), rowOffset: top, imageHeight: height)
        }
        if count == 2 && width * height * grid * grid >= Self.parallelSamples {
            // Each band's samples filled on its own core: a supersampled 256-pixel picture's are
            // 12 MB of fresh pages, 3 ms on one core before the first triangle.
            var made: [TriangleRasterizer?] = [nil, nil]
            made.withUnsafeMutableBufferPointer { slots in
                nonisolated(unsafe) let slots = slots
                DispatchQueue.concurrentPerform(iterations: 2) { k in slots[k] = band(k) }
            }
            bands = made.map { $0! }
        } else {
            bands = (0..<count).map(band)
        }
        for k in bands.indices { bands[k].deferred = deferred }
    }

    /// Runs `draw(rasterizer, triangle)` for every triangle in every band, the bands at once
    /// when there are enough triangles. `draw` may run on several threads at a time: it must only
    /// read what it captures. `thenShade`, for the opaque pass's last mesh, has each band shade
    /// what it deferred as soon as its own triangles are drawn: a band that finishes first shades
    /// while the other still draws, instead of both waiting for the slower.
    mutating func draw(triangles: Int, thenShade: Bool = false, _ draw: (inout TriangleRasterizer, Int) -> Void) {
        guard bands.count > 1, triangles >= Self.parallelTriangles || meshes <= Self.fewMeshes else {
            for k in bands.indices {
                for t in 0..<triangles { draw(&bands[k], t) }
                if thenShade { bands[k].shadeDeferred() }
            }
            return
        }
        withoutActuallyEscaping(draw) { draw in
            let work = UncheckedBox(draw)
            bands.withUnsafeMutableBufferPointer { buffer in
                let bands = UncheckedBox(buffer)
                DispatchQueue.concurrentPerform(iterations: buffer.count) { k in
                    for t in 0..<triangles { work.value(&bands.value[k], t) }
                    if thenShade { bands.value[k].shadeDeferred() }
                }
            }
        }
    }

    /// Shades what every band deferred: once the opaque pass is drawn, before anything reads it.
    mutating func shadeDeferred() {
        bands.withUnsafeMutableBufferPointer { buffer in
            let bands = UncheckedBox(buffer)
            DispatchQueue.concurrentPerform(iterations: buffer.count) { k in bands.value[k].shadeDeferred() }
        }
    }

    /// The picture, each band resolved into its own rows on its own core (resolving is per pixel):
    /// on one core, with the bands joined after, it was a 256 px thumbnail's longest wait after drawing.
    func resolve(background: SIMD3<Float>?) -> RGBAImage {
        if bands.count == 1 { return bands[0].framebuffer.resolve(background: background) }
        let count = width * height * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            let base = UncheckedBox(out.baseAddress!)
            bands.withUnsafeBufferPointer { bands in
                let bands = UncheckedBox(bands)
                DispatchQueue.concurrentPerform(iterations: bands.value.count) { k in
                    let band = bands.value[k]
                    band.framebuffer.resolve(background: background, into: base.value + band.rowOffset * width * 4)
                }
            }
            initialized = count
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The bands as one framebuffer, for what is drawn after the opaque pass.
    func merged() -> Framebuffer {
        bands.count == 1 ? bands[0].framebuffer : Framebuffer(stacking: bands.map(\.framebuffer))
    }
}

/// What `concurrentPerform`'s iterations share: each band's rasterizer is written by its own
/// iteration alone, and the drawing closure only reads.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

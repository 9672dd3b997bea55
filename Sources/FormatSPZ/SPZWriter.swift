import AssetCore
import Foundation

/// Writes SPZ version 4: the plain 32-byte NGSP header, a table of contents, and one zstd frame
/// per attribute array, in SPZ's `rub` axes (the scene's). Every placed splat set of the flattened
/// scene goes into the one file at the highest SH degree among them; meshes are left out with a
/// warning. Values are quantised as SPZ defines them (`SPZDecoder` undoes it); SH coefficients
/// keep all 8 bits rather than Niantic's default 5 and 4, so reading back loses only the format's
/// own step. Positions use 12 fractional bits (0.24 mm) unless the scene is too large for 24 bits,
/// when fewer are used, as the header allows.
public struct SPZWriter: SceneWriter {
    public let format = AssetFormat.spz
    public let requirements = WriterRequirements(flattened: true, keepsSplats: true)
    /// zstd's default level: the streams are bytes SPZ has already quantised, which higher levels
    /// shrink little for their time (Scripts/bench-splats measures the write).
    static let level: Int32 = 3

    public init() {}

    public func write(_ scene: Scene, context: WriteContext) throws(AssetError) -> WriteResult {
        var diagnostics: [Diagnostic] = []
        let sets = scene.placedSplats().map { scene.splats[$0.instance.splats].transformed(by: $0.worldTransform) }
        guard !sets.isEmpty else {
            throw AssetError(.unsupportedFeature("SPZ holds Gaussian splats only, and the scene has none"))
        }
        if !scene.placedMeshes().isEmpty {
            diagnostics.append(.warning("SPZ holds splats only: \(scene.placedMeshes().count) meshes beside the splats left out (write .usdz or .glb to keep both)"))
        }
        let degree = sets.map(\.shDegree).max() ?? 0
        let count = sets.reduce(0) { $0 + $1.count }
        guard count <= Int(UInt32.max) else { throw AssetError(.limitExceeded("\(count) splats do not fit SPZ's 32-bit count")) }
        var largest: Float = 0
        for set in sets {
            set.centers.withFloats { centres in for v in centres where abs(v).isFinite { largest = max(largest, abs(v)) } }
        }
        var fractionalBits = 12
        while fractionalBits > 0 && largest * Float(1 << fractionalBits) >= Float(1 << 23) - 1 { fractionalBits -= 1 }
        guard largest < Float(1 << 23) - 1 else {
            throw AssetError(.limitExceeded("a splat centre at \(largest) units does not fit SPZ's 24-bit positions"))
        }
        let encoder = SPZEncoder(degree: degree, fractionalBits: fractionalBits)
        let arrays = encoder.arrays(sets, count: count)
        var streams: [(compressed: [UInt8], size: Int)] = []
        for array in arrays where !array.isEmpty { streams.append((try SPZStreams.zstd(array, level: Self.level), array.count)) }
        var out = ByteWriter()
        out.u32(SPZHeader.magic)
        out.u32(4)
        out.u32(UInt32(count))
        out.u8(UInt8(degree))
        out.u8(UInt8(fractionalBits))
        out.u8(sets.contains(where: \.antialiased) ? 0x1 : 0)
        out.u8(UInt8(streams.count))
        out.u32(UInt32(SPZHeader.streamedSize))
        out.append([UInt8](repeating: 0, count: 12))
        for stream in streams {
            out.u64(UInt64(stream.compressed.count))
            out.u64(UInt64(stream.size))
        }
        for stream in streams { out.append(stream.compressed) }
        return WriteResult(files: [OutputFile(relativePath: context.outputName, bytes: out.bytes)], diagnostics: diagnostics)
    }
}

/// Splat sets as SPZ's six packed arrays.
struct SPZEncoder {
    let degree: Int
    let fractionalBits: Int

    func arrays(_ sets: [SplatSet], count: Int) -> [[UInt8]] {
        let rest = (degree + 1) * (degree + 1) - 1
        var positions = [UInt8](repeating: 0, count: 9 * count), alphas = [UInt8](repeating: 0, count: count)
        var colours = [UInt8](repeating: 0, count: 3 * count), scales = [UInt8](repeating: 0, count: 3 * count)
        var rotations = [UInt8](repeating: 0, count: 4 * count), sh = [UInt8](repeating: 128, count: 3 * rest * count)
        let fixed = Float(1 << fractionalBits)
        var row = 0
        for set in sets {
            set.withBuffers { b in
                let own = set.coefficientsPerSplat
                for i in 0..<set.count {
                    for c in 0..<3 {
                        let value = Int32((b.centers[3 * i + c] * fixed).rounded())
                        for k in 0..<3 { positions[9 * row + 3 * c + k] = UInt8(truncatingIfNeeded: value >> (8 * Int32(k))) }
                        scales[3 * row + c] = Self.byte((log(max(b.scales[3 * i + c], .leastNormalMagnitude)) + 10) * 16)
                        colours[3 * row + c] = Self.byte(b.sh[3 * own * i + c] * SPZDecoder.colourScale * 255 + 127.5)
                    }
                    alphas[row] = Self.byte(b.opacities[i] * 255)
                    let packed = Self.smallestThree(b.rotation(i))
                    for k in 0..<4 { rotations[4 * row + k] = UInt8(truncatingIfNeeded: packed >> (8 * UInt32(k))) }
                    for k in 0..<min(own - 1, rest) {
                        for c in 0..<3 { sh[3 * (rest * row + k) + c] = Self.byte(b.sh[3 * own * i + 3 * (k + 1) + c] * 128 + 128) }
                    }
                    row += 1
                }
            }
        }
        return [positions, alphas, colours, scales, rotations, sh]
    }

    /// Rounded and clamped to 0...255 (NaN to 0).
    static func byte(_ x: Float) -> UInt8 {
        guard x.isFinite else { return x > 0 ? 255 : 0 }
        return UInt8(min(max(x.rounded(), 0), 255))
    }

    /// The largest component's index in the top two bits, then each other component from x to w,
    /// its sign (relative to the largest, which is made positive) and 9 bits of |q| / (1/sqrt 2).
    static func smallestThree(_ rotation: SIMD4<Float>) -> UInt32 {
        let length = (rotation * rotation).sum().squareRoot()
        let q = length > 0 && length.isFinite ? rotation / length : SIMD4(0, 0, 0, 1)
        var largest = 0
        for k in 1..<4 where abs(q[k]) > abs(q[largest]) { largest = k }
        let flip = q[largest] < 0
        var packed = UInt32(largest)
        for k in 0..<4 where k != largest {
            let negative: UInt32 = (q[k] < 0) != flip ? 1 : 0
            let magnitude = UInt32(min(511, (511 * abs(q[k]) / (0.5 as Float).squareRoot() + 0.5).rounded(.down)))
            packed = packed << 10 | negative << 9 | magnitude
        }
        return packed
    }
}

import AssetCore
import Foundation

/// SPZ's packed arrays as a `SplatSet`, undoing each quantisation as Niantic's format defines it:
/// positions in 24-bit fixed point with the header's fractional bits (half floats in v1), scales
/// as `ln(s)` in 1/16 steps from -10, opacity in 1/255, the DC colour as `f_dc * 0.15 + 0.5` in
/// 1/255, higher SH coefficients as `x * 128 + 128`, quaternions as x, y, z with w >= 0 (v2) or
/// as the three smallest components, 9 bits and a sign each, with the largest one's index (v3+).
struct SPZDecoder {
    static let colourScale: Float = 0.15

    let header: SPZHeader
    /// positions, alphas, colours, scales, rotations, SH.
    let arrays: [ArraySlice<UInt8>]

    func splats(name: String, budget: ReadBudget, file: String) throws(AssetError) -> SplatSet {
        let n = header.count
        let degree = min(header.shDegree, 3)
        let kept = (degree + 1) * (degree + 1)
        try budget.spend(bytes: n * 4 * (11 + 3 * kept), for: "\(n) splats", at: SourceLocation(file: file))
        var centers = [Float](repeating: 0, count: 3 * n), rotations = [Float](repeating: 0, count: 4 * n)
        var scales = [Float](repeating: 0, count: 3 * n), opacities = [Float](repeating: 0, count: n)
        var sh = [Float](repeating: 0, count: 3 * kept * n)
        let (positions, alphas, colours, logScales, packedRotations, coefficients) = (arrays[0], arrays[1], arrays[2], arrays[3], arrays[4], arrays[5])
        let fixed = 1 / Float(1 << header.fractionalBits)
        for i in 0..<n {
            for c in 0..<3 {
                if header.usesHalfPositions {
                    let at = positions.startIndex + 6 * i + 2 * c
                    centers[3 * i + c] = Float(Float16(bitPattern: UInt16(positions[at]) | UInt16(positions[at + 1]) << 8))
                } else {
                    let at = positions.startIndex + 9 * i + 3 * c
                    var raw = Int32(positions[at]) | Int32(positions[at + 1]) << 8 | Int32(positions[at + 2]) << 16
                    if raw & 0x80_0000 != 0 { raw |= ~0xFF_FFFF }  // sign-extend 24 bits
                    centers[3 * i + c] = Float(raw) * fixed
                }
                scales[3 * i + c] = exp(Float(logScales[logScales.startIndex + 3 * i + c]) / 16 - 10)
                sh[3 * kept * i + c] = (Float(colours[colours.startIndex + 3 * i + c]) / 255 - 0.5) / Self.colourScale
            }
            opacities[i] = Float(alphas[alphas.startIndex + i]) / 255
            let q = header.usesSmallestThree ? Self.smallestThree(packedRotations, at: packedRotations.startIndex + 4 * i)
                                             : Self.firstThree(packedRotations, at: packedRotations.startIndex + 3 * i)
            for k in 0..<4 { rotations[4 * i + k] = q[k] }
            let stored = header.restCoefficients
            for k in 0..<(kept - 1) {
                for c in 0..<3 {
                    sh[3 * kept * i + 3 * (k + 1) + c] = (Float(coefficients[coefficients.startIndex + 3 * (stored * i + k) + c]) - 128) / 128
                }
            }
        }
        // Moved, not shared: a set whose arrays another reference holds copies them when turned.
        var set = SplatSet(name: name, centers: .float(consume centers), rotations: .float(consume rotations), scales: .float(consume scales),
                           opacities: .float(consume opacities), shDegree: degree, sh: .float(consume sh), axes: .rightUpBack)
        set.antialiased = header.antialiased
        return set
    }

    /// v2: x, y, z in 1/127.5 steps around 127.5; w the non-negative rest of a unit quaternion.
    static func firstThree(_ bytes: ArraySlice<UInt8>, at: Int) -> SIMD4<Float> {
        let xyz = SIMD3<Float>(Float(bytes[at]), Float(bytes[at + 1]), Float(bytes[at + 2])) / 127.5 - 1
        let w = max(0, 1 - (xyz * xyz).sum()).squareRoot()
        return SIMD4(xyz.x, xyz.y, xyz.z, w)
    }

    /// v3+: 32 bits, the top two the largest component's index, then for each other component,
    /// from w down to x, a sign bit and 9 bits of magnitude in units of (1/sqrt 2) / 511.
    static func smallestThree(_ bytes: ArraySlice<UInt8>, at: Int) -> SIMD4<Float> {
        var packed = UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        let largest = Int(packed >> 30)
        var q = SIMD4<Float>.zero
        var sum: Float = 0
        for component in stride(from: 3, through: 0, by: -1) where component != largest {
            let magnitude = Float(packed & 0x1FF) / 511 * (0.5 as Float).squareRoot()
            let negative = (packed >> 9) & 1 == 1
            packed >>= 10
            q[component] = negative ? -magnitude : magnitude
            sum += magnitude * magnitude
        }
        q[largest] = max(0, 1 - sum).squareRoot()
        return q
    }
}

/// Which way a splat source's x, y and z point, named as Niantic's SPZ library and PlayCanvas name
/// them: `rdf` is x right, y down, z forward (COLMAP and the 3DGS trainers' PLY), `rub` x right, y up,
/// z back (SPZ, OpenGL), `luf` x left, y up, z forward.
///
/// The scene's own frame is Y up and right-handed, and USD and glTF coordinates are taken as they
/// are, as their meshes are (usd-core and Blender's importers do the same), so a splat set beside a
/// mesh in one of those files stays where the file put it. A reader changes a source in another
/// convention into the scene frame (`SplatSet.converted`) and records the convention it came in,
/// which a writer of that format family changes back to.
public struct SplatAxes: Sendable, Hashable, CustomStringConvertible {
    /// +1 where the axis points as the scene frame's does (right, up, back), -1 where it is reversed.
    public var signs: SIMD3<Float>

    public init(signs: SIMD3<Float>) { self.signs = signs }

    /// The scene frame: right, up, back.
    public static let rightUpBack = SplatAxes(signs: SIMD3(1, 1, 1))
    /// COLMAP's, and so the 3DGS trainers' PLY output.
    public static let rightDownForward = SplatAxes(signs: SIMD3(1, -1, -1))
    public static let leftUpForward = SplatAxes(signs: SIMD3(-1, 1, -1))

    /// Three letters, one an axis: `r`/`l`, `u`/`d`, `f`/`b` (`rdf`, `rub`, `luf`...); nil for
    /// anything else.
    public init?(name: String) {
        let letters = Array(name.lowercased())
        guard letters.count == 3 else { return nil }
        func sign(_ letter: Character, _ plus: Character, _ minus: Character) -> Float? {
            letter == plus ? 1 : letter == minus ? -1 : nil
        }
        guard let x = sign(letters[0], "r", "l"), let y = sign(letters[1], "u", "d"), let z = sign(letters[2], "b", "f") else { return nil }
        signs = SIMD3(x, y, z)
    }

    public var description: String {
        (signs.x > 0 ? "r" : "l") + (signs.y > 0 ? "u" : "d") + (signs.z > 0 ? "b" : "f")
    }

    /// Whether going between this and the scene frame mirrors (odd number of reversed axes).
    public var isMirrored: Bool { signs.x * signs.y * signs.z < 0 }

    /// For each real SH basis function up to degree 3 (in `SplatSet.sh`'s order), which of x, y, z
    /// it is odd in: reversing an axis negates exactly the functions odd in it.
    static let shParity: [SIMD3<Float>] = [
        SIMD3(0, 0, 0),
        SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, 0, 0),
        SIMD3(1, 1, 0), SIMD3(0, 1, 1), SIMD3(0, 0, 0), SIMD3(1, 0, 1), SIMD3(0, 0, 0),
        SIMD3(0, 1, 0), SIMD3(1, 1, 1), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, 0, 0), SIMD3(0, 0, 1), SIMD3(1, 0, 0),
    ]

    /// The factor (+1 or -1) each coefficient takes when data in `self` is written in `other`.
    func shSigns(to other: SplatAxes, coefficients: Int) -> [Float] {
        let flip = signs * other.signs  // -1 on the axes that reverse
        return (0..<coefficients).map { k in
            let p = Self.shParity[k]
            var sign: Float = 1
            for axis in 0..<3 where flip[axis] < 0 && p[axis] == 1 { sign = -sign }
            return sign
        }
    }
}

extension SplatSet {
    /// The same splats with their data written in `target` instead of `source`: centres and
    /// quaternions mirrored or turned, SH coefficients re-signed (exact: between these conventions
    /// every axis maps onto an axis). `axes` is left alone; it names where the data came from.
    public func converted(from source: SplatAxes, to target: SplatAxes) -> SplatSet {
        var out = self
        out.convert(from: source, to: target)
        return out
    }

    /// `converted`, in place: a reader's own set changes without a copy of its arrays.
    public mutating func convert(from source: SplatAxes, to target: SplatAxes) {
        guard source != target else { return }
        let (centerSigns, rotationSigns, perCoefficient) = source.componentSigns(to: target, coefficients: coefficientsPerSplat)
        centers.scaleComponents(by: [centerSigns.x, centerSigns.y, centerSigns.z])
        rotations.scaleComponents(by: [rotationSigns.x, rotationSigns.y, rotationSigns.z, rotationSigns.w])
        if perCoefficient.contains(-1) { sh.scaleComponents(by: perCoefficient.flatMap { [$0, $0, $0] }) }
    }
}

extension SplatAxes {
    /// The factors (+1 or -1) that write data given in `self` in `target`: for a centre's x, y,
    /// z, a quaternion's x, y, z, w, and each SH coefficient. A reader that decodes value by value
    /// applies them as it writes (`SplatSet.convert` applies them to a whole set).
    public func componentSigns(to target: SplatAxes, coefficients: Int) -> (centers: SIMD3<Float>, rotations: SIMD4<Float>, sh: [Float]) {
        let flip = signs * target.signs
        // A rotation seen through the axis change S is S R S: its quaternion keeps w and takes
        // S v for its vector, negated when S mirrors.
        let vectorSign: Float = flip.x * flip.y * flip.z < 0 ? -1 : 1
        return (flip, SIMD4(flip * vectorSign, 1), shSigns(to: target, coefficients: coefficients))
    }
}

extension SplatScalars {
    /// Each group of `factors.count` values multiplied by `factors`, in place and in the same
    /// precision. A loop over groups, not a closure per value: a million splats of degree 3 are 48
    /// million coefficients. The storage is moved out of `self` while it changes (`consume`: a
    /// plain `switch self` keeps a second reference alive through the case, which made every
    /// change copy the whole array), so it is not copied.
    mutating func scaleComponents(by factors: [Float]) {
        let stride = factors.count
        switch consume self {
        case .float(var values):
            values.withUnsafeMutableBufferPointer { buffer in
                nonisolated(unsafe) let buffer = buffer
                // Both halves at once: 192 MB of coefficients is a pass limited by memory bandwidth.
                SplitReduction.forEachHalf(count: buffer.count / stride) { groups in
                    for g in groups {
                        let base = g * stride
                        for k in 0..<stride { buffer[base + k] *= factors[k] }
                    }
                }
            }
            self = .float(values)
        case .half(var values):
            values.withUnsafeMutableBufferPointer { buffer in
                for i in buffer.indices where factors[i % stride] != 1 { buffer[i] = Float16(Float(buffer[i]) * factors[i % stride]) }
            }
            self = .half(values)
        }
    }
}

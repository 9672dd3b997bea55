/// A rotation quaternion, real part first as USD's `quatf(real, i, j, k)` writes it.
public struct Quaternion: Sendable, Hashable, Codable {
    public var real: Double
    public var imaginary: SIMD3<Double>

    public init(real: Double, imaginary: SIMD3<Double>) {
        self.real = real
        self.imaginary = imaginary
    }

    public static let identity = Quaternion(real: 1, imaginary: .zero)

    public var length: Double { (real * real + Vector.dot(imaginary, imaginary)).squareRoot() }

    /// Unit length; a zero quaternion stays identity rather than becoming NaN.
    public var normalized: Quaternion {
        let l = length
        guard l > 0, l.isFinite else { return .identity }
        return Quaternion(real: real / l, imaginary: imaginary / l)
    }
}

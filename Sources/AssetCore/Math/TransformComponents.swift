#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A local transform as translation, rotation and scale: what glTF nodes store, what USD's
/// SkelAnimation samples and what animation channels drive one part of at a time.
public struct TransformComponents: Sendable, Equatable {
    public var translation: SIMD3<Double>
    public var rotation: Quaternion
    public var scale: SIMD3<Double>

    public init(translation: SIMD3<Double> = .zero, rotation: Quaternion = .identity, scale: SIMD3<Double> = .one) {
        self.translation = translation
        self.rotation = rotation
        self.scale = scale
    }

    /// T * R * S: a point is scaled, then rotated, then moved.
    public var matrix: Matrix4x4 {
        var m = Matrix4x4.rotation(rotation)
        m.c0 *= scale.x
        m.c1 *= scale.y
        m.c2 *= scale.z
        m.c3 = SIMD4(translation.x, translation.y, translation.z, 1)
        return m
    }

    /// Splits an affine matrix into T * R * S. Shear cannot be represented and is lost; a negative
    /// determinant is carried by a negative x scale, as usd-core's decomposition also chooses one axis.
    public init(_ m: Matrix4x4) {
        translation = m.translation
        var x = SIMD3(m.c0.x, m.c0.y, m.c0.z), y = SIMD3(m.c1.x, m.c1.y, m.c1.z), z = SIMD3(m.c2.x, m.c2.y, m.c2.z)
        var s = SIMD3(Vector.length(x), Vector.length(y), Vector.length(z))
        if m.linearDeterminant < 0 { s.x = -s.x }
        if s.x != 0 { x /= s.x }
        if s.y != 0 { y /= s.y }
        if s.z != 0 { z /= s.z }
        scale = s
        rotation = Quaternion(rotationColumns: x, y, z)
    }
}

extension Quaternion {
    /// The rotation whose matrix has these unit columns (Shepperd's method: pick the largest
    /// diagonal term so the square root never nears zero).
    public init(rotationColumns x: SIMD3<Double>, _ y: SIMD3<Double>, _ z: SIMD3<Double>) {
        let trace = x.x + y.y + z.z
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            self.init(real: s / 4, imaginary: SIMD3((y.z - z.y) / s, (z.x - x.z) / s, (x.y - y.x) / s))
        } else if x.x > y.y && x.x > z.z {
            let s = (1 + x.x - y.y - z.z).squareRoot() * 2
            self.init(real: (y.z - z.y) / s, imaginary: SIMD3(s / 4, (y.x + x.y) / s, (z.x + x.z) / s))
        } else if y.y > z.z {
            let s = (1 + y.y - x.x - z.z).squareRoot() * 2
            self.init(real: (z.x - x.z) / s, imaginary: SIMD3((y.x + x.y) / s, s / 4, (z.y + y.z) / s))
        } else {
            let s = (1 + z.z - x.x - y.y).squareRoot() * 2
            self.init(real: (x.y - y.x) / s, imaginary: SIMD3((z.x + x.z) / s, (z.y + y.z) / s, s / 4))
        }
        self = normalized
    }

    public func dot(_ other: Quaternion) -> Double { real * other.real + Vector.dot(imaginary, other.imaginary) }

    public static prefix func - (q: Quaternion) -> Quaternion { Quaternion(real: -q.real, imaginary: -q.imaginary) }

    /// Spherical interpolation along the shorter arc, as glTF and UsdSkel interpolate rotations.
    public static func slerp(_ a: Quaternion, _ b: Quaternion, _ t: Double) -> Quaternion {
        var b = b
        var cosine = a.dot(b)
        if cosine < 0 {
            b = -b
            cosine = -cosine
        }
        let wa: Double, wb: Double
        if cosine > 0.9995 {
            // Nearly parallel: sin(angle) underflows, and a normalised lerp is as accurate.
            wa = 1 - t
            wb = t
        } else {
            let angle = acos(cosine), sine = sin(angle)
            wa = sin((1 - t) * angle) / sine
            wb = sin(t * angle) / sine
        }
        return Quaternion(real: wa * a.real + wb * b.real, imaginary: wa * a.imaginary + wb * b.imaginary).normalized
    }
}

// The simd module is Apple-only; these are the few vector helpers the project needs on Linux. They
// live in a namespace so that, on Apple platforms, they never collide with simd's free functions.
public enum Vector {
    @inlinable public static func dot<T: FloatingPoint & SIMDScalar>(_ a: SIMD3<T>, _ b: SIMD3<T>) -> T {
        a.x * b.x + a.y * b.y + a.z * b.z
    }

    @inlinable public static func cross<T: FloatingPoint & SIMDScalar>(_ a: SIMD3<T>, _ b: SIMD3<T>) -> SIMD3<T> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    @inlinable public static func length<T: FloatingPoint & SIMDScalar>(_ a: SIMD3<T>) -> T {
        dot(a, a).squareRoot()
    }

    @inlinable public static func normalize<T: FloatingPoint & SIMDScalar>(_ a: SIMD3<T>) -> SIMD3<T> {
        let l = length(a)
        return l > 0 ? a / l : a
    }
}

extension SIMD3 where Scalar == Float {
    @inlinable public var double: SIMD3<Double> { SIMD3<Double>(Double(x), Double(y), Double(z)) }
    // Always inlined: left to the optimizer, the renderer's splat loops called it (a tenth of
    // their bounds pass by perf).
    @inlinable @inline(__always) public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
}

extension SIMD3 where Scalar == Double {
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
}

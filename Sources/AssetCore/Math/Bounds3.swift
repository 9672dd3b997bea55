/// An axis-aligned box; `empty` until a point is added.
public struct Bounds3: Sendable, Hashable, Codable {
    public var min: SIMD3<Double>
    public var max: SIMD3<Double>

    public init(min: SIMD3<Double>, max: SIMD3<Double>) {
        self.min = min
        self.max = max
    }

    public static let empty = Bounds3(
        min: SIMD3(repeating: .infinity), max: SIMD3(repeating: -.infinity))

    public var isEmpty: Bool { min.x > max.x || min.y > max.y || min.z > max.z }

    public mutating func include(_ p: SIMD3<Double>) {
        min = pointwiseMin(min, p)
        max = pointwiseMax(max, p)
    }

    public mutating func formUnion(_ other: Bounds3) {
        guard !other.isEmpty else { return }
        min = pointwiseMin(min, other.min)
        max = pointwiseMax(max, other.max)
    }

    public var center: SIMD3<Double> { (min + max) / 2 }
    public var size: SIMD3<Double> { isEmpty ? .zero : max - min }

    /// Radius of the sphere around `center` that holds the box.
    public var boundingSphereRadius: Double { isEmpty ? 0 : Vector.length(max - min) / 2 }

    public var corners: [SIMD3<Double>] {
        [
            SIMD3(min.x, min.y, min.z), SIMD3(max.x, min.y, min.z),
            SIMD3(min.x, max.y, min.z), SIMD3(max.x, max.y, min.z),
            SIMD3(min.x, min.y, max.z), SIMD3(max.x, min.y, max.z),
            SIMD3(min.x, max.y, max.z), SIMD3(max.x, max.y, max.z),
        ]
    }

    /// Scales both corners, e.g. from file units to metres.
    public func scaled(by factor: Double) -> Bounds3 {
        isEmpty ? self : Bounds3(min: min * factor, max: max * factor)
    }
}

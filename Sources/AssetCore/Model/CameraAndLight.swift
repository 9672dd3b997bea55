/// A camera kept from the source (USD Camera, Collada `<camera>`), looking down -Z of its node.
public struct Camera: Sendable, Equatable {
    public var name: String
    public var projection: Projection
    /// Vertical field of view in degrees (perspective).
    public var verticalFieldOfView: Double
    /// Vertical extent in scene units (orthographic).
    public var orthographicHeight: Double
    public var near: Double
    public var far: Double

    public init(
        name: String, projection: Projection = .perspective, verticalFieldOfView: Double = 60,
        orthographicHeight: Double = 1, near: Double = 0.1, far: Double = 1000
    ) {
        self.name = name
        self.projection = projection
        self.verticalFieldOfView = verticalFieldOfView
        self.orthographicHeight = orthographicHeight
        self.near = near
        self.far = far
    }

    public enum Projection: String, Sendable, Hashable, Codable {
        case perspective
        case orthographic
    }
}

/// A light kept from the source, shining down -Z of its node where it has a direction.
public struct Light: Sendable, Equatable {
    public var name: String
    public var kind: Kind
    public var color: SIMD3<Float>
    public var intensity: Float

    public init(name: String, kind: Kind, color: SIMD3<Float> = .one, intensity: Float = 1) {
        self.name = name
        self.kind = kind
        self.color = color
        self.intensity = intensity
    }

    public enum Kind: String, Sendable, Hashable, Codable {
        case ambient
        case directional
        case point
        case spot
    }
}

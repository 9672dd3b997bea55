/// Per-element data attached to a mesh (normals, texture coordinates, colours, tangents, ...),
/// with the interpolation that says which element each value belongs to.
public struct Primvar: Sendable, Equatable {
    public static let normalsName = "normals"
    public static let displayColorName = "displayColor"
    public static let displayOpacityName = "displayOpacity"
    /// A point cloud's point sizes (UsdGeomPoints' `widths`), diameters in scene units.
    public static let widthsName = "widths"

    public var name: String
    public var interpolation: Interpolation
    public var values: PrimvarValues
    /// When present, element i takes `values[indices[i]]` (USD `primvars:x:indices`, Collada's `<p>` offsets).
    public var indices: [Int32]?
    public var role: Role

    public init(
        name: String, interpolation: Interpolation, values: PrimvarValues,
        indices: [Int32]? = nil, role: Role = .none
    ) {
        self.name = name
        self.interpolation = interpolation
        self.values = values
        self.indices = indices
        self.role = role
    }

    /// UsdGeomPrimvar interpolation tokens.
    public enum Interpolation: String, Sendable, Hashable, Codable, CaseIterable {
        case constant
        case uniform
        case varying
        case vertex
        case faceVarying

        /// How many elements a mesh needs for this interpolation.
        public func elementCount(for mesh: Mesh) -> Int {
            switch self {
            case .constant: return 1
            case .uniform: return mesh.faceVertexCounts.count
            case .vertex, .varying: return mesh.points.count
            case .faceVarying: return mesh.faceVertexIndices.count
            }
        }
    }

    /// USD's value roles that matter to assetc.
    public enum Role: String, Sendable, Hashable, Codable {
        case none
        case normal
        case color
        case textureCoordinate
        case vector
        case point
    }

    /// One value per point, taken by the point's own index: corners need no index of their own.
    public var followsPoints: Bool { (interpolation == .vertex || interpolation == .varying) && indices == nil }

    /// Number of elements the primvar provides (the indices' count when indexed).
    public var elementCount: Int { indices?.count ?? values.count }
}

/// Primvar values in contiguous buffers of their natural width.
public enum PrimvarValues: Sendable, Equatable {
    case float([Float])
    case float2([SIMD2<Float>])
    case float3([SIMD3<Float>])
    case float4([SIMD4<Float>])

    public var count: Int {
        switch self {
        case .float(let v): return v.count
        case .float2(let v): return v.count
        case .float3(let v): return v.count
        case .float4(let v): return v.count
        }
    }

    public var componentCount: Int {
        switch self {
        case .float: return 1
        case .float2: return 2
        case .float3: return 3
        case .float4: return 4
        }
    }
}

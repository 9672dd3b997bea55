/// Polygonal geometry shaped like UsdGeomMesh: n-gons are kept, and triangulation is a derived view
/// (`Mesh.triangulated()`), never the storage.
public struct Mesh: Sendable, Equatable {
    public var name: String
    public var points: [SIMD3<Float>]
    /// Vertices per face; a face of n vertices is n consecutive entries of `faceVertexIndices`.
    public var faceVertexCounts: [Int32]
    /// Indices into `points`, face after face.
    public var faceVertexIndices: [Int32]
    public var orientation: Orientation
    public var primvars: [Primvar]
    public var subsets: [GeomSubset]
    public var isDoubleSided: Bool
    /// Where the mesh came from: authored polygons, or a tessellated intrinsic shape (USD Cube, Sphere...).
    public var origin: Origin
    /// Joint influences per point, for instances bound to a skeleton.
    public var skinWeights: SkinWeights?
    public var blendShapes: [BlendShape] = []

    public init(
        name: String,
        points: [SIMD3<Float>] = [],
        faceVertexCounts: [Int32] = [],
        faceVertexIndices: [Int32] = [],
        orientation: Orientation = .rightHanded,
        primvars: [Primvar] = [],
        subsets: [GeomSubset] = [],
        isDoubleSided: Bool = false,
        origin: Origin = .authored
    ) {
        self.name = name
        self.points = points
        self.faceVertexCounts = faceVertexCounts
        self.faceVertexIndices = faceVertexIndices
        self.orientation = orientation
        self.primvars = primvars
        self.subsets = subsets
        self.isDoubleSided = isDoubleSided
        self.origin = origin
    }

    public enum Orientation: String, Sendable, Hashable, Codable {
        case rightHanded
        case leftHanded
    }

    public enum Origin: Sendable, Hashable {
        case authored
        /// Tessellated from an intrinsic shape, named as its source names it ("Cube", "Sphere").
        case primitive(String)

        public var isAuthored: Bool { self == .authored }
    }

    public var faceCount: Int { faceVertexCounts.count }

    /// Sum over faces of (n - 2): what the stats contract counts, before degenerate faces are dropped.
    public var triangleCount: Int {
        faceVertexCounts.reduce(0) { $0 + Swift.max(Int($1) - 2, 0) }
    }

    public func primvar(named name: String) -> Primvar? {
        primvars.first { $0.name == name }
    }

    /// Surface normals: the `normals` primvar (USD's `normals` attribute and `primvars:normals`).
    public var normals: Primvar? { primvar(named: Primvar.normalsName) }

    /// Texture-coordinate sets (2-component primvars with a texcoord role), in authored order.
    public var texcoordSets: [Primvar] { primvars.filter { $0.role == .textureCoordinate } }
}

/// USD's GeomSubset with familyName materialBind: a list of faces that take their own material.
public struct GeomSubset: Sendable, Equatable {
    public var name: String
    public var faceIndices: [Int32]

    public init(name: String, faceIndices: [Int32]) {
        self.name = name
        self.faceIndices = faceIndices
    }
}

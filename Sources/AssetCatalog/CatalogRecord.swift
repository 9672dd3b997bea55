import AssetCore

/// One row of the `asset` table: a model or a texture under an indexed root. Plain `Codable`: each
/// engine maps it to its own rows (CatalogSQLite through GRDB, CatalogPostgres through JSON).
public struct CatalogRecord: Codable, Sendable, Equatable {
    /// The table both engines keep records in.
    public static let tableName = "asset"

    public typealias Kind = AssetFormat.Kind

    /// Stable id: the path relative to the indexed root's parent (`Art.scnassets/ship.dae`).
    public var id: String
    /// Absolute path of the indexed root the asset was found under.
    public var root: String
    public var kind: Kind
    public var format: AssetFormat
    public var byteSize: Int64
    public var contentHash: String
    /// Modification time, seconds since 1970.
    public var modifiedAt: Double
    /// The object's entity tag, for an asset indexed from a bucket: an unchanged tag means
    /// unchanged bytes, so the object is not read again. Nil for files on disk.
    public var etag: String?
    public var nodes: Int?
    public var meshes: Int?
    public var points: Int?
    public var faces: Int?
    public var triangles: Int?
    public var primitives: Int?
    public var materials: Int?
    public var textures: Int?
    public var skeletons: Int?
    public var joints: Int?
    public var skinnedMeshes: Int?
    public var blendShapes: Int?
    public var animations: Int?
    public var animatedNodes: Int?
    /// Seconds of animation.
    public var duration: Double?
    /// Gaussian splats placed, and the highest SH degree among their sets.
    public var splats: Int?
    public var splatSHDegree: Int?
    public var minX: Double?, minY: Double?, minZ: Double?
    public var maxX: Double?, maxY: Double?, maxZ: Double?
    /// Bounds in metres.
    public var minXMeters: Double?, minYMeters: Double?, minZMeters: Double?
    public var maxXMeters: Double?, maxYMeters: Double?, maxZMeters: Double?
    public var upAxis: String?
    public var metersPerUnit: Double?
    public var missingTextures: Int
    public var warningCount: Int
    /// Why the file could not be read; nil when it was.
    public var error: String?
    /// The ARKit verdict (`assetc validate`) for USD models: how many errors and warnings; nil for
    /// assets that are not USD or could not be validated.
    public var arkitErrors: Int?
    public var arkitWarnings: Int?
    /// The cached thumbnail, relative to the catalog's folder.
    public var thumbnail: String?
    public var indexedAt: Double

    public init(id: String, root: String, kind: Kind, format: AssetFormat, byteSize: Int64, contentHash: String,
                modifiedAt: Double, indexedAt: Double) {
        self.id = id
        self.root = root
        self.kind = kind
        self.format = format
        self.byteSize = byteSize
        self.contentHash = contentHash
        self.modifiedAt = modifiedAt
        self.missingTextures = 0
        self.warningCount = 0
        self.indexedAt = indexedAt
    }

    /// The integer animation figures' columns (with `duration`, a double).
    public static let animationColumns = ["skeletons", "joints", "skinnedMeshes", "blendShapes", "animations", "animatedNodes"]

    /// Whether the asset has a moving preview: its first clip, or a turntable of its splats.
    public var hasPreview: Bool { (animations ?? 0) > 0 || (splats ?? 0) > 0 }

    public var bounds: Bounds3? {
        guard let minX, let minY, let minZ, let maxX, let maxY, let maxZ else { return nil }
        return Bounds3(min: [minX, minY, minZ], max: [maxX, maxY, maxZ])
    }

    public mutating func setBounds(_ bounds: Bounds3?, metersPerUnit: Double) {
        guard let b = bounds, !b.isEmpty else { return }
        (minX, minY, minZ, maxX, maxY, maxZ) = (b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z)
        let m = b.scaled(by: metersPerUnit)
        (minXMeters, minYMeters, minZMeters, maxXMeters, maxYMeters, maxZMeters) = (m.min.x, m.min.y, m.min.z, m.max.x, m.max.y, m.max.z)
    }
}

/// Everything the catalog keeps about one asset: its row and its child rows.
public struct CatalogEntry: Sendable, Equatable {
    public var record: CatalogRecord
    /// Node paths and material names, searchable.
    public var nodeNames: [String]
    public var materialNames: [String]
    public var textureReferences: [TextureReferenceRow]
    public var warnings: [String]
    /// The ARKit rules the asset fails (usdchecker's names), sorted.
    public var arkitRules: [String]

    public init(record: CatalogRecord, nodeNames: [String] = [], materialNames: [String] = [],
                textureReferences: [TextureReferenceRow] = [], warnings: [String] = [], arkitRules: [String] = []) {
        self.record = record
        self.nodeNames = nodeNames
        self.materialNames = materialNames
        self.textureReferences = textureReferences
        self.warnings = warnings
        self.arkitRules = arkitRules
    }
}

/// A texture a model refers to, and whether it resolves. `resolvedID` is the texture's own asset id
/// when it lies under an indexed root, which links the two rows.
public struct TextureReferenceRow: Codable, Sendable, Equatable {
    public var path: String
    public var resolves: Bool
    public var resolvedID: String?

    public init(path: String, resolves: Bool, resolvedID: String?) {
        self.path = path
        self.resolves = resolves
        self.resolvedID = resolvedID
    }
}

/// The few fields of a record that serving its file, thumbnail or conversion needs.
public struct CatalogSummary: Sendable, Equatable {
    public var id: String
    public var root: String
    public var kind: CatalogRecord.Kind
    public var format: AssetFormat
    public var byteSize: Int64
    public var contentHash: String
    public var error: String?

    public init(id: String, root: String, kind: CatalogRecord.Kind, format: AssetFormat, byteSize: Int64, contentHash: String, error: String? = nil) {
        (self.id, self.root, self.kind, self.format) = (id, root, kind, format)
        (self.byteSize, self.contentHash, self.error) = (byteSize, contentHash, error)
    }

    /// A summary as an engine reads its columns back: a kind or format no assetc writes (a row
    /// changed by hand, or by a newer version) is an error naming the asset, not a guess.
    package init(id: String, root: String, kindName: String, formatName: String, byteSize: Int64, contentHash: String,
                 error: String?) throws(AssetError) {
        guard let kind = CatalogRecord.Kind(rawValue: kindName), let format = AssetFormat(rawValue: formatName) else {
            throw AssetError(.malformed("the catalog's row for '\(id)' has kind '\(kindName)' and format '\(formatName)', which assetc does not know"))
        }
        self.init(id: id, root: root, kind: kind, format: format, byteSize: byteSize, contentHash: contentHash, error: error)
    }
}

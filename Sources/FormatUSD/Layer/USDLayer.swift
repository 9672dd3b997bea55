import AssetCore

/// One parsed layer: a usda file or a package entry, shaped like the file (prim specs nested as
/// written), before composition.
public struct USDLayer: Sendable {
    /// Where the layer came from; asset paths in it resolve relative to this.
    public var location: AssetLocation
    /// How messages name the layer (its location, a staged file by its `s3://` one).
    public var name: String
    public var metadata: [String: USDValue] = [:]
    public var subLayers: [String] = []
    public var rootPrims: [USDPrimSpec] = []

    public init(location: AssetLocation, name: String? = nil) {
        self.location = location
        self.name = name ?? location.description
    }

    public var defaultPrim: String? { metadata["defaultPrim"]?.stringValue }
    public var upAxis: String? { metadata["upAxis"]?.stringValue }
    public var metersPerUnit: Double? { metadata["metersPerUnit"]?.doubleValue }
    public var startTimeCode: Double? { metadata["startTimeCode"]?.doubleValue }
    public var endTimeCode: Double? { metadata["endTimeCode"]?.doubleValue }
    /// `timeCodesPerSecond`, else `framesPerSecond`, as usd-core falls back; nil when neither is authored.
    public var timeCodesPerSecond: Double? { metadata["timeCodesPerSecond"]?.doubleValue ?? metadata["framesPerSecond"]?.doubleValue }

    /// The prim spec at an absolute path such as `/World/Head`, or nil.
    public func primSpec(at path: String) -> USDPrimSpec? {
        var specs = rootPrims
        var found: USDPrimSpec?
        for name in path.split(separator: "/") {
            guard let next = specs.first(where: { $0.name == name }) else { return nil }
            found = next
            specs = next.children
        }
        return found
    }
}

public enum USDSpecifier: String, Sendable {
    case def
    case over
    case `class`
}

/// A `def`, `over` or `class` block.
public struct USDPrimSpec: Sendable {
    public var specifier: USDSpecifier
    public var typeName: String
    public var name: String
    public var line: Int
    public var metadata: [String: USDValue] = [:]
    public var references: [USDReference] = []
    public var payloads: [USDReference] = []
    public var inherits: [String] = []
    public var variantSelections: [String: String] = [:]
    /// Variant set name -> variant name -> the variant's body.
    public var variantSets: [String: [String: USDPrimSpec]] = [:]
    public var properties: [USDPropertySpec] = []
    public var children: [USDPrimSpec] = []

    public init(specifier: USDSpecifier, typeName: String, name: String, line: Int) {
        self.specifier = specifier
        self.typeName = typeName
        self.name = name
        self.line = line
    }
}

/// An attribute or relationship as authored in one spec.
public struct USDPropertySpec: Sendable {
    public var name: String
    /// Declared value type (`point3f[]`, `token`, `matrix4d`); "rel" for relationships.
    public var typeName: String
    public var isRelationship: Bool
    public var isUniform: Bool
    public var line: Int
    public var defaultValue: USDValue?
    public var timeSamples: [(time: Double, value: USDValue)]?
    /// `.connect` targets (attributes) or relationship targets, as absolute or relative paths.
    public var targets: [String]?
    public var metadata: [String: USDValue] = [:]

    public init(name: String, typeName: String, isRelationship: Bool, isUniform: Bool, line: Int) {
        self.name = name
        self.typeName = typeName
        self.isRelationship = isRelationship
        self.isUniform = isUniform
        self.line = line
    }
}

extension USDPropertySpec {
    /// An attribute as a writer (or a repair) authors it; built specs have no source line.
    public static func attribute(_ name: String, _ typeName: String, _ value: USDValue?, uniform: Bool = false,
                                 metadata: [String: USDValue] = [:]) -> USDPropertySpec {
        var spec = USDPropertySpec(name: name, typeName: typeName, isRelationship: false, isUniform: uniform, line: 0)
        spec.defaultValue = value
        spec.metadata = metadata
        return spec
    }
}

/// A reference or payload arc: `@asset@</Prim>`, or `</Prim>` inside the same layer stack.
public struct USDReference: Sendable, Equatable {
    /// Empty for an internal reference.
    public var assetPath: String
    /// nil: the target layer's defaultPrim.
    public var primPath: String?
    public var line: Int
}

import AssetCore

/// One parsed layer: a usda file or a package entry, shaped like the file (prim specs nested as
/// written), before composition.
package struct USDLayer: Sendable {
    /// Where the layer came from; asset paths in it resolve relative to this.
    package var location: AssetLocation
    package var metadata: [String: USDValue] = [:]
    package var subLayers: [String] = []
    package var rootPrims: [USDPrimSpec] = []

    package init(location: AssetLocation) {
        self.location = location
    }

    package var defaultPrim: String? { metadata["defaultPrim"]?.stringValue }
    package var upAxis: String? { metadata["upAxis"]?.stringValue }
    package var metersPerUnit: Double? { metadata["metersPerUnit"]?.doubleValue }
    package var startTimeCode: Double? { metadata["startTimeCode"]?.doubleValue }

    /// The prim spec at an absolute path such as `/World/Head`, or nil.
    package func primSpec(at path: String) -> USDPrimSpec? {
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

package enum USDSpecifier: String, Sendable {
    case def
    case over
    case `class`
}

/// A `def`, `over` or `class` block.
package struct USDPrimSpec: Sendable {
    package var specifier: USDSpecifier
    package var typeName: String
    package var name: String
    package var line: Int
    package var metadata: [String: USDValue] = [:]
    package var references: [USDReference] = []
    package var payloads: [USDReference] = []
    package var inherits: [String] = []
    package var variantSelections: [String: String] = [:]
    /// Variant set name -> variant name -> the variant's body.
    package var variantSets: [String: [String: USDPrimSpec]] = [:]
    package var properties: [USDPropertySpec] = []
    package var children: [USDPrimSpec] = []

    package init(specifier: USDSpecifier, typeName: String, name: String, line: Int) {
        self.specifier = specifier
        self.typeName = typeName
        self.name = name
        self.line = line
    }
}

/// An attribute or relationship as authored in one spec.
package struct USDPropertySpec: Sendable {
    package var name: String
    /// Declared value type (`point3f[]`, `token`, `matrix4d`); "rel" for relationships.
    package var typeName: String
    package var isRelationship: Bool
    package var isUniform: Bool
    package var line: Int
    package var defaultValue: USDValue?
    package var timeSamples: [(time: Double, value: USDValue)]?
    /// `.connect` targets (attributes) or relationship targets, as absolute or relative paths.
    package var targets: [String]?
    package var metadata: [String: USDValue] = [:]

    package init(name: String, typeName: String, isRelationship: Bool, isUniform: Bool, line: Int) {
        self.name = name
        self.typeName = typeName
        self.isRelationship = isRelationship
        self.isUniform = isUniform
        self.line = line
    }
}

/// A reference or payload arc: `@asset@</Prim>`, or `</Prim>` inside the same layer stack.
package struct USDReference: Sendable, Equatable {
    /// Empty for an internal reference.
    package var assetPath: String
    /// nil: the target layer's defaultPrim.
    package var primPath: String?
    package var line: Int
}

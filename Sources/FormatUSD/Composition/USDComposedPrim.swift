import AssetCore

/// A prim after composition: every layer's and every arc's opinions resolved, strongest winning.
/// Paths in relationship and connection targets are in the stage's namespace.
public struct USDComposedPrim {
    public var name: String
    public var path: String
    public var typeName: String
    public var specifier: USDSpecifier
    public var metadata: [String: USDValue]
    public var properties: [String: USDComposedProperty]
    public var children: [USDComposedPrim]
    /// Where the strongest spec was written, for diagnostics.
    public var location: SourceLocation

    public var isDefined: Bool { specifier == .def }
    /// `active = false` deactivates a prim and its subtree; unauthored means active.
    public var isActive: Bool { metadata["active"]?.boolValue ?? true }
    /// The applied API schemas (`prepend apiSchemas = [...]`), as authored on the strongest spec.
    public var appliedSchemas: [String] { metadata["apiSchemas"]?.strings ?? [] }
    /// The model kind (`component`, `group`, `assembly`...), when authored.
    public var kind: String? { metadata["kind"]?.stringValue }

    public func attribute(_ name: String) -> USDComposedProperty? { properties[name] }
}

public struct USDComposedProperty {
    public var spec: USDPropertySpec
    /// The layer whose opinion won; asset-valued attributes resolve against it.
    public var layer: AssetLocation
    /// `spec.targets` made absolute and mapped into the stage's namespace.
    public var targets: [String]
    /// Interpolation and other property metadata, strongest opinion per key.
    public var metadata: [String: USDValue]

    public var typeName: String { spec.typeName }
    public var name: String { spec.name }
    public var isRelationship: Bool { spec.isRelationship }
    /// A primvar's `interpolation`, when authored.
    public var interpolation: String? { metadata["interpolation"]?.stringValue }
    /// A primvar's `elementSize`, when authored.
    public var elementSize: Int? { metadata["elementSize"]?.doubleValue.map { Int($0) } }
    /// The value as usd-core's `Get(EarliestTime)` sees it: the earliest time sample, else the
    /// default; nil when neither is authored (or the default is `None`).
    public var earliestValue: USDValue? {
        if let earliest = spec.timeSamples?.min(by: { $0.time < $1.time }) { return earliest.value }
        if let value = spec.defaultValue, value != .none { return value }
        return nil
    }
}

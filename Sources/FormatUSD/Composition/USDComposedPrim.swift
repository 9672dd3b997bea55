import AssetCore

/// A prim after composition: every layer's and every arc's opinions resolved, strongest winning.
/// Paths in relationship and connection targets are in the stage's namespace.
struct USDComposedPrim {
    var name: String
    var path: String
    var typeName: String
    var specifier: USDSpecifier
    var metadata: [String: USDValue]
    var properties: [String: USDComposedProperty]
    var children: [USDComposedPrim]
    /// Where the strongest spec was written, for diagnostics.
    var location: SourceLocation

    var isDefined: Bool { specifier == .def }

    func attribute(_ name: String) -> USDComposedProperty? { properties[name] }
}

struct USDComposedProperty {
    var spec: USDPropertySpec
    /// The layer whose opinion won; asset-valued attributes resolve against it.
    var layer: AssetLocation
    /// `spec.targets` made absolute and mapped into the stage's namespace.
    var targets: [String]
    /// Interpolation and other property metadata, strongest opinion per key.
    var metadata: [String: USDValue]

    var typeName: String { spec.typeName }
}

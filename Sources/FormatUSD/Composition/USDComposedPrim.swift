import AssetCore

/// A prim after composition: every layer's and every arc's opinions resolved, strongest winning.
/// Paths in relationship and connection targets are in the stage's namespace.
package struct USDComposedPrim {
    package var name: String
    package var path: String
    package var typeName: String
    package var specifier: USDSpecifier
    package var metadata: [String: USDValue]
    package var properties: [String: USDComposedProperty]
    package var children: [USDComposedPrim]
    /// Where the strongest spec was written, for diagnostics.
    package var location: SourceLocation

    package var isDefined: Bool { specifier == .def }

    package func attribute(_ name: String) -> USDComposedProperty? { properties[name] }
}

package struct USDComposedProperty {
    package var spec: USDPropertySpec
    /// The layer whose opinion won; asset-valued attributes resolve against it.
    package var layer: AssetLocation
    /// `spec.targets` made absolute and mapped into the stage's namespace.
    package var targets: [String]
    /// Interpolation and other property metadata, strongest opinion per key.
    package var metadata: [String: USDValue]

    package var typeName: String { spec.typeName }
}

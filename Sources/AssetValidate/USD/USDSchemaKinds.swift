/// Which prim types are what, as OpenUSD's schema registry says (usd-core 24.11's `IsA` and
/// `UsdShade.ConnectableAPI` answers, listed here because assetc carries no schema registry).
enum USDSchemaKinds {
    /// UsdGeomGprim and its descendants.
    static let gprims: Set<String> = [
        "Mesh", "Sphere", "Cube", "Cylinder", "Cylinder_1", "Cone", "Capsule", "Capsule_1", "Plane", "Points",
        "BasisCurves", "NurbsCurves", "HermiteCurves", "NurbsPatch", "TetMesh", "Volume",
    ]

    /// UsdGeomBoundable: gprims plus the boundable non-gprims.
    static let boundables: Set<String> = gprims.union([
        "PointInstancer", "SkelRoot", "Skeleton", "SphereLight", "RectLight", "DiskLight", "CylinderLight", "PortalLight",
    ])

    /// Typed prims UsdShadeConnectableAPI accepts; all but Shader are containers.
    static let connectables: Set<String> = lights.union(["Shader", "Material", "NodeGraph"])

    static let lights: Set<String> = [
        "SphereLight", "RectLight", "DiskLight", "CylinderLight", "PortalLight", "DistantLight", "DomeLight", "DomeLight_1",
        "GeometryLight", "PluginLight", "LightFilter", "PluginLightFilter",
    ]

    /// UsdGeomImageable and its descendants: what a GeomSubset may sit under.
    static let imageables: Set<String> = boundables.union(lights).union([
        "Xform", "Scope", "Camera", "SkelRoot", "Skeleton", "PointInstancer", "Volume", "GeometryLight",
    ])

    static func isConnectable(_ typeName: String) -> Bool { connectables.contains(typeName) }
    static func isContainer(_ typeName: String) -> Bool { connectables.contains(typeName) && typeName != "Shader" }

    /// Whether a connection may name this output without its being authored (a Material's built-ins).
    static func isBuiltInOutput(_ name: String, of typeName: String) -> Bool {
        typeName == "Material" && (name == "outputs:surface" || name == "outputs:displacement" || name == "outputs:volume")
    }
}

/// One place in the hierarchy: a USD prim or a Collada `<node>`.
///
/// Paths (`/Root/Head/Jaw`) are made of node names, so readers give siblings distinct names.
public struct Node: Sendable, Equatable {
    public var name: String
    /// The type the source names it by ("Xform", "Mesh", "Scope", "node", ...), for trees and search.
    public var typeName: String
    /// Local transform relative to the parent.
    public var transform: Matrix4x4
    /// USD `!resetXformStack!`: the local transform is the world transform; ancestors are ignored.
    public var resetsTransformStack: Bool
    public var children: [Node]
    public var meshInstances: [MeshInstance]
    public var camera: Int?
    public var light: Int?
    /// nil inherits the parent's purpose, as USD's `purpose` attribute does.
    public var purpose: Purpose?
    /// USD `visibility = "invisible"` hides this node and everything under it.
    public var isInvisible: Bool

    public init(
        name: String,
        typeName: String = "",
        transform: Matrix4x4 = .identity,
        resetsTransformStack: Bool = false,
        children: [Node] = [],
        meshInstances: [MeshInstance] = [],
        camera: Int? = nil,
        light: Int? = nil,
        purpose: Purpose? = nil,
        isInvisible: Bool = false
    ) {
        self.name = name
        self.typeName = typeName
        self.transform = transform
        self.resetsTransformStack = resetsTransformStack
        self.children = children
        self.meshInstances = meshInstances
        self.camera = camera
        self.light = light
        self.purpose = purpose
        self.isInvisible = isInvisible
    }
}

/// USD's `purpose`: what a prim is for. Stats and bounds count `default` and `render` geometry,
/// as usd-core's bounding-box cache does with its default purposes; `guide` and `proxy` are left out.
public enum Purpose: String, Sendable, Hashable, Codable {
    case `default`
    case render
    case proxy
    case guide

    public var isCountedByDefault: Bool { self == .default || self == .render }
}

/// A mesh placed under a node, with the materials bound to it.
public struct MeshInstance: Sendable, Equatable {
    public var mesh: Int
    /// Material for the whole mesh (faces not in any bound subset).
    public var material: Int?
    /// Per subset of the mesh, in `Mesh.subsets` order: the material bound to that subset, if any.
    public var subsetMaterials: [Int?]

    public init(mesh: Int, material: Int? = nil, subsetMaterials: [Int?] = []) {
        self.mesh = mesh
        self.material = material
        self.subsetMaterials = subsetMaterials
    }
}

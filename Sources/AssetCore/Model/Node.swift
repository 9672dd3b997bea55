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
    public var curvesInstances: [CurvesInstance] = []
    public var splatInstances: [SplatInstance] = []
    public var camera: Int?
    public var light: Int?
    /// nil inherits the parent's purpose, as USD's `purpose` attribute does.
    public var purpose: Purpose?
    /// USD `visibility = "invisible"` hides this node and everything under it.
    public var isInvisible: Bool
    /// A joint of a `Skeleton`: posed like any node, but not counted as a scene node and not drawn.
    public var isJoint = false

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

/// USD's `purpose`: what a prim is for. `default`, `render`, `proxy` and `guide` are the
/// schema's tokens, but a file may author any token, and usd-core keeps it (and leaves it out of every purpose set a bounds
/// or image computation includes), so an unknown value is kept as written rather than dropped.
public struct Purpose: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let `default` = Purpose(rawValue: "default")
    public static let render = Purpose(rawValue: "render")
    public static let proxy = Purpose(rawValue: "proxy")
    public static let guide = Purpose(rawValue: "guide")
    public static let known: [Purpose] = [.default, .render, .proxy, .guide]

    public var isKnown: Bool { Self.known.contains(self) }
    public var description: String { rawValue }
}

/// The purposes whose geometry stats, bounds, images and purpose-less writers include: usd-core's
/// `BBoxCache` purposes. `default` and `render` unless the caller chooses (`--purpose`).
public struct PurposeSet: Sendable, Hashable, Codable {
    public var purposes: Set<Purpose>

    public init(_ purposes: Set<Purpose>) { self.purposes = purposes }

    public static let defaultAndRender = PurposeSet([.default, .render])

    public func contains(_ purpose: Purpose) -> Bool { purposes.contains(purpose) }

    /// `default,render,proxy` as `--purpose` takes it; nil for an unknown or missing name.
    public init?(list: String) {
        var chosen: Set<Purpose> = []
        for name in list.split(separator: ",") {
            let purpose = Purpose(rawValue: name.trimmingCharacters(in: .whitespaces))
            guard purpose.isKnown else { return nil }
            chosen.insert(purpose)
        }
        guard !chosen.isEmpty else { return nil }
        purposes = chosen
    }

    /// The names in the schema's order, comma-separated.
    public var list: String { Purpose.known.filter(purposes.contains).map(\.rawValue).joined(separator: ",") }
}

/// The material a mesh instance, or one of its subsets, binds under one material variant.
public struct MaterialVariantBinding: Sendable, Equatable {
    /// Index into `Scene.materialVariants`.
    public var variant: Int
    /// Index into the mesh's subsets; nil for the whole mesh.
    public var subset: Int?
    /// Index into `Scene.materials`.
    public var material: Int

    public init(variant: Int, subset: Int? = nil, material: Int) {
        self.variant = variant
        self.subset = subset
        self.material = material
    }
}

extension MeshInstance {
    /// The material the instance's faces outside any bound subset (`subset` nil) or a subset's
    /// faces bind under `variant`: the variant's own binding, else the mesh's, else the base binding.
    public func material(forSubset subset: Int?, variant: Int) -> Int? {
        if let subset, let bound = variantBindings.first(where: { $0.variant == variant && $0.subset == subset }) { return bound.material }
        if subset != nil, let own = subset.flatMap({ $0 < subsetMaterials.count ? subsetMaterials[$0] : nil }) { return own }
        if let whole = variantBindings.first(where: { $0.variant == variant && $0.subset == nil }) { return whole.material }
        return material
    }
}

/// A mesh placed under a node, with the materials bound to it.
public struct MeshInstance: Sendable, Equatable {
    public var mesh: Int
    /// Material for the whole mesh (faces not in any bound subset).
    public var material: Int?
    /// Per subset of the mesh, in `Mesh.subsets` order: the material bound to that subset, if any.
    public var subsetMaterials: [Int?]
    /// The skeleton that deforms this instance; its points then follow the joints, and the node's
    /// own transform no longer places them (USD, glTF and Collada agree on this).
    public var skin: SkinBinding?
    /// Weights of the mesh's blend shapes when no animation plays, in `Mesh.blendShapes` order.
    public var blendShapeWeights: [Float] = []
    /// The materials this instance (or a subset of it) binds under each material variant it changes under.
    public var variantBindings: [MaterialVariantBinding] = []

    public init(mesh: Int, material: Int? = nil, subsetMaterials: [Int?] = []) {
        self.mesh = mesh
        self.material = material
        self.subsetMaterials = subsetMaterials
    }
}

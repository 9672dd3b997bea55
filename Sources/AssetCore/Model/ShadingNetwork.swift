/// A material's shading graph as its source authored it: the `Shader` and `NodeGraph` prims below a
/// UsdShade Material (a MaterialX network) and the Material's own outputs into them. The `Material`'s
/// inputs are what the graph maps to, for every writer and the renderer; the network is kept so a
/// USD writer can write the graph back as it was (USD -> USD round trips keep it), and so a writer can
/// add one (`convert --materialx` builds an `ND_gltf_pbr` network from the mapped inputs).
///
/// Paths are relative to the Material (`NodeGraphs/node_003`), so the network moves with it.
public struct ShadingNetwork: Sendable, Equatable {
    /// Shader and NodeGraph prims in the order authored, parents before their children.
    public var nodes: [ShadingNode]
    /// The Material's own MaterialX outputs (`outputs:mtlx:surface`) and interface inputs.
    public var materialProperties: [ShadingProperty]

    public init(nodes: [ShadingNode] = [], materialProperties: [ShadingProperty] = []) {
        self.nodes = nodes
        self.materialProperties = materialProperties
    }

    /// Every texture the network's image nodes read, by index into `Scene.textures`.
    public var textureIndices: [Int] {
        nodes.flatMap(\.properties).compactMap { if case .texture(let index)? = $0.value { return index }; return nil }
    }
}

public struct ShadingNode: Sendable, Equatable {
    public enum Kind: String, Sendable, Hashable { case shader = "Shader", nodeGraph = "NodeGraph" }

    /// Relative to the Material: `Surface`, `NodeGraphs/node_003`.
    public var path: String
    public var kind: Kind
    /// `info:id` (`ND_image_color3`); nil for node graphs.
    public var id: String?
    public var properties: [ShadingProperty]

    public init(path: String, kind: Kind, id: String? = nil, properties: [ShadingProperty] = []) {
        self.path = path
        self.kind = kind
        self.id = id
        self.properties = properties
    }
}

/// An input or output of a shading node: a value, a connection, or a declaration of neither.
public struct ShadingProperty: Sendable, Equatable {
    /// With its namespace: `inputs:base_color`, `outputs:out`.
    public var name: String
    /// The USD value type (`color3f`, `float2`, `asset`, `token`).
    public var typeName: String
    public var value: ShadingValue?
    /// `NodeGraphs/node.outputs:out`, relative to the Material; `.outputs:albedo` on the Material itself
    /// is written with an empty prim part.
    public var connection: String?
    /// The `colorSpace` an asset input was tagged with (`srgb_texture`, `lin_rec709`, `raw`).
    public var colorSpace: String?

    public init(name: String, typeName: String, value: ShadingValue? = nil, connection: String? = nil, colorSpace: String? = nil) {
        self.name = name
        self.typeName = typeName
        self.value = value
        self.connection = connection
        self.colorSpace = colorSpace
    }
}

public enum ShadingValue: Sendable, Equatable {
    case numbers([Double])
    case bool(Bool)
    /// Strings and tokens.
    case text(String)
    /// An image file: the scene texture it resolved to, so writers package and rename it like any other.
    case texture(Int)
}

import AssetCore

/// The compressed data of a glTF document decoded as the reader decodes it, for validation to
/// check what Draco and meshopt streams hold (the Khronos validator cannot look inside them).
public struct GLTFCompressedStreams {
    /// One Draco-compressed primitive: its triangles, its point count, and each attribute's values
    /// (normalized integers already turned into their [0, 1] or [-1, 1] values) and components.
    public struct DracoPrimitive: Sendable {
        public var indices: [UInt32]
        public var pointCount: Int
        public var attributes: [String: (values: [Float], components: Int)]
    }

    let asset: GLTFAsset
    let accessors: GLTFAccessorReader

    /// Throws when the JSON does not decode as the reader's model of glTF; validation then leaves
    /// the streams unchecked, its schema checks having said what is wrong.
    public init(json: ArraySlice<UInt8>, buffers: [ArraySlice<UInt8>?], budget: ReadBudget, file: String) throws(AssetError) {
        asset = try GLTFReader.decode(json, file: file)
        accessors = GLTFAccessorReader(asset: asset, buffers: buffers, budget: budget, file: file)
    }

    /// Every EXT_meshopt_compression view decoded, by buffer view index.
    public func meshoptViews() throws(AssetError) -> [Int: ArraySlice<UInt8>] {
        try GLTFMeshopt.decodeViews(asset, buffers: accessors.buffers, budget: accessors.budget, file: accessors.file)
    }

    /// The Draco stream of mesh `mesh`'s primitive `primitive`, decoded; nil when it has none.
    public func draco(mesh: Int, primitive: Int) throws(AssetError) -> DracoPrimitive? {
        guard let meshes = asset.meshes, meshes.indices.contains(mesh), meshes[mesh].primitives.indices.contains(primitive) else { return nil }
        let entry = meshes[mesh].primitives[primitive]
        guard let compressed = entry.extensions?.KHR_draco_mesh_compression else { return nil }
        let here = SourceLocation(file: accessors.file, elementPath: "meshes[\(mesh)].primitives[\(primitive)]")
        var described: [String: GLTFAsset.Accessor] = [:]
        for (name, _) in compressed.attributes {
            if let index = entry.attributes[name], let accessor = accessors.described(index) { described[name] = accessor }
        }
        var ignored: [Diagnostic] = []
        let decoded = try GLTFDracoMesh(bytes: try accessors.viewBytes(compressed.bufferView, at: here), attributeIDs: compressed.attributes,
                                        accessors: described, budget: accessors.budget, at: here, diagnostics: &ignored)
        var attributes: [String: (values: [Float], components: Int)] = [:]
        for name in compressed.attributes.keys { if let values = decoded.attribute(name) { attributes[name] = values } }
        return DracoPrimitive(indices: decoded.indices, pointCount: decoded.pointCount, attributes: attributes)
    }
}

import AssetCore
import CDracoBridge

/// KHR_draco_mesh_compression: the primitive's triangles and the attributes it names, decoded
/// by Debian's libdraco (through the CDracoBridge C interface). Sizes are charged to the budget
/// after decoding and before they are copied out, and each attribute must have the components its
/// glTF accessor says.
struct GLTFDracoMesh {
    let pointCount: Int
    let indices: [UInt32]
    private let attributes: [String: (values: [Float], components: Int)]

    init(bytes: ArraySlice<UInt8>, attributeIDs: [String: Int], budget: ReadBudget, at here: SourceLocation) throws(AssetError) {
        var message = [CChar](repeating: 0, count: 256)
        let decoded: OpaquePointer? = bytes.withUnsafeBufferPointer { input in
            assetc_draco_decode(input.baseAddress, input.count, &message, message.count)
        }
        guard let mesh = decoded else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw AssetError(.malformed("the Draco data does not decode: \(text.isEmpty ? "unknown error" : text)"), at: here)
        }
        defer { assetc_draco_free(mesh) }
        let points = Int(assetc_draco_point_count(mesh)), faces = Int(assetc_draco_face_count(mesh))
        try budget.spend(work: points + 3 * faces, for: "a Draco mesh of \(points) points and \(faces) triangles", at: here)
        try budget.spend(bytes: 12 * faces, for: "a Draco mesh's \(faces) triangles", at: here)
        pointCount = points
        indices = [UInt32](unsafeUninitializedCapacity: 3 * faces) { out, initialized in
            assetc_draco_indices(mesh, out.baseAddress)
            initialized = 3 * faces
        }
        var attributes: [String: (values: [Float], components: Int)] = [:]
        for (name, id) in attributeIDs.sorted(by: { $0.key < $1.key }) {
            guard id >= 0, id <= Int(UInt32.max) else { throw AssetError(.malformed("Draco attribute id \(id) for \(name)"), at: here) }
            let components = Int(assetc_draco_attribute_components(mesh, UInt32(id)))
            guard components > 0 else { throw AssetError(.malformed("the Draco data has no attribute \(id) for \(name)"), at: here) }
            try budget.spend(bytes: 4 * points * components, for: "Draco attribute \(name)", at: here)
            var status: Int32 = 0
            let values = [Float](unsafeUninitializedCapacity: points * components) { out, initialized in
                status = assetc_draco_attribute_floats(mesh, UInt32(id), out.baseAddress, Int32(components))
                if status != 0 { out.initialize(repeating: 0) }
                initialized = points * components
            }
            guard status == 0 else { throw AssetError(.malformed("Draco attribute \(id) (\(name)) cannot be read as floats"), at: here) }
            attributes[name] = (values, components)
        }
        self.attributes = attributes
    }

    /// The decoded values of a glTF attribute, when the Draco data holds it.
    func attribute(_ name: String) -> (values: [Float], components: Int)? { attributes[name] }
}

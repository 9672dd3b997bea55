import AssetCore
import CDracoBridge

/// KHR_draco_mesh_compression: the primitive's triangles and the attributes it names, decoded
/// by Debian's libdraco (through the CDracoBridge C interface). Sizes are charged to the budget
/// after decoding and before they are copied out, and each attribute must have the components its
/// glTF accessor says.
///
/// Draco undoes its own position quantization while decoding, but integer attributes (what
/// glTF-Transform writes for a KHR_mesh_quantization file it then compresses) come out as plain
/// integers: the glTF accessor's `normalized` says whether they stand for [0, 1] or [-1, 1], as it
/// would for uncompressed data, and the accessor's `min`/`max` (in the stored domain) are checked
/// against what decoded, so a wrongly decoded file says so rather than reading at 30,000 times its size.
struct GLTFDracoMesh {
    let pointCount: Int
    let indices: [UInt32]
    private let attributes: [String: (values: [Float], components: Int)]

    init(bytes: ArraySlice<UInt8>, attributeIDs: [String: Int], accessors: [String: GLTFAsset.Accessor], budget: ReadBudget,
         at here: SourceLocation, diagnostics: inout [Diagnostic]) throws(AssetError) {
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
            var dracoNormalized: Int32 = 0
            let storedType = Int(assetc_draco_attribute_type(mesh, UInt32(id), &dracoNormalized))
            guard storedType != 0 else { throw AssetError(.malformed("Draco attribute \(id) (\(name)) has a type glTF cannot hold"), at: here) }
            try budget.spend(bytes: 4 * points * components, for: "Draco attribute \(name)", at: here)
            var status: Int32 = 0
            var values = [Float](unsafeUninitializedCapacity: points * components) { out, initialized in
                status = assetc_draco_attribute_floats(mesh, UInt32(id), out.baseAddress, Int32(components))
                if status != 0 { out.initialize(repeating: 0) }
                initialized = points * components
            }
            guard status == 0 else { throw AssetError(.malformed("Draco attribute \(id) (\(name)) cannot be read as floats"), at: here) }
            let accessor = accessors[name]
            if let accessor, let problem = Self.rangeProblem(values, components: components, min: accessor.min, max: accessor.max) {
                diagnostics.append(.warning("Draco attribute \(name) decodes \(problem) (the accessor's min/max)", at: here))
            }
            // The accessor speaks for the data; a float accessor over integer Draco data falls back
            // on the flag the Draco data itself carries.
            let normalize = accessor?.normalized ?? (accessor?.componentType == 5126 ? dracoNormalized != 0 : false)
            if normalize, storedType != 5126 {
                guard let scale = Self.normalizingScale[storedType] else {
                    throw AssetError(.malformed("Draco attribute \(name) is normalized unsigned int, which glTF does not allow"), at: here)
                }
                let signed = storedType == 5120 || storedType == 5122
                values.withUnsafeMutableBufferPointer { v in
                    for k in v.indices { v[k] = signed ? max(v[k] / scale, -1) : v[k] / scale }
                }
            }
            attributes[name] = (values, components)
        }
        self.attributes = attributes
    }

    /// The decoded values of a glTF attribute, when the Draco data holds it.
    func attribute(_ name: String) -> (values: [Float], components: Int)? { attributes[name] }

    private static let normalizingScale: [Int: Float] = [5120: 127, 5121: 255, 5122: 32767, 5123: 65535]

    /// Where the decoded values leave the accessor's declared range by more than quantization could
    /// explain (1% of the range per component), in words; nil when they stay inside or nothing is declared.
    static func rangeProblem(_ values: [Float], components: Int, min declaredMin: [Double]?, max declaredMax: [Double]?) -> String? {
        guard let declaredMin, let declaredMax, declaredMin.count == components, declaredMax.count == components,
              !values.isEmpty else { return nil }
        var low = [Float](repeating: .infinity, count: components), high = [Float](repeating: -.infinity, count: components)
        values.withUnsafeBufferPointer { v in
            var k = 0
            while k < v.count {
                for c in 0..<components {
                    low[c] = Swift.min(low[c], v[k + c])
                    high[c] = Swift.max(high[c], v[k + c])
                }
                k += components
            }
        }
        for c in 0..<components {
            let a = declaredMin[c], b = declaredMax[c]
            let slack = 0.01 * Swift.max(b - a, 0) + 1e-5 * Swift.max(1, abs(a), abs(b))
            if Double(low[c]) < a - slack || Double(high[c]) > b + slack {
                return "to [\(low[c]), \(high[c])] in component \(c), outside [\(a), \(b)]"
            }
        }
        return nil
    }
}

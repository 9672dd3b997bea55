import AssetCore
import FormatGLTF

/// The data checks inside compressed streams, which the Khronos validator cannot open: accessors
/// in EXT_meshopt_compression views are checked on the decoded bytes like any other, and each
/// KHR_draco_mesh_compression primitive's decoded triangles and attributes get the checks that
/// apply to them. Findings there say which stream they come from.
extension GLTFDataRules {
    /// Decodes the streams; a stream that does not decode is a finding, and its accessors stay unchecked.
    mutating func decodeStreams(json: ArraySlice<UInt8>) {
        let streams: GLTFCompressedStreams
        do throws(AssetError) {
            streams = try GLTFCompressedStreams(json: json, buffers: buffers, budget: budget, file: findings.file)
        } catch {
            return  // the schema and link checks have reported what makes the document unreadable
        }
        if views.contains(where: { $0["extensions"]?["EXT_meshopt_compression"] != nil }) {
            do throws(AssetError) { meshopt = try streams.meshoptViews() } catch {
                findings.add("ASSETC_COMPRESSED_STREAM_INVALID", "a meshopt stream does not decode: \(error.message)", at: "/bufferViews")
            }
        }
        for (m, mesh) in (root["meshes"]?.elements ?? []).enumerated() {
            for (p, primitive) in (mesh["primitives"]?.elements ?? []).enumerated() where primitive["extensions"]?["KHR_draco_mesh_compression"] != nil {
                let here = "/meshes/\(m)/primitives/\(p)"
                do throws(AssetError) {
                    if let decoded = try streams.draco(mesh: m, primitive: p) { checkDraco(decoded, primitive: primitive, at: here) }
                } catch {
                    findings.add("ASSETC_COMPRESSED_STREAM_INVALID", "the Draco stream does not decode: \(error.message)",
                                 at: here + "/extensions/KHR_draco_mesh_compression")
                }
            }
        }
    }

    private mutating func checkDraco(_ draco: GLTFCompressedStreams.DracoPrimitive, primitive: JSONValue, at here: String) {
        let stream = "in the Draco stream of \(here)"
        if let indexAccessor = primitive["indices"]?.integer, let bad = draco.indices.firstIndex(where: { Int($0) >= draco.pointCount }) {
            findings.add("ACCESSOR_INDEX_OOB", "\(stream): index \(bad) names vertex \(draco.indices[bad]) of \(draco.pointCount)", at: "/accessors/\(indexAccessor)")
        }
        for (name, attribute) in draco.attributes.sorted(by: { $0.key < $1.key }) {
            guard let accessorIndex = primitive["attributes"]?[name]?.integer else { continue }
            let pointer = "/accessors/\(accessorIndex)"
            let values = Values(attribute.values.map(Double.init))
            if let bad = values.firstIndex(where: { !$0.isFinite }) {
                findings.add("ACCESSOR_INVALID_FLOAT", "\(stream): \(name) element \(bad / attribute.components) is \(values[bad])", at: pointer)
            }
            if name == "NORMAL" && attribute.components == 3 {
                // Draco quantizes normals itself (to as few as 8 bits a component), which moves a
                // length further than stored data may stray: twice the tolerance here.
                unitVectors(values, per: 3, length: 3, code: "ACCESSOR_VECTOR3_NON_UNIT", at: pointer, note: stream, tolerance: 2 * Self.unitTolerance)
            } else {
                // Tangents' signs, colours and weights in 0..1: the checks of stored data.
                findings.note = stream
                vertexData(accessorIndex, values, per: attribute.components, isFloat: true, at: pointer)
                findings.note = nil
            }
        }
        // Each vertex's weights over its joints, as for stored data (Draco has already turned
        // normalized integers into their values).
        let joints = draco.attributes.keys.filter { $0.hasPrefix("JOINTS_") }.sorted(), weights = draco.attributes.keys.filter { $0.hasPrefix("WEIGHTS_") }.sorted()
        let jointAccessors = joints.compactMap { primitive["attributes"]?[$0]?.integer }, weightAccessors = weights.compactMap { primitive["attributes"]?[$0]?.integer }
        guard !joints.isEmpty, joints.count == weights.count, jointAccessors.count == joints.count, weightAccessors.count == weights.count else { return }
        var decoded: [Int: [Double]] = [:]
        for (name, accessor) in zip(joints + weights, jointAccessors + weightAccessors) { decoded[accessor] = draco.attributes[name]?.values.map(Double.init) }
        let known = usage.skinSets.first { $0.joints == jointAccessors }
        findings.note = stream
        skinning(GLTFUsage.SkinSets(mesh: known?.mesh ?? -1, joints: jointAccessors, weights: weightAccessors, jointCount: known?.jointCount, skin: known?.skin),
                 decoded, valuesAreScaled: true)
        findings.note = nil
    }
}

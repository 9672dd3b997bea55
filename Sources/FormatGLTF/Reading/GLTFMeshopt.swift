import AssetCore
import CMeshOptimizer

/// EXT_meshopt_compression: decodes every compressed buffer view once, before accessors read
/// them, with Debian's libmeshoptimizer (the format's reference decoder; its codecs are not
/// something to write again). The decoded size (count x byteStride) is checked against the view
/// and charged to the budget before it is allocated.
enum GLTFMeshopt {
    static func decodeViews(_ asset: GLTFAsset, buffers: [ArraySlice<UInt8>?], budget: ReadBudget,
                            file: String) throws(AssetError) -> [Int: ArraySlice<UInt8>] {
        var decoded: [Int: ArraySlice<UInt8>] = [:]
        for (index, view) in (asset.bufferViews ?? []).enumerated() {
            guard let ext = view.extensions?.EXT_meshopt_compression else { continue }
            let here = SourceLocation(file: file, elementPath: "bufferViews[\(index)].extensions.EXT_meshopt_compression")
            func malformed(_ message: String) -> AssetError { AssetError(.malformed(message), at: here) }
            guard buffers.indices.contains(ext.buffer), let source = buffers[ext.buffer] else { throw malformed("buffer \(ext.buffer) is not available") }
            let offset = ext.byteOffset ?? 0
            guard offset >= 0, ext.byteLength >= 0, offset <= source.count, ext.byteLength <= source.count - offset else {
                throw malformed("offset \(offset) and length \(ext.byteLength) run past buffer \(ext.buffer) of \(source.count) bytes")
            }
            guard ext.count >= 0, ext.byteStride > 0, ext.byteStride <= 256, ext.count <= budget.limits.maxArrayElements else {
                throw malformed("count \(ext.count) of stride \(ext.byteStride) is not a decodable shape")
            }
            // libmeshoptimizer asserts these rather than failing (an abort on a hostile file), so they
            // are checked here: the shapes EXT_meshopt_compression allows for each mode and filter.
            let shapeProblem: String? = switch (ext.mode, ext.filter ?? "NONE") {
            case ("ATTRIBUTES", _) where ext.byteStride % 4 != 0: "ATTRIBUTES needs a stride that is a multiple of 4, not \(ext.byteStride)"
            case ("TRIANGLES", _) where ext.count % 3 != 0: "TRIANGLES needs a count that is a multiple of 3, not \(ext.count)"
            case ("TRIANGLES", _), ("INDICES", _): ext.byteStride == 2 || ext.byteStride == 4 ? nil : "indices need a stride of 2 or 4, not \(ext.byteStride)"
            case (_, "OCTAHEDRAL") where ext.byteStride != 4 && ext.byteStride != 8: "the OCTAHEDRAL filter needs a stride of 4 or 8, not \(ext.byteStride)"
            case (_, "QUATERNION") where ext.byteStride != 8: "the QUATERNION filter needs a stride of 8, not \(ext.byteStride)"
            case (_, "EXPONENTIAL") where ext.byteStride % 4 != 0: "the EXPONENTIAL filter needs a stride that is a multiple of 4, not \(ext.byteStride)"
            default: nil
            }
            if let shapeProblem { throw malformed(shapeProblem) }
            let size = ext.count * ext.byteStride
            guard size <= view.byteLength || view.byteLength == 0 || size == view.byteLength else {
                throw malformed("decodes to \(size) bytes but the view is \(view.byteLength)")
            }
            try budget.spend(bytes: size, for: "a meshopt-compressed view of \(size) bytes", at: here)
            try budget.spend(work: ext.count, for: "a meshopt-compressed view of \(ext.count) elements", at: here)
            let start = source.startIndex + offset
            var status: Int32 = 0
            let out = [UInt8](unsafeUninitializedCapacity: size) { destination, initialized in
                source[start..<(start + ext.byteLength)].withUnsafeBufferPointer { input in
                    switch ext.mode {
                    case "ATTRIBUTES":
                        status = meshopt_decodeVertexBuffer(destination.baseAddress, ext.count, ext.byteStride, input.baseAddress, input.count)
                    case "TRIANGLES":
                        status = ext.byteStride == 2 || ext.byteStride == 4
                            ? meshopt_decodeIndexBuffer(destination.baseAddress, ext.count, ext.byteStride, input.baseAddress, input.count) : -100
                    case "INDICES":
                        status = ext.byteStride == 2 || ext.byteStride == 4
                            ? meshopt_decodeIndexSequence(destination.baseAddress, ext.count, ext.byteStride, input.baseAddress, input.count) : -100
                    default:
                        status = -101
                    }
                    if status == 0 {
                        switch ext.filter ?? "NONE" {
                        case "OCTAHEDRAL": meshopt_decodeFilterOct(destination.baseAddress, ext.count, ext.byteStride)
                        case "QUATERNION": meshopt_decodeFilterQuat(destination.baseAddress, ext.count, ext.byteStride)
                        case "EXPONENTIAL": meshopt_decodeFilterExp(destination.baseAddress, ext.count, ext.byteStride)
                        case "NONE": break
                        default: status = -102
                        }
                    }
                }
                // Zeros where decoding stopped: the array is thrown away below when it failed.
                if status != 0 { destination.initialize(repeating: 0) }
                initialized = size
            }
            switch status {
            case 0: decoded[index] = out[...]
            case -100: throw malformed("index stride \(ext.byteStride); meshopt indices are 2 or 4 bytes")
            case -101: throw malformed("unknown mode '\(ext.mode)'")
            case -102: throw malformed("unknown filter '\(ext.filter ?? "")'")
            default: throw malformed("the compressed data does not decode (meshoptimizer error \(status))")
            }
        }
        return decoded
    }
}

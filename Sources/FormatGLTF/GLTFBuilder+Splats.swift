import AssetCore
import AssetImage

extension GLTFBuilder {
    /// A glTF mesh of one `KHR_gaussian_splatting` POINTS primitive: float `POSITION`, `ROTATION`
    /// (x, y, z, w), linear `SCALE`, `OPACITY` and every `SH_DEGREE_l_COEF_n` of the set's degree,
    /// and a `COLOR_0` (the degree-0 colour, made linear as glTF's vertex colours are, with the
    /// opacity as alpha) so viewers without the extension still draw a coloured point cloud.
    mutating func splatMesh(for instance: SplatInstance) -> Int {
        let set = scene.splats[instance.splats]
        let n = set.count
        var attributes: [String: Int] = [:]
        attributes["POSITION"] = addFloats(set.centers.floats, type: "VEC3", count: n, bounds: true)
        attributes[GLTFSplatNames.prefix + "ROTATION"] = addFloats(set.rotations.floats, type: "VEC4", count: n)
        attributes[GLTFSplatNames.prefix + "SCALE"] = addFloats(set.scales.floats, type: "VEC3", count: n)
        attributes[GLTFSplatNames.prefix + "OPACITY"] = addFloats(set.opacities.floats, type: "SCALAR", count: n)
        let perSplat = set.coefficientsPerSplat
        set.withBuffers { b in
            for l in 0...set.shDegree {
                for m in 0..<(2 * l + 1) {
                    let k = l * l + m
                    attributes[GLTFSplatNames.prefix + "SH_DEGREE_\(l)_COEF_\(m)"] = addFloats(type: "VEC3", count: n, width: 3) { out in
                        for i in 0..<n { for c in 0..<3 { out[3 * i + c] = b.sh[3 * (perSplat * i + k) + c] } }
                    }
                }
            }
            attributes["COLOR_0"] = addFloats(type: "VEC4", count: n, width: 4) { out in
                for i in 0..<n {
                    for c in 0..<3 {
                        let display = min(max(b.sh[3 * perSplat * i + c] * SplatHarmonics.c0 + 0.5, 0), 1)
                        out[4 * i + c] = set.colorSpace == .linearRec709Display ? display : ColorSpace.toLinear(display)
                    }
                    out[4 * i + 3] = min(max(b.opacities[i], 0), 1)
                }
            }
        }
        var primitive = GLTFDocument.Primitive(attributes: attributes, indices: nil, material: nil, mode: 0)
        primitive.extensions = .init(KHR_gaussian_splatting: .init(kernel: "ellipse", colorSpace: set.colorSpace.rawValue))
        if document.extensionsUsed?.contains("KHR_gaussian_splatting") != true {
            document.extensionsUsed = (document.extensionsUsed ?? []) + ["KHR_gaussian_splatting"]
        }
        document.meshes.append(GLTFDocument.Mesh(name: set.name.isEmpty ? nil : set.name, primitives: [primitive]))
        return document.meshes.count - 1
    }
}

/// `KHR_gaussian_splatting`'s attributes, as its table gives them: their prefix, and the accessor
/// type and component types each may have. One place for the reader, the writer and validation.
public enum GLTFSplatNames {
    public static let prefix = "KHR_gaussian_splatting:"

    /// The accessor type and the (component type, normalized) pairs `semantic` (without the prefix)
    /// allows; nil for a name the extension does not define (one of an extension of it).
    public static func format(of semantic: String) -> (type: String, components: [(componentType: Int, normalized: Bool)])? {
        switch semantic {
        case "ROTATION": return ("VEC4", [(5126, false), (5120, true), (5122, true)])
        case "SCALE": return ("VEC3", [(5126, false), (5120, false), (5120, true), (5122, false), (5122, true)])
        case "OPACITY": return ("SCALAR", [(5126, false), (5121, true), (5123, true)])
        case let name where name.hasPrefix("SH_DEGREE_"): return ("VEC3", [(5126, false)])
        default: return nil
        }
    }
}

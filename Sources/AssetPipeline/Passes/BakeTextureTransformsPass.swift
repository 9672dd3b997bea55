import AssetCore

/// For formats without texture transforms (Collada, OBJ, PLY): each transform is applied to the
/// texture coordinates its texture reads, and dropped from the material. Exact when the textures
/// reading one texcoord set of a mesh share one transform (gltfpack's quantization writes them so);
/// when they differ, the first is applied, with one warning.
public struct BakeTextureTransformsPass: ScenePass {
    public let name = "bake texture transforms"

    public init() {}

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        let transformed = scene.materials.contains { $0.textureReferences.contains { $0.transform != nil } }
        guard transformed else { return }
        // Per mesh, per texcoord set: the transform its bound materials ask for.
        var wanted: [Int: [String: TextureTransform]] = [:]
        var conflicts = Set<String>()
        for placed in scene.placedMeshes(includingUncounted: true) {
            let bound = ([placed.instance.material] + placed.instance.subsetMaterials).compactMap { $0 }
            for material in bound where scene.materials.indices.contains(material) {
                for reference in scene.materials[material].textureReferences {
                    guard let transform = reference.transform else { continue }
                    if let known = wanted[placed.instance.mesh]?[reference.texcoordSet] {
                        if known != transform { conflicts.insert(reference.texcoordSet) }
                    } else {
                        wanted[placed.instance.mesh, default: [:]][reference.texcoordSet] = transform
                    }
                }
            }
        }
        if !conflicts.isEmpty {
            diagnostics.append(.warning("textures on texcoord set \(conflicts.sorted().joined(separator: ", ")) use different transforms; the first is applied to all"))
        }
        for (mesh, sets) in wanted {
            for (set, transform) in sets {
                guard let k = scene.meshes[mesh].primvars.firstIndex(where: { $0.name == set }),
                      case .float2(let uv) = scene.meshes[mesh].primvars[k].values else { continue }
                scene.meshes[mesh].primvars[k].values = .float2(uv.map(transform.apply))
            }
        }
        for m in scene.materials.indices { scene.materials[m].clearTextureTransforms() }
    }
}

extension Material {
    mutating func clearTextureTransforms() {
        baseColor.texture?.transform = nil
        metallic.texture?.transform = nil
        roughness.texture?.transform = nil
        emissive.texture?.transform = nil
        opacity.texture?.transform = nil
        normal?.transform = nil
        occlusion?.transform = nil
    }
}

import AssetCore

/// The MaterialX surface shaders a UsdShade network may end in, and how each maps onto `Material`.
/// OpenPBR (Blender 5), Autodesk Standard Surface (Houdini, Maya), glTF PBR (guc), UsdPreviewSurface
/// as a MaterialX node, and RealityKit's PBR surface (Reality Composer Pro) as far as its published
/// inputs go. Defaults are each node definition's own.
enum MaterialXSurface: String, CaseIterable {
    case openPBR = "open_pbr_surface"
    case standardSurface = "standard_surface"
    case glTFPBR = "gltf_pbr"
    case previewSurface = "UsdPreviewSurface"
    case realityKit = "realitykit_pbr"

    init?(id: String) {
        switch id {
        case "ND_open_pbr_surface_surfaceshader": self = .openPBR
        case "ND_standard_surface_surfaceshader", "ND_standard_surface_surfaceshader_100": self = .standardSurface
        case "ND_gltf_pbr_surfaceshader": self = .glTFPBR
        case "ND_UsdPreviewSurface_surfaceshader": self = .previewSurface
        case "ND_realitykit_pbr_surfaceshader": self = .realityKit
        default: return nil
        }
    }

    /// What `info` calls the material's source.
    var sourceName: String { "MaterialX " + rawValue }
}

extension USDMaterialBuilder {
    /// A material from a MaterialX surface node: its inputs followed through their node graphs.
    /// Inputs the graph cannot be mapped from keep the model's default, one warning naming the node
    /// and the input each; lobes the model has no place for, when they are on, are named in one warning.
    mutating func materialXMaterial(_ prim: USDComposedPrim, surface: USDComposedPrim, kind: MaterialXSurface) -> Material {
        var material = Material(name: prim.name)
        material.shadingSource = kind.sourceName
        var graph = MaterialXGraph()
        var reader = MaterialXInputs(surface: surface, material: prim.name)
        switch kind {
        case .openPBR:
            let weight = reader.number("base_weight", 1, &graph, &self)
            material.baseColor = reader.color("base_color", SIMD3(repeating: 0.8), &graph, &self).scaled(by: weight)
            material.metallic = reader.scalar("base_metalness", 0, &graph, &self)
            material.roughness = reader.scalar("specular_roughness", 0.3, &graph, &self)
            material.clearcoat = reader.scalar("coat_weight", 0, &graph, &self)
            material.clearcoatRoughness = reader.scalar("coat_roughness", 0, &graph, &self)
            material.ior = reader.number("specular_ior", 1.5, &graph, &self)
            let luminance = reader.number("emission_luminance", 0, &graph, &self)
            material.emissive = reader.color("emission_color", .one, &graph, &self).scaled(by: luminance)
            material.opacity = reader.scalar("geometry_opacity", 1, &graph, &self)
            material.normal = reader.normalMap("geometry_normal", &graph, &self)
            reader.transmission(reader.number("transmission_weight", 0, &graph, &self), into: &material)
            reader.unheld(["fuzz_weight": 0, "subsurface_weight": 0, "thin_film_weight": 0, "specular_roughness_anisotropy": 0,
                           "base_diffuse_roughness": 0], &graph, &self)
        case .standardSurface:
            let weight = reader.number("base", 0.8, &graph, &self)
            material.baseColor = reader.color("base_color", SIMD3(repeating: 0.8), &graph, &self).scaled(by: weight)
            material.metallic = reader.scalar("metalness", 0, &graph, &self)
            material.roughness = reader.scalar("specular_roughness", 0.2, &graph, &self)
            material.clearcoat = reader.scalar("coat", 0, &graph, &self)
            material.clearcoatRoughness = reader.scalar("coat_roughness", 0.1, &graph, &self)
            material.ior = reader.number("specular_IOR", 1.5, &graph, &self)
            let emission = reader.number("emission", 0, &graph, &self)
            material.emissive = reader.color("emission_color", .one, &graph, &self).scaled(by: emission)
            let opacity = reader.color("opacity", .one, &graph, &self)
            material.opacity = MaterialProperty(opacity.value.x, texture: opacity.texture.map { var r = $0; r.channels = .r; return r })
            material.normal = reader.normalMap("normal", &graph, &self)
            reader.transmission(reader.number("transmission", 0, &graph, &self), into: &material)
            reader.unheld(["subsurface": 0, "sheen": 0, "thin_film_thickness": 0, "specular_anisotropy": 0], &graph, &self)
        case .glTFPBR:
            material.baseColor = reader.color("base_color", .one, &graph, &self)
            material.metallic = reader.scalar("metallic", 1, &graph, &self)
            material.roughness = reader.scalar("roughness", 1, &graph, &self)
            material.clearcoat = reader.scalar("clearcoat", 0, &graph, &self)
            material.clearcoatRoughness = reader.scalar("clearcoat_roughness", 0, &graph, &self)
            material.ior = reader.number("ior", 1.5, &graph, &self)
            let strength = reader.number("emissive_strength", 1, &graph, &self)
            material.emissive = reader.color("emissive", .zero, &graph, &self).scaled(by: strength)
            material.opacity = reader.scalar("alpha", 1, &graph, &self)
            material.normal = reader.normalMap("normal", &graph, &self)
            material.occlusion = reader.texture("occlusion", channels: .r, &graph, &self)
            switch Int(reader.number("alpha_mode", 0, &graph, &self)) {
            case 1:
                material.alphaMode = .mask
                material.opacityThreshold = reader.number("alpha_cutoff", 0.5, &graph, &self)
            case 2: material.alphaMode = .blend
            default: material.alphaMode = .opaque
            }
            reader.transmission(reader.number("transmission", 0, &graph, &self), into: &material)
            reader.unheld(["sheen_roughness": 0, "iridescence": 0, "thickness": 0], &graph, &self)
        case .previewSurface, .realityKit:
            let preview = kind == .previewSurface
            material.baseColor = reader.color(preview ? "diffuseColor" : "baseColor", SIMD3(repeating: 0.18), &graph, &self)
            material.emissive = reader.color("emissiveColor", .zero, &graph, &self)
            material.metallic = reader.scalar("metallic", 0, &graph, &self)
            material.roughness = reader.scalar("roughness", 0.5, &graph, &self)
            material.clearcoat = reader.scalar("clearcoat", 0, &graph, &self)
            material.clearcoatRoughness = reader.scalar("clearcoatRoughness", 0.01, &graph, &self)
            material.opacity = reader.scalar("opacity", 1, &graph, &self)
            material.opacityThreshold = reader.number("opacityThreshold", 0, &graph, &self)
            material.normal = reader.normalMap("normal", &graph, &self)
            material.occlusion = reader.texture(preview ? "occlusion" : "ambientOcclusion", channels: .r, &graph, &self)
            if preview { material.ior = reader.number("ior", 1.5, &graph, &self) }
        }
        diagnostics += reader.diagnostics
        material.network = capturedNetwork(prim)
        return material
    }
}

/// Reads one surface node's inputs as material properties, collecting the warnings.
struct MaterialXInputs {
    let surface: USDComposedPrim
    let material: String
    var diagnostics: [Diagnostic] = []

    init(surface: USDComposedPrim, material: String) {
        self.surface = surface
        self.material = material
    }

    private mutating func value(_ name: String, _ graph: inout MaterialXGraph, _ builder: inout USDMaterialBuilder) -> MaterialXValue? {
        let value = graph.evaluate(surface, name, builder: &builder)
        if case .unmapped(let node, let id, let why)? = value {
            diagnostics.append(.warning("material \(material): \(name) is driven by node \(node) (\(id)), which cannot be mapped: \(why); its default is used",
                                        at: surface.location))
        }
        return value
    }

    mutating func number(_ name: String, _ fallback: Float, _ graph: inout MaterialXGraph, _ builder: inout USDMaterialBuilder) -> Float {
        switch value(name, &graph, &builder) {
        case .constant(let v)? where !v.isEmpty: return v[0]
        case .texture?:
            diagnostics.append(.warning("material \(material): \(name) is textured, which the material model holds as a constant only; its default is used",
                                        at: surface.location))
            return fallback
        default: return fallback
        }
    }

    mutating func scalar(_ name: String, _ fallback: Float, _ graph: inout MaterialXGraph,
                         _ builder: inout USDMaterialBuilder) -> MaterialProperty<Float> {
        switch value(name, &graph, &builder) {
        case .constant(let v)? where !v.isEmpty: return MaterialProperty(v[0])
        case .texture(var reference, let defaultValue)?:
            if reference.channels == .rgb || reference.channels == .rgba { reference.channels = .r }
            return MaterialProperty(defaultValue?.first ?? fallback, texture: reference)
        default: return MaterialProperty(fallback)
        }
    }

    mutating func color(_ name: String, _ fallback: SIMD3<Float>, _ graph: inout MaterialXGraph,
                        _ builder: inout USDMaterialBuilder) -> MaterialProperty<SIMD3<Float>> {
        switch value(name, &graph, &builder) {
        case .constant(let v)? where v.count >= 3: return MaterialProperty(SIMD3(v[0], v[1], v[2]))
        case .constant(let v)? where v.count == 1: return MaterialProperty(SIMD3(repeating: v[0]))
        case .texture(let reference, let defaultValue)?:
            if graph.linearTextures.contains(reference.texture) {
                diagnostics.append(.warning("material \(material): \(name)'s image \(builder.textures[reference.texture].name) is tagged as linear, and colour textures are read as sRGB",
                                            at: surface.location))
            }
            let f = defaultValue.map { $0.count >= 3 ? SIMD3($0[0], $0[1], $0[2]) : SIMD3(repeating: $0.first ?? 1) } ?? .one
            return MaterialProperty(f, texture: reference)
        default: return MaterialProperty(fallback)
        }
    }

    mutating func texture(_ name: String, channels: TextureReference.Channels, _ graph: inout MaterialXGraph,
                          _ builder: inout USDMaterialBuilder) -> TextureReference? {
        guard case .texture(var reference, _)? = value(name, &graph, &builder) else { return nil }
        if reference.channels == .rgb || reference.channels == .rgba { reference.channels = channels }
        return reference
    }

    /// A tangent-space normal map (through `normalmap`/`gltf_normalmap`); a constant normal is none.
    mutating func normalMap(_ name: String, _ graph: inout MaterialXGraph, _ builder: inout USDMaterialBuilder) -> TextureReference? {
        guard case .texture(var reference, _)? = value(name, &graph, &builder) else { return nil }
        reference.channels = .rgb
        reference.scale = nil
        return reference
    }

    /// Transmission is light through the surface; the model has opacity only, as glTF's reader does.
    mutating func transmission(_ weight: Float, into material: inout Material) {
        guard weight > 0 else { return }
        material.transmission = min(weight, 1)
        material.opacity.value *= max(0, 1 - weight)
        // The see-through stand-in blends even where the surface said opaque, as glTF's reader does.
        if material.opacity.value < 1 && material.alphaMode == .opaque { material.alphaMode = .blend }
        diagnostics.append(.warning("material \(material.name): transmission \(weight) is read as opacity \(material.opacity.value) (no refraction)",
                                    at: surface.location))
    }

    /// One warning naming the lobes that are on (not at their default) and have no place in the model.
    mutating func unheld(_ defaults: [String: Float], _ graph: inout MaterialXGraph, _ builder: inout USDMaterialBuilder) {
        var on: [String] = []
        for (name, off) in defaults.sorted(by: { $0.key < $1.key }) {
            switch graph.evaluate(surface, name, builder: &builder) {
            case .constant(let v)? where !v.isEmpty && v[0] != off: on.append("\(name) \(v[0])")
            case .texture?, .unmapped?: on.append("\(name) (from a graph)")
            default: break
            }
        }
        if !on.isEmpty {
            diagnostics.append(.warning("material \(material): \(on.joined(separator: ", ")) have no place in the material model and are left out",
                                        at: surface.location))
        }
    }
}

extension MaterialProperty where Value == SIMD3<Float> {
    /// The colour times a weight: the constant scaled, and a texture's lookups with it.
    func scaled(by weight: Float) -> Self {
        guard weight != 1 else { return self }
        var result = self
        result.value *= weight
        if var reference = result.texture {
            reference.scale = (reference.scale ?? .one) * SIMD4(weight, weight, weight, 1)
            result.texture = reference
        }
        return result
    }
}

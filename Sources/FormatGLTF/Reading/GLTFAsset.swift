/// The glTF 2.0 JSON as the reader decodes it: every field optional where the specification lets
/// it be absent, so a missing one gets its specified default in the builder and a wrong type is a
/// decoding error naming its path. Extensions are decoded only where assetc uses them.
struct GLTFAsset: Decodable {
    struct Info: Decodable {
        var version: String
        var minVersion: String?
        var generator: String?
    }

    struct SceneEntry: Decodable {
        var name: String?
        var nodes: [Int]?
    }

    struct Node: Decodable {
        var name: String?
        var children: [Int]?
        var mesh: Int?
        var camera: Int?
        var skin: Int?
        var matrix: [Double]?
        var translation: [Double]?
        var rotation: [Double]?
        var scale: [Double]?
        var weights: [Double]?
        var extensions: NodeExtensions?
    }

    struct NodeExtensions: Decodable {
        struct LightReference: Decodable { var light: Int }
        var KHR_lights_punctual: LightReference?
    }

    struct Mesh: Decodable {
        /// `extras.targetNames`: the morph target names most exporters (Blender, three.js) write.
        struct Extras: Decodable { var targetNames: [String]? }
        var name: String?
        var primitives: [Primitive]
        var weights: [Double]?
        var extras: Extras?

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decodeIfPresent(String.self, forKey: .name)
            primitives = try c.decode([Primitive].self, forKey: .primitives)
            weights = try c.decodeIfPresent([Double].self, forKey: .weights)
            // `extras` is free-form application data: a shape other than the convention's means no
            // names, not a broken file.
            do { extras = try c.decodeIfPresent(Extras.self, forKey: .extras) } catch { extras = nil }
        }

        private enum CodingKeys: String, CodingKey { case name, primitives, weights, extras }
    }

    struct Skin: Decodable {
        var name: String?
        var inverseBindMatrices: Int?
        var skeleton: Int?
        var joints: [Int]
    }

    struct Animation: Decodable {
        struct Channel: Decodable {
            struct Target: Decodable {
                struct Extensions: Decodable {
                    struct Pointer: Decodable { var pointer: String }
                    var KHR_animation_pointer: Pointer?
                }
                var node: Int?
                var path: String
                var extensions: Extensions?
            }
            var sampler: Int
            var target: Target
        }
        struct Sampler: Decodable {
            var input: Int
            var interpolation: String?
            var output: Int
        }
        var name: String?
        var channels: [Channel]
        var samplers: [Sampler]
    }

    struct Primitive: Decodable {
        var attributes: [String: Int]
        var indices: Int?
        var material: Int?
        var mode: Int?
        var targets: [[String: Int]]?
        var extensions: PrimitiveExtensions?
    }

    struct PrimitiveExtensions: Decodable {
        /// The primitive's indices and the named attributes are in a Draco buffer in `bufferView`.
        struct Draco: Decodable {
            var bufferView: Int
            var attributes: [String: Int]
        }
        /// KHR_materials_variants: the material the primitive takes under the variants listed.
        struct VariantMappings: Decodable {
            struct Mapping: Decodable { var material: Int; var variants: [Int] }
            var mappings: [Mapping]?
        }
        /// KHR_gaussian_splatting: the POINTS primitive is a set of 3D Gaussians.
        struct GaussianSplatting: Decodable {
            var kernel: String?
            var colorSpace: String?
            var projection: String?
            var sortingMethod: String?
        }
        var KHR_draco_mesh_compression: Draco?
        var KHR_materials_variants: VariantMappings?
        var KHR_gaussian_splatting: GaussianSplatting?
    }

    struct Accessor: Decodable {
        var bufferView: Int?
        var byteOffset: Int?
        var componentType: Int
        var normalized: Bool?
        var count: Int
        var type: String
        var sparse: Sparse?
        var name: String?
        var min: [Double]?
        var max: [Double]?
    }

    struct Sparse: Decodable {
        struct Indices: Decodable { var bufferView: Int; var byteOffset: Int?; var componentType: Int }
        struct Values: Decodable { var bufferView: Int; var byteOffset: Int? }
        var count: Int
        var indices: Indices
        var values: Values
    }

    struct BufferView: Decodable {
        var buffer: Int
        var byteOffset: Int?
        var byteLength: Int
        var byteStride: Int?
        var extensions: BufferViewExtensions?
    }

    /// EXT_meshopt_compression: the view's bytes are `count` elements of `byteStride` bytes,
    /// compressed in another buffer.
    struct BufferViewExtensions: Decodable {
        struct Meshopt: Decodable {
            var buffer: Int
            var byteOffset: Int?
            var byteLength: Int
            var byteStride: Int
            var count: Int
            var mode: String
            var filter: String?
        }
        var EXT_meshopt_compression: Meshopt?
    }

    struct Buffer: Decodable {
        struct Extensions: Decodable {
            struct Fallback: Decodable { var fallback: Bool? }
            var EXT_meshopt_compression: Fallback?
        }
        var uri: String?
        var byteLength: Int
        var extensions: Extensions?
    }

    struct TextureInfo: Decodable {
        var index: Int
        var texCoord: Int?
        var scale: Double?
        var strength: Double?
        var extensions: TextureInfoExtensions?
    }

    struct TextureInfoExtensions: Decodable {
        struct Transform: Decodable {
            var offset: [Double]?
            var rotation: Double?
            var scale: [Double]?
            var texCoord: Int?
        }
        var KHR_texture_transform: Transform?
    }

    struct Material: Decodable {
        struct PBR: Decodable {
            var baseColorFactor: [Double]?
            var baseColorTexture: TextureInfo?
            var metallicFactor: Double?
            var roughnessFactor: Double?
            var metallicRoughnessTexture: TextureInfo?
        }
        struct Extensions: Decodable {
            struct EmissiveStrength: Decodable { var emissiveStrength: Double? }
            struct Empty: Decodable {}
            struct SpecularGlossiness: Decodable {
                var diffuseFactor: [Double]?
                var diffuseTexture: TextureInfo?
                var specularFactor: [Double]?
                var glossinessFactor: Double?
                var specularGlossinessTexture: TextureInfo?
            }
            struct Transmission: Decodable {
                var transmissionFactor: Double?
                var transmissionTexture: TextureInfo?
            }
            struct Clearcoat: Decodable {
                var clearcoatFactor: Double?
                var clearcoatTexture: TextureInfo?
                var clearcoatRoughnessFactor: Double?
                var clearcoatRoughnessTexture: TextureInfo?
                var clearcoatNormalTexture: TextureInfo?
            }
            struct IOR: Decodable { var ior: Double? }
            var KHR_materials_emissive_strength: EmissiveStrength?
            var KHR_materials_unlit: Empty?
            var KHR_materials_pbrSpecularGlossiness: SpecularGlossiness?
            var KHR_materials_transmission: Transmission?
            var KHR_materials_clearcoat: Clearcoat?
            var KHR_materials_ior: IOR?
            // Read for their presence: UsdPreviewSurface has no place for them.
            var KHR_materials_sheen: Empty?
            var KHR_materials_volume: Empty?
            var KHR_materials_iridescence: Empty?
            var KHR_materials_specular: Empty?
            var KHR_materials_anisotropy: Empty?
            var KHR_materials_dispersion: Empty?
            var KHR_materials_diffuse_transmission: Empty?
        }
        var name: String?
        var pbrMetallicRoughness: PBR?
        var normalTexture: TextureInfo?
        var occlusionTexture: TextureInfo?
        var emissiveTexture: TextureInfo?
        var emissiveFactor: [Double]?
        var alphaMode: String?
        var alphaCutoff: Double?
        var doubleSided: Bool?
        var extensions: Extensions?
    }

    struct Texture: Decodable {
        struct Extensions: Decodable {
            struct Source: Decodable { var source: Int? }
            var EXT_texture_webp: Source?
            var KHR_texture_basisu: Source?
        }
        var sampler: Int?
        var source: Int?
        var name: String?
        var extensions: Extensions?
    }

    struct Image: Decodable {
        var uri: String?
        var mimeType: String?
        var bufferView: Int?
        var name: String?
    }

    struct Sampler: Decodable {
        var wrapS: Int?
        var wrapT: Int?
    }

    struct Camera: Decodable {
        struct Perspective: Decodable { var yfov: Double; var znear: Double; var zfar: Double?; var aspectRatio: Double? }
        struct Orthographic: Decodable { var xmag: Double; var ymag: Double; var znear: Double; var zfar: Double }
        var name: String?
        var type: String
        var perspective: Perspective?
        var orthographic: Orthographic?
    }

    struct RootExtensions: Decodable {
        struct Lights: Decodable { var lights: [Light]? }
        struct Variants: Decodable {
            struct Variant: Decodable { var name: String? }
            var variants: [Variant]?
        }
        var KHR_lights_punctual: Lights?
        var KHR_materials_variants: Variants?
    }

    struct Light: Decodable {
        var name: String?
        var type: String
        var color: [Double]?
        var intensity: Double?
    }

    var asset: Info
    var scene: Int?
    var scenes: [SceneEntry]?
    var nodes: [Node]?
    var meshes: [Mesh]?
    var accessors: [Accessor]?
    var bufferViews: [BufferView]?
    var buffers: [Buffer]?
    var materials: [Material]?
    var textures: [Texture]?
    var images: [Image]?
    var samplers: [Sampler]?
    var cameras: [Camera]?
    var skins: [Skin]?
    var animations: [Animation]?
    var extensionsUsed: [String]?
    var extensionsRequired: [String]?
    var extensions: RootExtensions?
}

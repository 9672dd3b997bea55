/// The parts of the glTF 2.0 JSON schema assetc writes. Optional members are left out when nil,
/// and JSON keys are sorted, so the same scene gives the same bytes.
struct GLTFDocument: Encodable {
    struct Asset: Encodable { var version = "2.0"; var generator: String }
    struct Scene: Encodable { var nodes: [Int] }
    struct Node: Encodable {
        var name: String?
        var mesh: Int?
        var skin: Int?
        var children: [Int]?
        /// Column-major, as Matrix4x4 stores it; omitted when identity, and for animated nodes,
        /// which glTF moves by their TRS.
        var matrix: [Double]?
        var translation: [Double]?
        var rotation: [Double]?
        var scale: [Double]?
        var camera: Int?
        var extensions: NodeExtensions?
    }
    struct NodeExtensions: Encodable {
        struct LightReference: Encodable { var light: Int }
        var KHR_lights_punctual: LightReference?
    }
    struct Camera: Encodable {
        struct Perspective: Encodable { var yfov: Double; var znear: Double; var zfar: Double? }
        struct Orthographic: Encodable { var xmag: Double; var ymag: Double; var znear: Double; var zfar: Double }
        var name: String?
        var type: String
        var perspective: Perspective?
        var orthographic: Orthographic?
    }
    /// A KHR_lights_punctual light; `spot` is written empty (the extension's default cone angles).
    struct PunctualLight: Encodable {
        struct Spot: Encodable {}
        var name: String?
        var type: String
        var color: [Float]?
        var intensity: Float?
        var spot: Spot?
    }
    struct Primitive: Encodable {
        var attributes: [String: Int]
        /// nil for KHR_gaussian_splatting points, each drawn once.
        var indices: Int?
        var material: Int?
        var mode = 4
        var targets: [[String: Int]]?
        var extensions: PrimitiveExtensions?
    }
    struct VariantMapping: Encodable { var material: Int; var variants: [Int] }
    struct PrimitiveExtensions: Encodable {
        struct Variants: Encodable { var mappings: [VariantMapping] }
        struct Draco: Encodable { var bufferView: Int; var attributes: [String: Int] }
        var KHR_materials_variants: Variants?
        var KHR_draco_mesh_compression: Draco?
        var KHR_gaussian_splatting: GaussianSplatting?
    }
    struct GaussianSplatting: Encodable { var kernel: String; var colorSpace: String }
    struct RootExtensions: Encodable {
        struct Variant: Encodable { var name: String }
        struct Variants: Encodable { var variants: [Variant] }
        var KHR_materials_variants: Variants?
        struct Lights: Encodable { var lights: [PunctualLight] }
        var KHR_lights_punctual: Lights?
    }
    /// `extras.targetNames`: the morph target names Blender, three.js and assetc's reader use.
    struct MeshExtras: Encodable { var targetNames: [String] }
    struct Mesh: Encodable { var name: String?; var primitives: [Primitive]; var weights: [Float]?; var extras: MeshExtras? }
    struct Accessor: Encodable {
        /// nil for an accessor whose data a KHR_draco_mesh_compression stream holds.
        var bufferView: Int?
        var componentType: Int
        var normalized: Bool?
        var count: Int
        var type: String
        var min: [Float]?
        var max: [Float]?
    }
    struct Skin: Encodable { var name: String?; var inverseBindMatrices: Int; var joints: [Int] }
    struct Animation: Encodable {
        struct Target: Encodable {
            struct Pointer: Encodable { var pointer: String }
            struct Extensions: Encodable { var KHR_animation_pointer: Pointer }
            var node: Int?
            var path: String
            var extensions: Extensions?

            init(node: Int, path: String) { (self.node, self.path) = (node, path) }

            /// KHR_animation_pointer: `path` is "pointer" and the JSON pointer names the property.
            init(pointer: String) { (node, path, extensions) = (nil, "pointer", Extensions(KHR_animation_pointer: Pointer(pointer: pointer))) }
        }
        struct Channel: Encodable { var sampler: Int; var target: Target }
        struct Sampler: Encodable { var input: Int; var interpolation: String; var output: Int }
        var name: String?
        var channels: [Channel] = []
        var samplers: [Sampler] = []
    }
    struct BufferView: Encodable {
        struct Meshopt: Encodable {
            var buffer: Int
            var byteOffset: Int
            var byteLength: Int
            var byteStride: Int
            var count: Int
            var mode: String
            var filter: String?
        }
        struct Extensions: Encodable { var EXT_meshopt_compression: Meshopt }
        var buffer = 0
        var byteOffset: Int
        var byteLength: Int
        var byteStride: Int?
        var target: Int?
        var extensions: Extensions?

        init(buffer: Int = 0, byteOffset: Int, byteLength: Int, byteStride: Int? = nil, target: Int?, extensions: Extensions? = nil) {
            (self.buffer, self.byteOffset, self.byteLength, self.byteStride, self.target, self.extensions) =
                (buffer, byteOffset, byteLength, byteStride, target, extensions)
        }
    }
    struct Buffer: Encodable {
        struct Fallback: Encodable { var fallback = true }
        struct Extensions: Encodable { var EXT_meshopt_compression: Fallback }
        var byteLength: Int
        var uri: String?
        var extensions: Extensions?
    }
    struct TextureTransform: Encodable { var offset: [Float]; var rotation: Float; var scale: [Float] }
    struct TextureInfoExtensions: Encodable { var KHR_texture_transform: TextureTransform? }
    struct TextureInfo: Encodable {
        var index: Int
        var texCoord: Int?
        var scale: Float?
        var strength: Float?
        var extensions: TextureInfoExtensions?
    }
    struct PBR: Encodable {
        var baseColorFactor: [Float]
        var baseColorTexture: TextureInfo?
        var metallicFactor: Float
        var roughnessFactor: Float
        var metallicRoughnessTexture: TextureInfo?
    }
    struct MaterialExtensions: Encodable {
        struct Clearcoat: Encodable {
            var clearcoatFactor: Float
            var clearcoatTexture: TextureInfo?
            var clearcoatRoughnessFactor: Float
            var clearcoatRoughnessTexture: TextureInfo?
        }
        struct IOR: Encodable { var ior: Float }
        struct EmissiveStrength: Encodable { var emissiveStrength: Float }
        struct Transmission: Encodable { var transmissionFactor: Float; var transmissionTexture: TextureInfo? }
        var KHR_materials_clearcoat: Clearcoat?
        var KHR_materials_transmission: Transmission?
        var KHR_materials_ior: IOR?
        var KHR_materials_emissive_strength: EmissiveStrength?
    }
    struct Material: Encodable {
        var name: String
        var pbrMetallicRoughness: PBR
        var extensions: MaterialExtensions?
        var emissiveFactor: [Float]?
        var normalTexture: TextureInfo?
        var occlusionTexture: TextureInfo?
        var alphaMode: String?
        var alphaCutoff: Float?
        var doubleSided: Bool?
    }
    struct Texture: Encodable {
        struct Source: Encodable { var source: Int }
        struct Extensions: Encodable { var EXT_texture_webp: Source }
        var sampler: Int
        /// Omitted only for a WebP texture without a fallback (EXT_texture_webp then required).
        var source: Int?
        var extensions: Extensions?
    }
    struct Image: Encodable { var uri: String?; var bufferView: Int?; var mimeType: String?; var name: String? }
    struct Sampler: Encodable { var wrapS: Int; var wrapT: Int }

    var asset: Asset
    var scene = 0
    var scenes: [Scene]
    var nodes: [Node] = []
    var meshes: [Mesh] = []
    var accessors: [Accessor] = []
    var bufferViews: [BufferView] = []
    var buffers: [Buffer] = []
    var materials: [Material]?
    var textures: [Texture]?
    var images: [Image]?
    var samplers: [Sampler]?
    var skins: [Skin]?
    var animations: [Animation]?
    var cameras: [Camera]?
    var extensionsUsed: [String]?
    var extensionsRequired: [String]?
    var extensions: RootExtensions?
}

/// The glTF 2.0 core JSON schema as data: for each object, its properties with their types,
/// ranges, enumerations and references, which are required, which depend on which, which exclude
/// each other. `GLTFSchemaWalk` checks a document against it. Facts from the specification's
/// schema files; the encoding is assetc's.
indirect enum GLTFShape: Sendable {
    case object(String)
    /// An integer with optional bounds (inclusive) and a required divisor.
    case integer(min: Int? = nil, max: Int? = nil, multipleOf: Int? = nil)
    /// A number; `exclusiveMin` makes `min` exclusive.
    case number(min: Double? = nil, max: Double? = nil, exclusiveMin: Bool = false)
    case string
    case uri
    case version
    /// A JSON pointer (RFC 6901), as KHR_animation_pointer's `pointer`.
    case jsonPointer
    /// An image's mimeType: PNG or JPEG, or a type an extension in use enables.
    case mimeType
    case boolean
    case integerEnum([Int])
    case stringEnum([String])
    /// An index into a top-level array (`accessors`), or into an array of the enclosing object
    /// (`samplers` of an animation) when `local`.
    case index(String, local: Bool = false)
    case array(GLTFShape, minItems: Int = 1, lengths: [Int]? = nil, unique: Bool = false)
    /// An object whose every member has the shape (a primitive's attributes).
    case map(GLTFShape)
    /// Free-form (`extras`).
    case anything
}

struct GLTFObjectSchema: Sendable {
    var properties: [(String, GLTFShape)]
    var required: [String] = []
    /// A property that is meaningless without another (`byteOffset` needs `bufferView`).
    var dependencies: [(String, String)] = []
    /// Exactly one of these must be present (`uri` or `bufferView` for an image).
    var oneOf: [String] = []

    func shape(of key: String) -> GLTFShape? {
        if key == "extensions" { return .object("extensions") }
        if key == "extras" { return .anything }
        return properties.first { $0.0 == key }?.1
    }
}

///
/// The tables are built per validation (computed, held by the walk) rather than as global `let`s:
/// an indirect enum's boxes are referenced through tagged pointers, which LeakSanitizer cannot
/// follow from a global, so the fuzzer took the tables for leaks.
enum GLTFSchema {
    static let components = [5120, 5121, 5122, 5123, 5125, 5126]
    static let types = ["SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4"]
    /// Components per element of each accessor type, and the lengths min and max may take.
    static let componentsPerType = ["SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16]

    static var root: GLTFObjectSchema { GLTFObjectSchema(properties: [
        ("extensionsUsed", .array(.string, unique: true)), ("extensionsRequired", .array(.string, unique: true)),
        ("accessors", .array(.object("accessor"))), ("animations", .array(.object("animation"))), ("asset", .object("asset")),
        ("buffers", .array(.object("buffer"))), ("bufferViews", .array(.object("bufferView"))), ("cameras", .array(.object("camera"))),
        ("images", .array(.object("image"))), ("materials", .array(.object("material"))), ("meshes", .array(.object("mesh"))),
        ("nodes", .array(.object("node"))), ("samplers", .array(.object("sampler"))), ("scene", .index("scenes")),
        ("scenes", .array(.object("scene"))), ("skins", .array(.object("skin"))), ("textures", .array(.object("texture"))),
    ], required: ["asset"]) }

    static var objects: [String: GLTFObjectSchema] { [
        "asset": GLTFObjectSchema(properties: [("copyright", .string), ("generator", .string), ("version", .version), ("minVersion", .version)],
                                  required: ["version"]),
        "accessor": GLTFObjectSchema(properties: [
            ("name", .string), ("bufferView", .index("bufferViews")), ("byteOffset", .integer(min: 0)),
            ("componentType", .integerEnum(components)), ("normalized", .boolean), ("count", .integer(min: 1)),
            ("type", .stringEnum(types)), ("max", .array(.number(), lengths: [1, 2, 3, 4, 9, 16])),
            ("min", .array(.number(), lengths: [1, 2, 3, 4, 9, 16])), ("sparse", .object("accessor.sparse")),
        ], required: ["componentType", "count", "type"], dependencies: [("byteOffset", "bufferView")]),
        "accessor.sparse": GLTFObjectSchema(properties: [
            ("count", .integer(min: 1)), ("indices", .object("accessor.sparse.indices")), ("values", .object("accessor.sparse.values")),
        ], required: ["count", "indices", "values"]),
        "accessor.sparse.indices": GLTFObjectSchema(properties: [
            ("bufferView", .index("bufferViews")), ("byteOffset", .integer(min: 0)), ("componentType", .integerEnum([5121, 5123, 5125])),
        ], required: ["bufferView", "componentType"]),
        "accessor.sparse.values": GLTFObjectSchema(properties: [("bufferView", .index("bufferViews")), ("byteOffset", .integer(min: 0))],
                                                   required: ["bufferView"]),
        "animation": GLTFObjectSchema(properties: [
            ("name", .string), ("channels", .array(.object("animation.channel"))), ("samplers", .array(.object("animation.sampler"))),
        ], required: ["channels", "samplers"]),
        "animation.channel": GLTFObjectSchema(properties: [("sampler", .index("samplers", local: true)), ("target", .object("animation.channel.target"))],
                                              required: ["sampler", "target"]),
        "animation.channel.target": GLTFObjectSchema(properties: [
            ("node", .index("nodes")), ("path", .stringEnum(["translation", "rotation", "scale", "weights"])),
        ], required: ["path"]),
        "animation.sampler": GLTFObjectSchema(properties: [
            ("input", .index("accessors")), ("interpolation", .stringEnum(["LINEAR", "STEP", "CUBICSPLINE"])), ("output", .index("accessors")),
        ], required: ["input", "output"]),
        "buffer": GLTFObjectSchema(properties: [("name", .string), ("uri", .uri), ("byteLength", .integer(min: 1))], required: ["byteLength"]),
        "bufferView": GLTFObjectSchema(properties: [
            ("name", .string), ("buffer", .index("buffers")), ("byteOffset", .integer(min: 0)), ("byteLength", .integer(min: 1)),
            ("byteStride", .integer(min: 4, max: 252, multipleOf: 4)), ("target", .integerEnum([34962, 34963])),
        ], required: ["buffer", "byteLength"]),
        "camera": GLTFObjectSchema(properties: [
            ("name", .string), ("orthographic", .object("camera.orthographic")), ("perspective", .object("camera.perspective")),
            ("type", .stringEnum(["perspective", "orthographic"])),
        ], required: ["type"]),
        "camera.orthographic": GLTFObjectSchema(properties: [
            ("xmag", .number()), ("ymag", .number()), ("zfar", .number(min: 0, exclusiveMin: true)), ("znear", .number(min: 0)),
        ], required: ["xmag", "ymag", "zfar", "znear"]),
        "camera.perspective": GLTFObjectSchema(properties: [
            ("aspectRatio", .number(min: 0, exclusiveMin: true)), ("yfov", .number(min: 0, exclusiveMin: true)),
            ("zfar", .number(min: 0, exclusiveMin: true)), ("znear", .number(min: 0, exclusiveMin: true)),
        ], required: ["yfov", "znear"]),
        "image": GLTFObjectSchema(properties: [
            ("name", .string), ("uri", .uri), ("mimeType", .mimeType), ("bufferView", .index("bufferViews")),
        ], dependencies: [("bufferView", "mimeType")], oneOf: ["uri", "bufferView"]),
        "material": GLTFObjectSchema(properties: [
            ("name", .string), ("pbrMetallicRoughness", .object("material.pbrMetallicRoughness")),
            ("normalTexture", .object("material.normalTextureInfo")), ("occlusionTexture", .object("material.occlusionTextureInfo")),
            ("emissiveTexture", .object("textureInfo")), ("emissiveFactor", .array(.number(min: 0, max: 1), lengths: [3])),
            ("alphaMode", .stringEnum(["OPAQUE", "MASK", "BLEND"])), ("alphaCutoff", .number(min: 0)), ("doubleSided", .boolean),
        ]),
        "material.pbrMetallicRoughness": GLTFObjectSchema(properties: [
            ("baseColorFactor", .array(.number(min: 0, max: 1), lengths: [4])), ("baseColorTexture", .object("textureInfo")),
            ("metallicFactor", .number(min: 0, max: 1)), ("roughnessFactor", .number(min: 0, max: 1)),
            ("metallicRoughnessTexture", .object("textureInfo")),
        ]),
        "textureInfo": GLTFObjectSchema(properties: [("index", .index("textures")), ("texCoord", .integer(min: 0))], required: ["index"]),
        "material.normalTextureInfo": GLTFObjectSchema(properties: [("index", .index("textures")), ("texCoord", .integer(min: 0)), ("scale", .number())],
                                                       required: ["index"]),
        "material.occlusionTextureInfo": GLTFObjectSchema(properties: [
            ("index", .index("textures")), ("texCoord", .integer(min: 0)), ("strength", .number(min: 0, max: 1)),
        ], required: ["index"]),
        "mesh": GLTFObjectSchema(properties: [("name", .string), ("primitives", .array(.object("mesh.primitive"))), ("weights", .array(.number()))],
                                 required: ["primitives"]),
        "mesh.primitive": GLTFObjectSchema(properties: [
            ("attributes", .map(.index("accessors"))), ("indices", .index("accessors")), ("material", .index("materials")),
            ("mode", .integerEnum([0, 1, 2, 3, 4, 5, 6])), ("targets", .array(.map(.index("accessors")))),
        ], required: ["attributes"]),
        "node": GLTFObjectSchema(properties: [
            ("name", .string), ("camera", .index("cameras")), ("children", .array(.index("nodes"), unique: true)), ("skin", .index("skins")),
            ("matrix", .array(.number(), lengths: [16])), ("mesh", .index("meshes")), ("rotation", .array(.number(min: -1, max: 1), lengths: [4])),
            ("scale", .array(.number(), lengths: [3])), ("translation", .array(.number(), lengths: [3])), ("weights", .array(.number())),
        ], dependencies: [("skin", "mesh"), ("weights", "mesh")]),
        "sampler": GLTFObjectSchema(properties: [
            ("name", .string), ("magFilter", .integerEnum([9728, 9729])), ("minFilter", .integerEnum([9728, 9729, 9984, 9985, 9986, 9987])),
            ("wrapS", .integerEnum([33071, 33648, 10497])), ("wrapT", .integerEnum([33071, 33648, 10497])),
        ]),
        "scene": GLTFObjectSchema(properties: [("name", .string), ("nodes", .array(.index("nodes"), unique: true))]),
        "skin": GLTFObjectSchema(properties: [
            ("name", .string), ("inverseBindMatrices", .index("accessors")), ("skeleton", .index("nodes")),
            ("joints", .array(.index("nodes"), unique: true)),
        ], required: ["joints"]),
        "texture": GLTFObjectSchema(properties: [("name", .string), ("sampler", .index("samplers")), ("source", .index("images"))]),
    ] }
}

/// The schemas of the extensions assetc reads, by where each may appear (the kind of object it
/// extends). An extension not listed here is reported once as UNSUPPORTED_EXTENSION and its
/// content is not checked. Facts from the Khronos extension specifications.
enum GLTFExtensionSchemas {
    private static var unit: GLTFShape { .number(min: 0, max: 1) }
    private static let halfPi = Double.pi / 2

    /// The extensions whose content is checked.
    static let names: Set<String> = ["KHR_materials_emissive_strength", "KHR_materials_ior", "KHR_materials_unlit", "KHR_materials_transmission",
                                     "KHR_materials_clearcoat", "KHR_materials_pbrSpecularGlossiness", "KHR_materials_variants",
                                     "KHR_texture_transform", "KHR_lights_punctual", "KHR_draco_mesh_compression", "EXT_meshopt_compression",
                                     "KHR_mesh_quantization", "EXT_texture_webp", "KHR_animation_pointer", "KHR_materials_anisotropy",
                                     "KHR_materials_dispersion", "KHR_materials_iridescence", "KHR_materials_sheen", "KHR_materials_specular",
                                     "KHR_materials_volume", "KHR_node_visibility", "KHR_gaussian_splatting"]

    /// Built per validation, as `GLTFSchema`'s tables are.
    static var places: [String: [String: GLTFObjectSchema]] { [
        "KHR_materials_emissive_strength": ["material": GLTFObjectSchema(properties: [("emissiveStrength", .number(min: 0))])],
        "KHR_materials_ior": ["material": GLTFObjectSchema(properties: [("ior", .number(min: 0))])],
        "KHR_materials_unlit": ["material": GLTFObjectSchema(properties: [])],
        "KHR_materials_transmission": ["material": GLTFObjectSchema(properties: [
            ("transmissionFactor", unit), ("transmissionTexture", .object("textureInfo")),
        ])],
        "KHR_materials_clearcoat": ["material": GLTFObjectSchema(properties: [
            ("clearcoatFactor", unit), ("clearcoatTexture", .object("textureInfo")), ("clearcoatRoughnessFactor", unit),
            ("clearcoatRoughnessTexture", .object("textureInfo")), ("clearcoatNormalTexture", .object("material.normalTextureInfo")),
        ])],
        "KHR_materials_pbrSpecularGlossiness": ["material": GLTFObjectSchema(properties: [
            ("diffuseFactor", .array(unit, lengths: [4])), ("diffuseTexture", .object("textureInfo")),
            ("specularFactor", .array(unit, lengths: [3])), ("glossinessFactor", unit), ("specularGlossinessTexture", .object("textureInfo")),
        ])],
        "KHR_materials_variants": [
            "glTF": GLTFObjectSchema(properties: [("variants", .array(.object("KHR_materials_variants.variant")))], required: ["variants"]),
            "mesh.primitive": GLTFObjectSchema(properties: [("mappings", .array(.object("KHR_materials_variants.mapping")))], required: ["mappings"]),
        ],
        "KHR_texture_transform": Dictionary(uniqueKeysWithValues: ["textureInfo", "material.normalTextureInfo", "material.occlusionTextureInfo"].map {
            ($0, GLTFObjectSchema(properties: [("offset", .array(.number(), lengths: [2])), ("rotation", .number()),
                                               ("scale", .array(.number(), lengths: [2])), ("texCoord", .integer(min: 0))]))
        }),
        "KHR_lights_punctual": [
            "glTF": GLTFObjectSchema(properties: [("lights", .array(.object("KHR_lights_punctual.light")))], required: ["lights"]),
            "node": GLTFObjectSchema(properties: [("light", .index("KHR_lights_punctual.lights"))], required: ["light"]),
        ],
        "KHR_draco_mesh_compression": ["mesh.primitive": GLTFObjectSchema(properties: [
            ("bufferView", .index("bufferViews")), ("attributes", .map(.integer(min: 0))),
        ], required: ["bufferView", "attributes"])],
        "EXT_meshopt_compression": [
            "bufferView": GLTFObjectSchema(properties: [
                ("buffer", .index("buffers")), ("byteOffset", .integer(min: 0)), ("byteLength", .integer(min: 1)),
                ("byteStride", .integer(min: 1, max: 256)), ("count", .integer(min: 1)),
                ("mode", .stringEnum(["ATTRIBUTES", "TRIANGLES", "INDICES"])),
                ("filter", .stringEnum(["NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL"])),
            ], required: ["buffer", "byteLength", "byteStride", "count", "mode"]),
            "buffer": GLTFObjectSchema(properties: [("fallback", .boolean)]),
        ],
        "KHR_materials_anisotropy": ["material": GLTFObjectSchema(properties: [
            ("anisotropyStrength", unit), ("anisotropyRotation", .number()), ("anisotropyTexture", .object("textureInfo")),
        ])],
        "KHR_materials_dispersion": ["material": GLTFObjectSchema(properties: [("dispersion", .number(min: 0))])],
        "KHR_materials_iridescence": ["material": GLTFObjectSchema(properties: [
            ("iridescenceFactor", unit), ("iridescenceTexture", .object("textureInfo")), ("iridescenceIor", .number(min: 1)),
            ("iridescenceThicknessMinimum", .number(min: 0)), ("iridescenceThicknessMaximum", .number(min: 0)),
            ("iridescenceThicknessTexture", .object("textureInfo")),
        ])],
        "KHR_materials_sheen": ["material": GLTFObjectSchema(properties: [
            ("sheenColorFactor", .array(unit, lengths: [3])), ("sheenColorTexture", .object("textureInfo")),
            ("sheenRoughnessFactor", unit), ("sheenRoughnessTexture", .object("textureInfo")),
        ])],
        "KHR_materials_specular": ["material": GLTFObjectSchema(properties: [
            ("specularFactor", unit), ("specularTexture", .object("textureInfo")),
            ("specularColorFactor", .array(.number(min: 0), lengths: [3])), ("specularColorTexture", .object("textureInfo")),
        ])],
        "KHR_materials_volume": ["material": GLTFObjectSchema(properties: [
            ("thicknessFactor", .number(min: 0)), ("thicknessTexture", .object("textureInfo")),
            ("attenuationDistance", .number(min: 0, exclusiveMin: true)), ("attenuationColor", .array(unit, lengths: [3])),
        ])],
        "KHR_node_visibility": ["node": GLTFObjectSchema(properties: [("visible", .boolean)])],
        // kernel and colorSpace are required; other values than the ones defined may come from
        // extensions of the extension, so any string is taken.
        "KHR_gaussian_splatting": ["mesh.primitive": GLTFObjectSchema(properties: [
            ("kernel", .string), ("colorSpace", .string), ("projection", .string), ("sortingMethod", .string),
        ], required: ["kernel", "colorSpace"])],
        "KHR_mesh_quantization": [:],
        "EXT_texture_webp": ["texture": GLTFObjectSchema(properties: [("source", .index("images"))])],
        "KHR_animation_pointer": ["animation.channel.target": GLTFObjectSchema(properties: [("pointer", .jsonPointer)], required: ["pointer"])],
    ] }

    static var objects: [String: GLTFObjectSchema] { [
        "KHR_materials_variants.variant": GLTFObjectSchema(properties: [("name", .string)], required: ["name"]),
        "KHR_materials_variants.mapping": GLTFObjectSchema(properties: [
            ("variants", .array(.index("KHR_materials_variants.variants"), unique: true)), ("material", .index("materials")), ("name", .string),
        ], required: ["variants", "material"]),
        "KHR_lights_punctual.light": GLTFObjectSchema(properties: [
            ("name", .string), ("color", .array(unit, lengths: [3])), ("intensity", .number(min: 0)),
            ("type", .stringEnum(["directional", "point", "spot"])), ("range", .number(min: 0, exclusiveMin: true)),
            ("spot", .object("KHR_lights_punctual.spot")),
        ], required: ["type"]),
        "KHR_lights_punctual.spot": GLTFObjectSchema(properties: [
            ("innerConeAngle", .number(min: 0, max: halfPi)), ("outerConeAngle", .number(min: 0, max: halfPi, exclusiveMin: true)),
        ]),
    ] }
}

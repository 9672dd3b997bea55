/// The Khronos glTF-Validator's issue codes with the severity it gives each (its ISSUES.md), so a
/// finding from assetc and one from the reference read the same. The summaries are assetc's.
/// `checked` says whether assetc looks for the issue; Docs/Validation.md lists those it does not
/// and why.
public struct GLTFIssue: Sendable, Hashable {
    public var code: String
    public var severity: ValidationFinding.Severity
    public var summary: String
    public var checked: Bool

    public static func named(_ code: String) -> GLTFIssue? { byCode[code] }

    static let byCode = Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0) })

    static func issue(_ code: String) -> GLTFIssue {
        guard let found = byCode[code] else { preconditionFailure("\(code) is not in the catalogue") }
        return found
    }

    private static func e(_ code: String, _ summary: String, checked: Bool = true) -> GLTFIssue { make(.error, code, summary, checked) }
    private static func w(_ code: String, _ summary: String, checked: Bool = true) -> GLTFIssue { make(.warning, code, summary, checked) }
    private static func i(_ code: String, _ summary: String, checked: Bool = true) -> GLTFIssue { make(.info, code, summary, checked) }
    private static func h(_ code: String, _ summary: String, checked: Bool = true) -> GLTFIssue { make(.hint, code, summary, checked) }

    private static func make(_ severity: ValidationFinding.Severity, _ code: String, _ summary: String, _ checked: Bool) -> GLTFIssue {
        GLTFIssue(code: code, severity: severity, summary: summary, checked: checked)
    }

    public static let all: [GLTFIssue] = io + schema + semantic + link + data + glb + assetcOwn

    /// assetc's own, for what the Khronos validator cannot see (it does not decode compressed
    /// streams); prefixed so no one takes it for a Khronos code.
    static let assetcOwn: [GLTFIssue] = [
        e("ASSETC_COMPRESSED_STREAM_INVALID", "A Draco or meshopt stream does not decode (assetc's own code: the Khronos validator does not decode them)."),
        e("ASSETC_SPLAT_PRIMITIVE", "A KHR_gaussian_splatting primitive is not POINTS, lacks POSITION, ROTATION, SCALE, OPACITY or SH_DEGREE_0_COEF_0, or gives a spherical-harmonic degree in part (assetc's own code)."),
        e("ASSETC_SPLAT_VALUE", "A KHR_gaussian_splatting attribute holds what its meaning rules out: a ROTATION not of unit length, an OPACITY outside 0..1, a negative SCALE (assetc's own code)."),
        e("ASSETC_SPLAT_ACCESSOR", "A KHR_gaussian_splatting attribute has a type or component type the extension does not allow (assetc's own code)."),
    ]

    static let io: [GLTFIssue] = [
        e("IO_ERROR", "A buffer or image file the asset names cannot be read."),
    ]

    static let schema: [GLTFIssue] = [
        e("ARRAY_LENGTH_NOT_IN_LIST", "An array has a length its property does not allow."),
        e("ARRAY_TYPE_MISMATCH", "An array holds an element of the wrong type."),
        e("DUPLICATE_ELEMENTS", "An array that must hold distinct values repeats one."),
        e("EMPTY_ENTITY", "An array or object that must not be empty is."),
        e("INVALID_INDEX", "An index is not a non-negative integer."),
        e("INVALID_JSON", "The JSON does not parse."),
        e("INVALID_URI", "A URI is malformed."),
        e("ONE_OF_MISMATCH", "Not exactly one of a set of alternative properties is given."),
        e("PATTERN_MISMATCH", "A string does not match the pattern its property requires."),
        e("TYPE_MISMATCH", "A property's value has the wrong JSON type."),
        e("UNDEFINED_PROPERTY", "A required property is missing."),
        w("UNEXPECTED_PROPERTY", "A property the schema does not define."),
        e("UNSATISFIED_DEPENDENCY", "A property is given without one it depends on."),
        e("VALUE_MULTIPLE_OF", "A value is not a multiple of what its property requires."),
        w("VALUE_NOT_IN_LIST", "A value is not one of the values its property allows."),
        e("VALUE_NOT_IN_RANGE", "A value lies outside its property's range."),
    ]

    static let semantic: [GLTFIssue] = [
        e("ACCESSOR_MATRIX_ALIGNMENT", "A matrix accessor's columns are not 4-byte aligned."),
        e("ACCESSOR_NORMALIZED_INVALID", "`normalized` on a component type other than (unsigned) byte or short."),
        e("ACCESSOR_OFFSET_ALIGNMENT", "An accessor's byteOffset is not a multiple of its component size."),
        e("ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE", "A sparse accessor replaces more elements than the accessor has."),
        w("ANIMATION_CHANNEL_TARGET_NODE_SKIN", "An animation moves a node whose skinned mesh ignores its transform."),
        e("ASSET_MIN_VERSION_GREATER_THAN_VERSION", "asset.minVersion is above asset.version."),
        e("BUFFER_DATA_URI_MIME_TYPE_INVALID", "A buffer's data: URI has a media type other than application/octet-stream or application/gltf-buffer."),
        e("BUFFER_VIEW_INVALID_BYTE_STRIDE", "byteStride on a buffer view that does not hold vertex attributes."),
        e("BUFFER_VIEW_TOO_BIG_BYTE_STRIDE", "A buffer view's byteStride exceeds its byteLength."),
        w("CAMERA_XMAG_YMAG_NEGATIVE", "An orthographic camera's xmag or ymag is negative."),
        e("CAMERA_XMAG_YMAG_ZERO", "An orthographic camera's xmag or ymag is zero."),
        w("CAMERA_YFOV_GEQUAL_PI", "A perspective camera's yfov is pi or more."),
        e("CAMERA_ZFAR_LEQUAL_ZNEAR", "A camera's zfar is not beyond its znear."),
        i("EXTRA_PROPERTY", "A property that has no effect where it is.", checked: false),
        w("INVALID_EXTENSION_NAME_FORMAT", "An extension name is not PREFIX_name."),
        e("INVALID_GL_VALUE", "A GL enum (component type, target, filter, wrap) takes a value GL does not define for it.", checked: false),
        e("KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_NODE", "A KHR_animation_pointer channel also names a target node."),
        e("KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_PATH", "A KHR_animation_pointer channel's path is not 'pointer'."),
        e("KHR_LIGHTS_PUNCTUAL_LIGHT_SPOT_ANGLES", "A spot light's outer cone angle is not beyond its inner one."),
        w("KHR_MATERIALS_ANISOTROPY_ANISOTROPY_TEXTURE_TEXCOORD", "Normal and anisotropy textures read different texture coordinates."),
        w("KHR_MATERIALS_CLEARCOAT_CLEARCOAT_NORMAL_TEXTURE_TEXCOORD", "Normal and clearcoat normal textures read different texture coordinates."),
        w("KHR_MATERIALS_DISPERSION_NO_VOLUME", "KHR_materials_dispersion without KHR_materials_volume."),
        w("KHR_MATERIALS_EMISSIVE_STRENGTH_ZERO_FACTOR", "An emissive strength on a material that emits nothing."),
        i("KHR_MATERIALS_IRIDESCENCE_THICKNESS_RANGE_WITHOUT_TEXTURE", "An iridescence thickness minimum without a thickness texture.", checked: false),
        i("KHR_MATERIALS_IRIDESCENCE_THICKNESS_TEXTURE_UNUSED", "An iridescence thickness texture whose range is empty.", checked: false),
        w("KHR_MATERIALS_VOLUME_DOUBLE_SIDED", "KHR_materials_volume on a double-sided material."),
        w("KHR_MATERIALS_VOLUME_NO_TRANSMISSION", "KHR_materials_volume without an extension that lets light through."),
        w("MATERIAL_ALPHA_CUTOFF_INVALID_MODE", "alphaCutoff on a material whose alphaMode is not MASK."),
        e("MESH_INVALID_WEIGHTS_COUNT", "A mesh's weights do not match its morph target count."),
        e("MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT", "A mesh's primitives have different numbers of morph targets."),
        e("MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY", "Indexed attribute sets (TEXCOORD_n, JOINTS_n...) skip a number."),
        e("MESH_PRIMITIVE_INVALID_ATTRIBUTE", "An attribute name glTF does not define and that does not start with '_'."),
        e("MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH", "A primitive's JOINTS_n and WEIGHTS_n sets differ in number."),
        w("MESH_PRIMITIVE_NO_POSITION", "A primitive without POSITION."),
        w("MESH_PRIMITIVE_TANGENT_WITHOUT_NORMAL", "A primitive with TANGENT but no NORMAL."),
        w("MULTIPLE_EXTENSIONS", "Extensions on one object that may not combine."),
        i("NODE_EMPTY", "A node with nothing in it and nothing under it."),
        i("NODE_MATRIX_DEFAULT", "A node's matrix is the identity, which is the default."),
        e("NODE_MATRIX_NON_TRS", "A node's matrix cannot be split into translation, rotation and scale."),
        e("NODE_MATRIX_TRS", "A node has both a matrix and translation, rotation or scale."),
        w("NODE_SKINNED_MESH_LOCAL_TRANSFORMS", "A skinned mesh's node has a transform the skin ignores."),
        i("NODE_SKINNED_MESH_NON_ROOT", "A skinned mesh's node is not a root node."),
        w("NODE_SKINNED_MESH_PARENT_TRANSFORMS", "A skinned mesh's node has an ancestor with a transform, which the skin ignores."),
        e("NODE_SKIN_NO_SCENE", "A skinned node's scene holds none of the skin's joints."),
        i("NON_OBJECT_EXTRAS", "extras that are not a JSON object."),
        w("NON_RELATIVE_URI", "A URI that is not relative."),
        e("NON_REQUIRED_EXTENSION", "An extension that must be required is only used."),
        e("ROTATION_NON_UNIT", "A node's rotation quaternion is not unit length."),
        e("SKIN_NO_COMMON_ROOT", "A skin's joints share no common root."),
        e("SKIN_SKELETON_INVALID", "A skin's skeleton node is not an ancestor of all its joints."),
        e("UNKNOWN_ASSET_MAJOR_VERSION", "asset.version's major number is not 2."),
        w("UNKNOWN_ASSET_MINOR_VERSION", "asset.version's minor number is not 0."),
        e("UNUSED_EXTENSION_REQUIRED", "A required extension that extensionsUsed does not list."),
    ]

    static let link: [GLTFIssue] = [
        e("ACCESSOR_SMALL_BYTESTRIDE", "A buffer view's byteStride is shorter than the accessor's element."),
        e("ACCESSOR_TOO_LONG", "An accessor runs past the end of its buffer view."),
        e("ACCESSOR_TOTAL_OFFSET_ALIGNMENT", "An accessor's offset in its buffer is not a multiple of its component size."),
        e("ACCESSOR_USAGE_OVERRIDE", "One accessor is used for two incompatible purposes."),
        e("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", "An animation moves a node that has a matrix."),
        e("ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS", "An animation drives weights of a node whose mesh has no morph targets."),
        e("ANIMATION_DUPLICATE_TARGETS", "Two channels of one animation drive the same property."),
        e("ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE", "An animation sampler's accessor lies in a strided buffer view."),
        e("ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT", "An animation sampler's input is not scalar floats."),
        e("ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS", "An animation sampler has fewer keys than its interpolation needs."),
        e("ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", "An animation sampler's input accessor has no min and max."),
        e("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", "An animation sampler's output count does not fit its input and interpolation."),
        e("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", "An animation sampler's output has the wrong type for its target path."),
        e("BUFFER_MISSING_GLB_DATA", "A buffer without uri in a file without a BIN chunk."),
        h("BUFFER_VIEW_TARGET_MISSING", "A buffer view holding vertex or index data without a target."),
        e("BUFFER_VIEW_TARGET_OVERRIDE", "One buffer view is used as vertex and as index data."),
        e("BUFFER_VIEW_TOO_LONG", "A buffer view runs past the end of its buffer."),
        e("IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE", "An image's buffer view has a byteStride."),
        i("INCOMPLETE_EXTENSION_SUPPORT", "An extension whose own rules are checked only in part.", checked: false),
        e("INVALID_IBM_ACCESSOR_COUNT", "A skin has fewer inverse bind matrices than joints."),
        e("KHR_MATERIALS_VARIANTS_NON_UNIQUE_VARIANT", "A variant named twice in one primitive's mappings."),
        e("MESH_PRIMITIVE_ACCESSOR_UNALIGNED", "Vertex attribute data not aligned to 4 bytes."),
        e("MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE", "Several vertex accessors share a buffer view without a byteStride."),
        e("MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT", "An attribute's accessor has a type or component type its semantic does not allow."),
        e("MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_UNSIGNED_INT", "A vertex attribute stored as unsigned int."),
        w("MESH_PRIMITIVE_GENERATED_TANGENT_SPACE", "A normal-mapped primitive without normals or tangents, left for the viewer to generate."),
        w("MESH_PRIMITIVE_INCOMPATIBLE_MODE", "A vertex or index count that does not fit the primitive's mode."),
        e("MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT", "Indices not scalar unsigned byte, short or int."),
        e("MESH_PRIMITIVE_INDICES_ACCESSOR_WITH_BYTESTRIDE", "Indices in a strided buffer view."),
        e("MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT", "A morph target's accessor count differs from the base attribute's."),
        e("MESH_PRIMITIVE_MORPH_TARGET_NO_BASE_ACCESSOR", "A morph target moves an attribute the primitive does not have."),
        e("MESH_PRIMITIVE_NO_TANGENT_SPACE", "A material needs a tangent space the primitive cannot give."),
        e("MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", "A POSITION accessor without min and max."),
        e("MESH_PRIMITIVE_TOO_FEW_TEXCOORDS", "A material's texture reads a TEXCOORD_n the primitive does not have."),
        e("MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT", "A primitive's attributes have different counts."),
        e("NODE_LOOP", "A node is its own ancestor."),
        e("NODE_PARENT_OVERRIDE", "A node is the child of two parents."),
        w("NODE_SKINNED_MESH_WITHOUT_SKIN", "A node's mesh has joints and weights but the node has no skin."),
        e("NODE_SKIN_WITH_NON_SKINNED_MESH", "A node has a skin but its mesh has no joints and weights."),
        e("NODE_WEIGHTS_INVALID", "A node's weights do not match its mesh's morph target count."),
        e("SCENE_NON_ROOT_NODE", "A scene lists a node that has a parent."),
        e("SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE", "Inverse bind matrices in a strided buffer view."),
        e("SKIN_IBM_INVALID_FORMAT", "Inverse bind matrices not float MAT4."),
        e("TEXTURE_INVALID_IMAGE_MIME_TYPE", "A texture's source image has a type glTF textures do not take."),
        e("UNDECLARED_EXTENSION", "An extension used but not listed in extensionsUsed."),
        e("UNEXPECTED_EXTENSION_OBJECT", "An extension on an object it does not apply to."),
        e("UNRESOLVED_REFERENCE", "An index that names no object."),
        i("UNSUPPORTED_EXTENSION", "An extension whose rules assetc does not check."),
        i("UNUSED_MESH_TANGENT", "Tangents on a primitive whose material has no normal map."),
        i("UNUSED_MESH_WEIGHTS", "Mesh weights that every node using the mesh replaces."),
        i("UNUSED_OBJECT", "An object nothing refers to."),
    ]

    static let data: [GLTFIssue] = [
        e("ACCESSOR_ANIMATION_INPUT_NEGATIVE", "A key time is negative."),
        e("ACCESSOR_ANIMATION_INPUT_NON_INCREASING", "Key times do not increase."),
        e("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", "A rotation key is not a unit quaternion."),
        e("ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND", "Sparse-replaced elements exceed the accessor's declared max."),
        e("ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND", "Sparse-replaced elements fall below the accessor's declared min."),
        e("ACCESSOR_INDEX_OOB", "An index at or past the vertex count."),
        e("ACCESSOR_INDEX_PRIMITIVE_RESTART", "An index equal to its type's largest value (primitive restart)."),
        i("ACCESSOR_INDEX_TRIANGLE_DEGENERATE", "Triangles with a repeated vertex."),
        e("ACCESSOR_INVALID_FLOAT", "A NaN or infinite value."),
        e("ACCESSOR_INVALID_IBM", "An inverse bind matrix whose last row is not (0, 0, 0, 1)."),
        e("ACCESSOR_INVALID_SIGN", "A tangent's w is not 1 or -1."),
        e("ACCESSOR_JOINTS_INDEX_DUPLICATE", "A vertex names one joint twice with weight."),
        e("ACCESSOR_JOINTS_INDEX_OOB", "A joint index past the skin's joints."),
        w("ACCESSOR_JOINTS_USED_ZERO_WEIGHT", "A non-zero joint index with zero weight."),
        e("ACCESSOR_MAX_MISMATCH", "An accessor's declared max is not its data's."),
        e("ACCESSOR_MIN_MISMATCH", "An accessor's declared min is not its data's."),
        e("ACCESSOR_NON_CLAMPED", "A colour or weight outside 0..1."),
        e("ACCESSOR_SPARSE_INDEX_OOB", "A sparse index at or past the accessor's count."),
        e("ACCESSOR_SPARSE_INDICES_NON_INCREASING", "Sparse indices do not increase."),
        e("ACCESSOR_VECTOR3_NON_UNIT", "A normal or tangent is not unit length."),
        e("ACCESSOR_WEIGHTS_NEGATIVE", "A negative skin weight."),
        e("ACCESSOR_WEIGHTS_NON_NORMALIZED", "A vertex's skin weights do not sum to one."),
        e("BUFFER_BYTE_LENGTH_MISMATCH", "A buffer's data is shorter than its byteLength."),
        w("BUFFER_GLB_CHUNK_TOO_BIG", "The BIN chunk is more than 3 bytes longer than its buffer."),
        w("DATA_URI_GLB", "A data: URI inside a GLB."),
        e("IMAGE_DATA_INVALID", "An image's bytes are broken."),
        w("IMAGE_FEATURES_UNSUPPORTED", "An image with features glTF viewers need not support."),
        e("IMAGE_MIME_TYPE_INVALID", "An image's bytes are not of its declared mimeType."),
        e("IMAGE_NON_ENABLED_MIME_TYPE", "An image type that needs an extension the asset does not use."),
        i("IMAGE_NPOT_DIMENSIONS", "An image whose sides are not powers of two."),
        e("IMAGE_UNEXPECTED_EOS", "An image's bytes end early."),
        w("IMAGE_UNRECOGNIZED_FORMAT", "An image in no format glTF knows."),
        i("URI_GLB", "A GLB that refers to outside files."),
    ]

    static let glb: [GLTFIssue] = [
        e("GLB_CHUNK_LENGTH_UNALIGNED", "A chunk's length is not a multiple of 4."),
        e("GLB_CHUNK_TOO_BIG", "A chunk runs past the GLB's declared length."),
        e("GLB_DUPLICATE_CHUNK", "A second JSON or BIN chunk."),
        i("GLB_EMPTY_BIN_CHUNK", "An empty BIN chunk, better left out."),
        e("GLB_EMPTY_CHUNK", "A JSON chunk of zero length."),
        w("GLB_EXTRA_DATA", "Bytes after the GLB's declared length."),
        e("GLB_INVALID_MAGIC", "The file does not start with 'glTF'."),
        e("GLB_INVALID_VERSION", "The GLB container version is not 2."),
        e("GLB_LENGTH_MISMATCH", "The declared length is not where the chunks end."),
        e("GLB_LENGTH_TOO_SMALL", "The declared length cannot hold the header."),
        e("GLB_UNEXPECTED_BIN_CHUNK", "A BIN chunk that is not the second chunk."),
        e("GLB_UNEXPECTED_END_OF_CHUNK_DATA", "The file ends inside a chunk."),
        e("GLB_UNEXPECTED_END_OF_CHUNK_HEADER", "The file ends inside a chunk header."),
        e("GLB_UNEXPECTED_END_OF_HEADER", "The file ends inside the 12-byte header."),
        e("GLB_UNEXPECTED_FIRST_CHUNK", "The first chunk is not JSON."),
        w("GLB_UNKNOWN_CHUNK_TYPE", "A chunk of a type GLB does not define."),
    ]
}

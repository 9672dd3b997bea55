/// How a document uses its accessors and buffer views, gathered by `GLTFDocumentRules` for the
/// data checks (an index accessor needs its primitive's vertex count; a JOINTS accessor its skin)
/// and for the checks that one object is not used two incompatible ways.
struct GLTFUsage {
    enum Use: String {
        case vertex = "vertex attribute"
        case index = "indices"
        case animationInput = "animation input"
        case animationOutput = "animation output"
        case inverseBindMatrices = "inverse bind matrices"
    }

    /// A primitive's skinning attributes, in set order, and the joint count of a skin that uses it.
    struct SkinSets {
        var mesh: Int
        var joints: [Int]
        var weights: [Int]
        var jointCount: Int?
        var skin: Int?
    }

    var accessorUse: [Int: Use] = [:]
    /// The attribute semantic an accessor is first used as (`NORMAL`, `TANGENT`, `COLOR_0`...).
    var semantic: [Int: String] = [:]
    /// For index accessors: the fewest vertices of the primitives that use it, and their mode.
    var vertexCount: [Int: Int] = [:]
    var indexMode: [Int: Int] = [:]
    var skinSets: [SkinSets] = []
    /// Accessors whose data lies in a Draco or meshopt stream rather than plainly in a buffer view.
    var compressed: Set<Int> = []
    /// Rotation outputs of animation samplers, which hold quaternions.
    var rotationOutputs: Set<Int> = []
    /// The target each buffer view's use implies (34962 vertex data, 34963 indices), and the first
    /// pointer that implied it.
    var viewTargets: [Int: (target: Int, pointer: String)] = [:]
    /// What refers to each object, by collection: the UNUSED_OBJECT check.
    var referenced: [String: Set<Int>] = [:]

    mutating func refer(_ collection: String, _ index: Int?) {
        if let index { referenced[collection, default: []].insert(index) }
    }
}

/// The checks between objects (links) and of what values mean (semantics): versions and
/// extensions, buffer views and accessors against each other, cameras, materials, meshes and
/// their primitives, nodes and their hierarchy, skins, animations, and objects nothing uses.
struct GLTFDocumentRules {
    let root: JSONValue
    var findings: GLTFFindings
    var usage = GLTFUsage()

    let accessors: [JSONValue]
    let views: [JSONValue]
    let nodes: [JSONValue]
    let meshes: [JSONValue]
    let used: Set<String>

    init(root: JSONValue, findings: GLTFFindings) {
        self.root = root
        self.findings = findings
        accessors = root["accessors"]?.elements ?? []
        views = root["bufferViews"]?.elements ?? []
        nodes = root["nodes"]?.elements ?? []
        meshes = root["meshes"]?.elements ?? []
        used = Set((root["extensionsUsed"]?.elements ?? []).compactMap(\.string))
    }

    mutating func run() {
        asset()
        extensionLists()
        bufferViews()
        accessorLayout()
        cameras()
        materials()
        meshRules()
        nodeRules()
        skins()
        animations()
        textures()
        lights()
        unusedObjects()
    }

    // MARK: helpers

    static let componentSize = [5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4]
    static let componentName = [5120: "BYTE", 5121: "UNSIGNED_BYTE", 5122: "SHORT", 5123: "UNSIGNED_SHORT", 5125: "UNSIGNED_INT", 5126: "FLOAT"]

    func accessor(_ index: Int?) -> JSONValue? {
        guard let index, accessors.indices.contains(index) else { return nil }
        return accessors[index]
    }

    func view(of accessor: JSONValue) -> JSONValue? {
        guard let index = accessor["bufferView"]?.integer, views.indices.contains(index) else { return nil }
        return views[index]
    }

    /// `FLOAT VEC3`, `UNSIGNED_BYTE normalized VEC4`: an accessor's format as the messages name it.
    func format(_ accessor: JSONValue) -> String {
        let component = accessor["componentType"]?.integer.flatMap { Self.componentName[$0] } ?? "?"
        let normalized = accessor["normalized"]?.bool == true ? " normalized" : ""
        return "\(component)\(normalized) \(accessor["type"]?.string ?? "?")"
    }

    /// Whether the accessor has one of these formats: (component type, normalized, type).
    func hasFormat(_ accessor: JSONValue, _ allowed: [(Int, Bool, String)]) -> Bool {
        let component = accessor["componentType"]?.integer, normalized = accessor["normalized"]?.bool ?? false, type = accessor["type"]?.string
        return allowed.contains { $0.0 == component && $0.1 == normalized && $0.2 == type }
    }

    mutating func use(_ index: Int?, as use: GLTFUsage.Use, at pointer: String) {
        guard let index, accessors.indices.contains(index) else { return }
        usage.refer("accessors", index)
        if use == .vertex || use == .index, let viewIndex = accessors[index]["bufferView"]?.integer, views.indices.contains(viewIndex) {
            viewTarget(viewIndex, use == .vertex ? 34962 : 34963, at: pointer)
        }
        if let previous = usage.accessorUse[index], previous != use {
            findings.add("ACCESSOR_USAGE_OVERRIDE", "accessor \(index) is already used as \(previous.rawValue), here as \(use.rawValue)", at: pointer)
        } else {
            usage.accessorUse[index] = use
        }
    }

    /// A buffer view holding vertex or index data: its target must say so, and one use may not
    /// contradict another.
    private mutating func viewTarget(_ viewIndex: Int, _ target: Int, at pointer: String) {
        let name = target == 34962 ? "ARRAY_BUFFER" : "ELEMENT_ARRAY_BUFFER"
        if let previous = usage.viewTargets[viewIndex] {
            if previous.target != target {
                findings.add("BUFFER_VIEW_TARGET_OVERRIDE", "bufferView \(viewIndex) is used as \(previous.target == 34962 ? "ARRAY_BUFFER" : "ELEMENT_ARRAY_BUFFER") (\(previous.pointer)) and as \(name)",
                             at: pointer)
            }
            return
        }
        usage.viewTargets[viewIndex] = (target, pointer)
        let declared = views[viewIndex]["target"]?.integer
        if declared == nil {
            findings.add("BUFFER_VIEW_TARGET_MISSING", "bufferView \(viewIndex) holds \(target == 34962 ? "vertex" : "index") data; target \(target) would say so", at: "/bufferViews/\(viewIndex)")
        } else if declared != target {
            findings.add("BUFFER_VIEW_TARGET_OVERRIDE", "bufferView \(viewIndex)'s target is \(declared!) but it is used as \(name)", at: pointer)
        }
    }

    // MARK: asset and extensions

    private mutating func asset() {
        guard let asset = root["asset"], let version = asset["version"]?.string, let (major, minor) = Self.version(version) else { return }
        if major != 2 { findings.add("UNKNOWN_ASSET_MAJOR_VERSION", "version \(version); assetc validates glTF 2", at: "/asset/version") }
        else if minor != 0 { findings.add("UNKNOWN_ASSET_MINOR_VERSION", "version \(version); the checks are glTF 2.0's", at: "/asset/version") }
        if let minimum = asset["minVersion"]?.string, let (minMajor, minMinor) = Self.version(minimum), (minMajor, minMinor) > (major, minor) {
            findings.add("ASSET_MIN_VERSION_GREATER_THAN_VERSION", "minVersion \(minimum) is above version \(version)", at: "/asset/minVersion")
        }
    }

    static func version(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: ".")
        guard parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1]) else { return nil }
        return (major, minor)
    }

    /// Extensions that change what bytes mean, so a reader that lacks them must refuse the file.
    static let mustBeRequired: Set<String> = ["KHR_mesh_quantization", "KHR_texture_basisu"]

    private mutating func extensionLists() {
        let required = (root["extensionsRequired"]?.elements ?? []).compactMap(\.string)
        for (k, entry) in (root["extensionsUsed"]?.elements ?? []).enumerated() {
            guard let name = entry.string, name.wholeMatch(of: /[A-Z0-9]+_[A-Za-z0-9_]+/) == nil else { continue }
            findings.add("INVALID_EXTENSION_NAME_FORMAT", "'\(name)' is not PREFIX_name", at: "/extensionsUsed/\(k)")
        }
        if root["extensionsRequired"] != nil && root["extensionsUsed"] == nil {
            findings.add("UNSATISFIED_DEPENDENCY", "extensionsRequired needs extensionsUsed", at: "/extensionsRequired")
        }
        for (k, name) in required.enumerated() where !used.contains(name) {
            findings.add("UNUSED_EXTENSION_REQUIRED", "'\(name)' is required but not listed in extensionsUsed", at: "/extensionsRequired/\(k)")
        }
        for (k, value) in (root["extensionsUsed"]?.elements ?? []).enumerated() {
            guard let name = value.string else { continue }
            if !GLTFExtensionSchemas.names.contains(name) {
                findings.add("UNSUPPORTED_EXTENSION", "assetc does not check '\(name)'; what it adds is not validated", at: "/extensionsUsed/\(k)")
            }
            if Self.mustBeRequired.contains(name) && !required.contains(name) {
                findings.add("NON_REQUIRED_EXTENSION", "'\(name)' changes how data is read, so it must also be in extensionsRequired", at: "/extensionsUsed/\(k)")
            }
        }
    }

    // MARK: buffer views and accessors

    private mutating func bufferViews() {
        let buffers = root["buffers"]?.elements ?? []
        for (index, view) in views.enumerated() {
            let here = "/bufferViews/\(index)"
            usage.refer("buffers", view["buffer"]?.integer)
            usage.refer("buffers", view["extensions"]?["EXT_meshopt_compression"]?["buffer"]?.integer)
            guard let length = view["byteLength"]?.integer else { continue }
            if let stride = view["byteStride"]?.integer, stride > length {
                findings.add("BUFFER_VIEW_TOO_BIG_BYTE_STRIDE", "byteStride \(stride) is more than byteLength \(length)", at: here + "/byteStride")
            }
            // Indices are tightly packed: a view declared for them takes no stride.
            if view["byteStride"] != nil && view["target"]?.integer == 34963 {
                findings.add("BUFFER_VIEW_INVALID_BYTE_STRIDE", "bufferView \(index) is for indices (target 34963) and has a byteStride", at: here + "/byteStride")
            }
            if let b = view["buffer"]?.integer, buffers.indices.contains(b), let capacity = buffers[b]["byteLength"]?.integer {
                let offset = view["byteOffset"]?.integer ?? 0
                if offset + length > capacity {
                    findings.add("BUFFER_VIEW_TOO_LONG", "bytes \(offset)..<\(offset + length) do not fit buffer \(b)'s \(capacity)", at: here)
                }
            }
        }
    }

    private mutating func accessorLayout() {
        for (index, accessor) in accessors.enumerated() {
            let here = "/accessors/\(index)"
            guard let component = accessor["componentType"]?.integer, let size = Self.componentSize[component],
                  let type = accessor["type"]?.string, let per = GLTFSchema.componentsPerType[type] else { continue }
            if accessor["normalized"]?.bool == true && (component == 5125 || component == 5126) {
                findings.add("ACCESSOR_NORMALIZED_INVALID", "\(Self.componentName[component]!) cannot be normalized", at: here + "/normalized")
            }
            for bound in ["min", "max"] {
                if let values = accessor[bound]?.elements, values.count != per {
                    findings.add("ARRAY_LENGTH_NOT_IN_LIST", "\(values.count) values; a \(type) accessor's \(bound) has \(per)", at: "\(here)/\(bound)")
                }
            }
            for part in ["indices", "values"] {
                guard let v = accessor["sparse"]?[part]?["bufferView"]?.integer else { continue }
                usage.refer("bufferViews", v)
                // Sparse data is tightly packed too.
                if views.indices.contains(v), views[v]["byteStride"] != nil {
                    findings.add("BUFFER_VIEW_INVALID_BYTE_STRIDE", "bufferView \(v) holds sparse \(part) and has a byteStride", at: "\(here)/sparse/\(part)/bufferView")
                }
            }
            if let sparse = accessor["sparse"], let count = sparse["count"]?.integer, let total = accessor["count"]?.integer, count > total {
                findings.add("ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE", "the sparse part replaces \(count) of \(total) elements", at: here + "/sparse/count")
            }
            let offset = accessor["byteOffset"]?.integer ?? 0
            if offset % size != 0 {
                findings.add("ACCESSOR_OFFSET_ALIGNMENT", "byteOffset \(offset) is not a multiple of \(size)", at: here + "/byteOffset")
            }
            guard let viewIndex = accessor["bufferView"]?.integer, views.indices.contains(viewIndex), let count = accessor["count"]?.integer else { continue }
            usage.refer("bufferViews", viewIndex)
            let view = views[viewIndex]
            let element = Self.elementSize(type: type, componentSize: size)
            let stride = view["byteStride"]?.integer
            // Columns start on 4-byte boundaries within the element; the accessor's own offset
            // and the stride keep them so (the view's offset is the buffer's affair, as the
            // Khronos validator has it).
            if type.hasPrefix("MAT"), offset % 4 != 0 || (stride ?? element) % 4 != 0 {
                findings.add("ACCESSOR_MATRIX_ALIGNMENT", "a \(type) accessor must start and stride on 4-byte boundaries", at: here + (offset % 4 != 0 ? "/byteOffset" : ""))
            }
            if let stride, stride < element {
                findings.add("ACCESSOR_SMALL_BYTESTRIDE", "bufferView \(viewIndex)'s byteStride \(stride) is shorter than the \(element)-byte element", at: here)
            }
            let total = (view["byteOffset"]?.integer ?? 0) + offset
            if total % size != 0 {
                findings.add("ACCESSOR_TOTAL_OFFSET_ALIGNMENT", "the data starts at byte \(total) of its buffer, not a multiple of \(size)", at: here)
            }
            if let length = view["byteLength"]?.integer, count > 0 {
                // The last element needs no padding after its last column.
                let needed = offset + (stride ?? element) * (count - 1) + Self.elementSize(type: type, componentSize: size, paddingLastColumn: false)
                if needed > length {
                    findings.add("ACCESSOR_TOO_LONG", "\(count) elements from byte \(offset) need \(needed) bytes; bufferView \(viewIndex) has \(length)",
                                 at: accessor["byteOffset"] != nil ? here + "/byteOffset" : here)
                }
            }
        }
    }

    /// Bytes of one element, with matrix columns padded to 4 bytes as glTF lays them out; without
    /// the last column's padding when `paddingLastColumn` is false (where the data may end).
    static func elementSize(type: String, componentSize: Int, paddingLastColumn: Bool = true) -> Int {
        let columns: Int = switch type { case "MAT2": 2; case "MAT3": 3; case "MAT4": 4; default: 0 }
        guard columns > 0 else { return (GLTFSchema.componentsPerType[type] ?? 1) * componentSize }
        let column = columns * componentSize, padded = (column + 3) / 4 * 4
        return padded * (columns - 1) + (paddingLastColumn ? padded : column)
    }

    // MARK: cameras, materials, textures

    private mutating func cameras() {
        for (index, camera) in (root["cameras"]?.elements ?? []).enumerated() {
            let here = "/cameras/\(index)"
            guard let type = camera["type"]?.string else { continue }
            let other = type == "perspective" ? "orthographic" : "perspective"
            if camera[type] == nil { findings.add("UNDEFINED_PROPERTY", "'\(type)' must be defined for a \(type) camera", at: here) }
            if camera[other] != nil { findings.add("ONE_OF_MISMATCH", "a \(type) camera defines '\(other)'", at: "\(here)/\(other)") }
            if let p = camera["perspective"] {
                if let yfov = p["yfov"]?.number, yfov >= .pi { findings.add("CAMERA_YFOV_GEQUAL_PI", "yfov \(yfov) is pi or more", at: here + "/perspective/yfov") }
                if let far = p["zfar"]?.number, let near = p["znear"]?.number, far <= near {
                    findings.add("CAMERA_ZFAR_LEQUAL_ZNEAR", "zfar \(far) is not beyond znear \(near)", at: here + "/perspective/zfar")
                }
            }
            if let o = camera["orthographic"] {
                for key in ["xmag", "ymag"] {
                    guard let value = o[key]?.number else { continue }
                    if value == 0 { findings.add("CAMERA_XMAG_YMAG_ZERO", "\(key) is zero", at: "\(here)/orthographic/\(key)") }
                    if value < 0 { findings.add("CAMERA_XMAG_YMAG_NEGATIVE", "\(key) is \(value)", at: "\(here)/orthographic/\(key)") }
                }
                if let far = o["zfar"]?.number, let near = o["znear"]?.number, far <= near {
                    findings.add("CAMERA_ZFAR_LEQUAL_ZNEAR", "zfar \(far) is not beyond znear \(near)", at: here + "/orthographic/zfar")
                }
            }
        }
    }

    /// Every texture binding of a material as (pointer, texCoord, texture index).
    func textureBindings(_ material: JSONValue, at base: String) -> [(pointer: String, texCoord: Int, texture: Int?)] {
        var out: [(String, Int, Int?)] = []
        func visit(_ value: JSONValue, _ pointer: String) {
            guard let members = value.members else { return }
            for (key, member) in members where key != "extras" {
                let here = JSONPointer.join(pointer, key)
                if key.hasSuffix("Texture") || key == "diffuseTexture", member["index"] != nil {
                    let transform = member["extensions"]?["KHR_texture_transform"]?["texCoord"]?.integer
                    out.append((here, transform ?? member["texCoord"]?.integer ?? 0, member["index"]?.integer))
                } else if member.members != nil {
                    visit(member, here)
                }
            }
        }
        visit(material, base)
        return out
    }

    /// The material extensions that need another beside them, or a texture set that matches.
    private mutating func materialExtensionPairs(_ material: JSONValue, extensions: JSONValue?, at here: String) {
        // Unlit and specular-glossiness replace the metal-roughness model that the others extend.
        let names = (extensions?.members ?? []).map(\.key)
        for exclusive in ["KHR_materials_unlit", "KHR_materials_pbrSpecularGlossiness"] where names.contains(exclusive) && names.count > 1 {
            findings.add("MULTIPLE_EXTENSIONS", "\(exclusive) beside \(names.filter { $0 != exclusive }.joined(separator: ", "))",
                         at: here + "/extensions/" + exclusive)
        }
        if let volume = extensions?["KHR_materials_volume"] {
            // Any extension that names transmission counts: the validator cannot know a vendor's.
            if !(extensions?.members ?? []).contains(where: { $0.key.contains("transmission") }) {
                findings.add("KHR_MATERIALS_VOLUME_NO_TRANSMISSION", "KHR_materials_volume with nothing that lets light into the volume",
                             at: here + "/extensions/KHR_materials_volume")
            }
            // A thickness of 0 (the default) is a thin wall, which may be seen from both sides.
            if material["doubleSided"]?.bool == true, (volume["thicknessFactor"]?.number ?? 0) > 0 {
                findings.add("KHR_MATERIALS_VOLUME_DOUBLE_SIDED", "a volume on a double-sided material", at: here + "/extensions/KHR_materials_volume")
            }
        }
        if extensions?["KHR_materials_dispersion"] != nil && extensions?["KHR_materials_volume"] == nil {
            findings.add("KHR_MATERIALS_DISPERSION_NO_VOLUME", "dispersion without KHR_materials_volume", at: here + "/extensions/KHR_materials_dispersion")
        }
        if let anisotropy = extensions?["KHR_materials_anisotropy"]?["anisotropyTexture"], let normal = material["normalTexture"],
           (anisotropy["texCoord"]?.integer ?? 0) != (normal["texCoord"]?.integer ?? 0) {
            findings.add("KHR_MATERIALS_ANISOTROPY_ANISOTROPY_TEXTURE_TEXCOORD", "the anisotropy and normal textures read different sets",
                         at: here + "/extensions/KHR_materials_anisotropy/anisotropyTexture")
        }
    }

    private mutating func materials() {
        for (index, material) in (root["materials"]?.elements ?? []).enumerated() {
            let here = "/materials/\(index)"
            if material["alphaCutoff"] != nil && material["alphaMode"]?.string != "MASK" {
                findings.add("MATERIAL_ALPHA_CUTOFF_INVALID_MODE", "alphaCutoff is set but alphaMode is \(material["alphaMode"]?.string ?? "OPAQUE")", at: here + "/alphaCutoff")
            }
            for binding in textureBindings(material, at: here) { usage.refer("textures", binding.texture) }
            let extensions = material["extensions"]
            // Only a strength that is set (and valid) is one that amplifies nothing.
            if let strength = extensions?["KHR_materials_emissive_strength"]?["emissiveStrength"]?.number, strength >= 0 {
                let factor = (material["emissiveFactor"]?.elements ?? []).compactMap(\.number)
                if factor.allSatisfy({ $0 == 0 }) {
                    findings.add("KHR_MATERIALS_EMISSIVE_STRENGTH_ZERO_FACTOR", "the material's emissiveFactor is zero", at: here + "/extensions/KHR_materials_emissive_strength")
                }
            }
            materialExtensionPairs(material, extensions: extensions, at: here)
            if let clearcoat = extensions?["KHR_materials_clearcoat"]?["clearcoatNormalTexture"], let normal = material["normalTexture"],
               (clearcoat["texCoord"]?.integer ?? 0) != (normal["texCoord"]?.integer ?? 0) {
                findings.add("KHR_MATERIALS_CLEARCOAT_CLEARCOAT_NORMAL_TEXTURE_TEXCOORD", "the clearcoat normal and normal textures read different sets",
                             at: here + "/extensions/KHR_materials_clearcoat/clearcoatNormalTexture")
            }
        }
    }

    private mutating func lights() {
        for (index, light) in (root["extensions"]?["KHR_lights_punctual"]?["lights"]?.elements ?? []).enumerated() {
            guard let spot = light["spot"] else {
                if light["type"]?.string == "spot" {
                    findings.add("UNDEFINED_PROPERTY", "a spot light needs its 'spot' object", at: "/extensions/KHR_lights_punctual/lights/\(index)")
                }
                continue
            }
            let inner = spot["innerConeAngle"]?.number ?? 0, outer = spot["outerConeAngle"]?.number ?? .pi / 4
            if outer <= inner {
                findings.add("KHR_LIGHTS_PUNCTUAL_LIGHT_SPOT_ANGLES", "outerConeAngle \(outer) is not beyond innerConeAngle \(inner)",
                             at: "/extensions/KHR_lights_punctual/lights/\(index)/spot")
            }
        }
    }

    private mutating func textures() {
        let images = root["images"]?.elements ?? []
        for image in images { usage.refer("bufferViews", image["bufferView"]?.integer) }
        for (index, texture) in (root["textures"]?.elements ?? []).enumerated() {
            usage.refer("samplers", texture["sampler"]?.integer)
            usage.refer("images", texture["source"]?.integer)
            usage.refer("images", texture["extensions"]?["EXT_texture_webp"]?["source"]?.integer)
            // An image's type as declared: its mimeType, else its data: URI's media type.
            func declaredType(_ source: Int) -> String? {
                guard images.indices.contains(source) else { return nil }
                if let mime = images[source]["mimeType"]?.string { return mime }
                if case .data(let media, _)? = images[source]["uri"]?.string.map(GLTFURIForm.init), !media.isEmpty { return media }
                return nil
            }
            if let source = texture["source"]?.integer, let mime = declaredType(source), mime != "image/png" && mime != "image/jpeg" {
                findings.add("TEXTURE_INVALID_IMAGE_MIME_TYPE", "source image \(source) is \(mime); a core texture takes image/png or image/jpeg",
                             at: "/textures/\(index)/source")
            }
            if let source = texture["extensions"]?["EXT_texture_webp"]?["source"]?.integer, let mime = declaredType(source), mime != "image/webp" {
                findings.add("TEXTURE_INVALID_IMAGE_MIME_TYPE", "source image \(source) is \(mime); EXT_texture_webp takes image/webp",
                             at: "/textures/\(index)/extensions/EXT_texture_webp/source")
            }
        }
    }

    private mutating func unusedObjects() {
        for collection in ["accessors", "bufferViews", "buffers", "cameras", "images", "materials", "meshes", "nodes", "samplers", "skins", "textures"] {
            let count = root[collection]?.elements?.count ?? 0
            let referenced = usage.referenced[collection] ?? []
            for index in 0..<count where !referenced.contains(index) {
                findings.add("UNUSED_OBJECT", "nothing refers to \(collection) \(index)", at: "/\(collection)/\(index)")
            }
        }
    }
}

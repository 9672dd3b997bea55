import FormatGLTF

/// Meshes and their primitives: attribute names and formats, counts, modes, morph targets, the
/// texture coordinates their materials read, and what their skinning attributes need.
extension GLTFDocumentRules {
    static let float = 5126, unsignedByte = 5121, unsignedShort = 5123, unsignedInt = 5125, byte = 5120, short = 5122

    /// Formats each semantic may take (component type, normalized, type); KHR_mesh_quantization adds integer ones.
    func allowedFormats(_ semantic: String) -> [(Int, Bool, String)]? {
        let f = Self.float, ub = Self.unsignedByte, us = Self.unsignedShort, b = Self.byte, s = Self.short
        let quantized = used.contains("KHR_mesh_quantization")
        switch semantic {
        case "POSITION":
            return [(f, false, "VEC3")] + (quantized ? [(b, false, "VEC3"), (b, true, "VEC3"), (ub, false, "VEC3"), (ub, true, "VEC3"),
                                                         (s, false, "VEC3"), (s, true, "VEC3"), (us, false, "VEC3"), (us, true, "VEC3")] : [])
        case "NORMAL": return [(f, false, "VEC3")] + (quantized ? [(b, true, "VEC3"), (s, true, "VEC3")] : [])
        case "TANGENT": return [(f, false, "VEC4")] + (quantized ? [(b, true, "VEC4"), (s, true, "VEC4")] : [])
        default: break
        }
        if semantic.hasPrefix("TEXCOORD_") {
            return [(f, false, "VEC2"), (ub, true, "VEC2"), (us, true, "VEC2")]
                + (quantized ? [(b, false, "VEC2"), (b, true, "VEC2"), (ub, false, "VEC2"), (s, false, "VEC2"), (s, true, "VEC2"), (us, false, "VEC2")] : [])
        }
        if semantic.hasPrefix("COLOR_") { return ["VEC3", "VEC4"].flatMap { [(f, false, $0), (ub, true, $0), (us, true, $0)] } }
        if semantic.hasPrefix("JOINTS_") { return [(ub, false, "VEC4"), (us, false, "VEC4")] }
        if semantic.hasPrefix("WEIGHTS_") { return [(f, false, "VEC4"), (ub, true, "VEC4"), (us, true, "VEC4")] }
        return nil
    }

    /// `TEXCOORD_3` as ("TEXCOORD", 3); nil for unindexed semantics.
    static func indexedSemantic(_ name: String) -> (String, Int)? {
        for prefix in ["TEXCOORD", "COLOR", "JOINTS", "WEIGHTS"] where name.hasPrefix(prefix + "_") {
            guard let n = Int(name.dropFirst(prefix.count + 1)), n >= 0, String(n) == name.dropFirst(prefix.count + 1) else { return nil }
            return (prefix, n)
        }
        return nil
    }

    static func isValidSemantic(_ name: String) -> Bool {
        name.hasPrefix("_") || ["POSITION", "NORMAL", "TANGENT"].contains(name) || indexedSemantic(name) != nil
    }

    mutating func meshRules() {
        let materials = root["materials"]?.elements ?? []
        for (meshIndex, mesh) in meshes.enumerated() {
            let base = "/meshes/\(meshIndex)"
            let primitives = mesh["primitives"]?.elements ?? []
            let targetCounts = primitives.map { $0["targets"]?.elements?.count ?? 0 }
            // Primitives are compared only when each is well formed (an object whose attributes are
            // a non-empty object and whose targets, if any, an array of non-empty objects): the
            // schema's findings already say what is wrong with the others.
            let wellFormed = primitives.allSatisfy { p in
                guard let attributes = p["attributes"]?.members, !attributes.isEmpty else { return false }
                guard let targets = p["targets"] else { return true }
                return targets.elements.map { $0.allSatisfy { ($0.members?.isEmpty == false) } } ?? false
            }
            if wellFormed && Set(targetCounts).count > 1 {
                findings.add("MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT", "primitives have \(targetCounts.map(String.init).joined(separator: ", ")) morph targets", at: base + "/primitives")
            }
            if let weights = mesh["weights"]?.elements, let targets = targetCounts.first, weights.count != targets {
                findings.add("MESH_INVALID_WEIGHTS_COUNT", "\(weights.count) weights for \(targets) morph targets", at: base + "/weights")
            }
            for (k, primitive) in primitives.enumerated() {
                self.primitive(primitive, at: "\(base)/primitives/\(k)", materials: materials, mesh: meshIndex)
            }
        }
    }

    private mutating func primitive(_ primitive: JSONValue, at here: String, materials: [JSONValue], mesh: Int) {
        let attributes = primitive["attributes"]?.members ?? []
        let draco = primitive["extensions"]?["KHR_draco_mesh_compression"]
        usage.refer("materials", primitive["material"]?.integer)
        usage.refer("bufferViews", draco?["bufferView"]?.integer)
        for variant in primitive["extensions"]?["KHR_materials_variants"]?["mappings"]?.elements ?? [] { usage.refer("materials", variant["material"]?.integer) }
        if primitive["extensions"]?["KHR_gaussian_splatting"] != nil { gaussianSplatting(primitive, attributes: attributes, at: here) }
        var sets: [String: [Int]] = [:]
        var counts: [(String, Int)] = []
        // Per view, the distinct accessors read from it (one accessor read twice is one attribute's data).
        var vertexViews: [Int: Set<Int>] = [:]
        for (name, value) in attributes {
            let pointer = "\(here)/attributes/\(JSONPointer.escape(name))"
            // An extension may name attributes of its own, `EXTENSION:NAME` (KHR_gaussian_splatting's).
            let byExtension = name.split(separator: ":", maxSplits: 1).first.map { name.contains(":") && used.contains(String($0)) } ?? false
            if !Self.isValidSemantic(name) && !byExtension {
                findings.add("MESH_PRIMITIVE_INVALID_ATTRIBUTE", "'\(name)' is not a glTF attribute (application ones start with '_')", at: pointer)
            }
            if let (prefix, n) = Self.indexedSemantic(name) { sets[prefix, default: []].append(n) }
            guard let index = value.integer, let accessor = accessor(index) else { continue }
            use(index, as: .vertex, at: pointer)
            if usage.semantic[index] == nil { usage.semantic[index] = name }
            if draco != nil && accessor["bufferView"] == nil { usage.compressed.insert(index) }
            if let count = accessor["count"]?.integer { counts.append((name, count)) }
            if accessor["componentType"]?.integer == Self.unsignedInt {
                findings.add("MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_UNSIGNED_INT", "\(name) is stored as UNSIGNED_INT", at: pointer)
            } else if let allowed = allowedFormats(name), !hasFormat(accessor, allowed) {
                findings.add("MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT", "\(name) is \(format(accessor))", at: pointer)
            }
            if name == "POSITION" && draco == nil && (accessor["min"] == nil || accessor["max"] == nil) {
                findings.add("MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", "accessor \(index) has no min and max", at: pointer)
            }
            if let viewIndex = accessor["bufferView"]?.integer, let view = view(of: accessor) {
                let first = vertexViews[viewIndex, default: []].insert(index).inserted
                let start = (view["byteOffset"]?.integer ?? 0) + (accessor["byteOffset"]?.integer ?? 0)
                if start % 4 != 0 || (view["byteStride"]?.integer ?? 0) % 4 != 0 {
                    findings.add("MESH_PRIMITIVE_ACCESSOR_UNALIGNED", "\(name) starts at byte \(start) of its buffer or strides by a count not a multiple of 4", at: pointer)
                }
                if first && vertexViews[viewIndex]?.count == 2 && view["byteStride"] == nil {
                    findings.add("MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE", "bufferView \(viewIndex) holds two attributes but has no byteStride", at: pointer)
                }
            }
        }
        // An empty or malformed attributes object is the schema's finding alone.
        if !attributes.isEmpty && !attributes.contains(where: { $0.key == "POSITION" }) {
            findings.add("MESH_PRIMITIVE_NO_POSITION", "the primitive has no POSITION", at: here + "/attributes")
        }
        if attributes.contains(where: { $0.key == "TANGENT" }) && !attributes.contains(where: { $0.key == "NORMAL" }) {
            findings.add("MESH_PRIMITIVE_TANGENT_WITHOUT_NORMAL", "TANGENT without NORMAL", at: here + "/attributes/TANGENT")
        }
        for (prefix, numbers) in sets.sorted(by: { $0.key < $1.key }) where numbers.sorted() != Array(0..<numbers.count) {
            findings.add("MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY", "\(prefix) sets are numbered \(numbers.sorted().map(String.init).joined(separator: ", ")); they must run 0 to \(numbers.count - 1)",
                         at: here + "/attributes")
        }
        let joints = sets["JOINTS"]?.count ?? 0, weights = sets["WEIGHTS"]?.count ?? 0
        if joints != weights { findings.add("MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH", "\(joints) JOINTS sets and \(weights) WEIGHTS sets", at: here + "/attributes") }
        if Set(counts.map(\.1)).count > 1 {
            findings.add("MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT", counts.map { "\($0.0) \($0.1)" }.joined(separator: ", "), at: here + "/attributes")
        }
        let vertices = counts.map(\.1).min()
        let mode = primitive["mode"]?.integer ?? 4
        if let indexValue = primitive["indices"]?.integer, let indexAccessor = accessor(indexValue) {
            use(indexValue, as: .index, at: here + "/indices")
            if draco != nil && indexAccessor["bufferView"] == nil { usage.compressed.insert(indexValue) }
            if !hasFormat(indexAccessor, [(Self.unsignedByte, false, "SCALAR"), (Self.unsignedShort, false, "SCALAR"), (Self.unsignedInt, false, "SCALAR")]) {
                findings.add("MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT", "indices are \(format(indexAccessor))", at: here + "/indices")
            }
            if view(of: indexAccessor)?["byteStride"] != nil {
                findings.add("MESH_PRIMITIVE_INDICES_ACCESSOR_WITH_BYTESTRIDE", "the indices' bufferView has a byteStride", at: here + "/indices")
            }
            if let vertices { usage.vertexCount[indexValue] = min(usage.vertexCount[indexValue] ?? .max, vertices) }
            usage.indexMode[indexValue] = mode
            if let count = indexAccessor["count"]?.integer { modeCount(count, mode: mode, at: here) }
        } else if let vertices, draco == nil {
            modeCount(vertices, mode: mode, at: here)
        }
        morphTargets(primitive, attributes: attributes, at: here)
        materialNeeds(primitive, attributes: attributes, materials: materials, at: here)
        if joints > 0 && joints == weights {
            let named = Dictionary(attributes.map { ($0.key, $0.value.integer) }, uniquingKeysWith: { a, _ in a })
            usage.skinSets.append(GLTFUsage.SkinSets(mesh: mesh, joints: (0..<joints).compactMap { named["JOINTS_\($0)"] ?? nil },
                                                     weights: (0..<weights).compactMap { named["WEIGHTS_\($0)"] ?? nil }))
        }
        var seenVariants: Set<Int> = []
        for (m, mapping) in (primitive["extensions"]?["KHR_materials_variants"]?["mappings"]?.elements ?? []).enumerated() {
            for (v, variant) in (mapping["variants"]?.elements ?? []).enumerated() {
                guard let number = variant.integer, !seenVariants.insert(number).inserted else { continue }
                findings.add("KHR_MATERIALS_VARIANTS_NON_UNIQUE_VARIANT", "variant \(number) is mapped twice",
                             at: "\(here)/extensions/KHR_materials_variants/mappings/\(m)/variants/\(v)")
            }
        }
    }

    private mutating func modeCount(_ count: Int, mode: Int, at here: String) {
        let fits: Bool
        switch mode {
        case 1: fits = count >= 2 && count % 2 == 0
        case 2, 3: fits = count >= 2
        case 4: fits = count >= 3 && count % 3 == 0
        case 5, 6: fits = count >= 3
        default: fits = count >= 1
        }
        let names = ["POINTS", "LINES", "LINE_LOOP", "LINE_STRIP", "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN"]
        if !fits { findings.add("MESH_PRIMITIVE_INCOMPATIBLE_MODE", "\(count) vertices or indices do not make \(names.indices.contains(mode) ? names[mode] : String(mode))", at: here) }
    }

    private mutating func morphTargets(_ primitive: JSONValue, attributes: [(key: String, value: JSONValue)], at here: String) {
        let base = Dictionary(attributes.map { ($0.key, $0.value.integer) }, uniquingKeysWith: { a, _ in a })
        for (t, target) in (primitive["targets"]?.elements ?? []).enumerated() {
            for (name, value) in target.members ?? [] {
                let pointer = "\(here)/targets/\(t)/\(JSONPointer.escape(name))"
                guard let index = value.integer, let accessor = accessor(index) else { continue }
                use(index, as: .vertex, at: pointer)
                // The specification asks min and max of a target's POSITION as of the base's (3.7.2.2).
                if name == "POSITION" && (accessor["min"] == nil || accessor["max"] == nil) {
                    findings.add("MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", "accessor \(index) has no min and max", at: pointer)
                }
                guard let baseIndex = base[name] ?? nil else {
                    findings.add("MESH_PRIMITIVE_MORPH_TARGET_NO_BASE_ACCESSOR", "the primitive has no \(name) for this target to move", at: pointer)
                    continue
                }
                if let count = accessor["count"]?.integer, let baseCount = self.accessor(baseIndex)?["count"]?.integer, count != baseCount {
                    findings.add("MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT", "\(count) elements; the base \(name) has \(baseCount)", at: pointer)
                }
            }
        }
    }

    private mutating func materialNeeds(_ primitive: JSONValue, attributes: [(key: String, value: JSONValue)], materials: [JSONValue], at here: String) {
        guard let m = primitive["material"]?.integer, materials.indices.contains(m) else { return }
        let material = materials[m]
        let names = Set(attributes.map(\.key))
        for binding in textureBindings(material, at: "/materials/\(m)") where !names.contains("TEXCOORD_\(binding.texCoord)") {
            findings.add("MESH_PRIMITIVE_TOO_FEW_TEXCOORDS", "material \(m)'s \(binding.pointer) reads TEXCOORD_\(binding.texCoord), which the primitive lacks", at: here + "/material")
        }
        let normalMapped = material["normalTexture"] != nil
        if normalMapped && !names.contains("TANGENT") && primitive["extensions"]?["KHR_draco_mesh_compression"] == nil {
            findings.add("MESH_PRIMITIVE_GENERATED_TANGENT_SPACE", "material \(m) has a normal map and the primitive no TANGENT; viewers will each make their own", at: here + "/material")
        }
        // Anisotropy and a clearcoat normal map need tangents, which only a normal map lets a viewer make.
        let extensions = material["extensions"]
        if !normalMapped && !names.contains("TANGENT")
            && (extensions?["KHR_materials_anisotropy"] != nil || extensions?["KHR_materials_clearcoat"]?["clearcoatNormalTexture"] != nil) {
            findings.add("MESH_PRIMITIVE_NO_TANGENT_SPACE", "material \(m) needs a tangent space: the primitive has no TANGENT and the material no normal map to make one from",
                         at: here + "/material")
        }
        if !normalMapped && names.contains("TANGENT") {
            findings.add("UNUSED_MESH_TANGENT", "material \(m) has no normal map, so TANGENT is not used", at: here + "/attributes/TANGENT")
        }
    }

    /// KHR_gaussian_splatting's rules: a POINTS primitive with POSITION and the extension's
    /// ROTATION, SCALE, OPACITY and SH_DEGREE_0_COEF_0, whole degrees of coefficients, and the
    /// accessor types and component types its table allows.
    private mutating func gaussianSplatting(_ primitive: JSONValue, attributes: [(key: String, value: JSONValue)], at here: String) {
        let prefix = GLTFSplatNames.prefix
        let names = Set(attributes.map(\.key))
        if (primitive["mode"]?.integer ?? 4) != 0 {
            findings.add("ASSETC_SPLAT_PRIMITIVE", "a KHR_gaussian_splatting primitive has mode \(primitive["mode"]?.integer ?? 4); the extension requires POINTS (0)", at: here + "/mode")
        }
        for required in ["POSITION", prefix + "ROTATION", prefix + "SCALE", prefix + "OPACITY", prefix + "SH_DEGREE_0_COEF_0"] where !names.contains(required) {
            findings.add("ASSETC_SPLAT_PRIMITIVE", "a KHR_gaussian_splatting primitive has no \(required)", at: here + "/attributes")
        }
        var complete = true
        for l in 1...3 {
            let band = (0..<(2 * l + 1)).map { "\(prefix)SH_DEGREE_\(l)_COEF_\($0)" }
            let present = band.filter(names.contains).count
            if present > 0 && (present < band.count || !complete) {
                findings.add("ASSETC_SPLAT_PRIMITIVE", "spherical-harmonic degree \(l) is given in part or without the degrees below it (\(present) of \(band.count) coefficients)", at: here + "/attributes")
            }
            complete = complete && present == band.count
        }
        for (name, value) in attributes where name.hasPrefix(prefix) {
            // A name the extension does not define belongs to an extension of it.
            guard let accessor = accessor(value.integer), let (type, components) = GLTFSplatNames.format(of: String(name.dropFirst(prefix.count))) else { continue }
            let componentType = accessor["componentType"]?.integer ?? -1, normalized = accessor["normalized"]?.bool ?? false
            if accessor["type"]?.string != type || !components.contains(where: { $0.componentType == componentType && $0.normalized == normalized }) {
                findings.add("ASSETC_SPLAT_ACCESSOR", "\(name) is \(accessor["type"]?.string ?? "?") of componentType \(componentType)\(normalized ? " (normalized)" : ""), which KHR_gaussian_splatting does not allow",
                             at: here + "/attributes/" + JSONPointer.escape(name))
            }
        }
    }
}

import AssetCore

extension ColladaDocumentWriter {
    // MARK: Geometry

    func geometry(_ index: Int) -> String {
        let mesh = scene.meshes[index]
        let id = "geometry\(index)"
        var x = "    <geometry id=\"\(id)\" name=\"\(MarkupText.escape(mesh.name))\"><mesh>\n"
        func source(_ name: String, _ values: [Float], params: [String]) -> String {
            let sid = "\(id)-\(name)"
            let count = params.isEmpty ? 0 : values.count / params.count
            let paramXML = params.map { "<param name=\"\($0)\" type=\"float\"/>" }.joined()
            return "      <source id=\"\(sid)\"><float_array id=\"\(sid)-array\" count=\"\(values.count)\">"
                + values.map(NumberText.float).joined(separator: " ")
                + "</float_array><technique_common><accessor source=\"#\(sid)-array\" count=\"\(count)\" stride=\"\(params.count)\">\(paramXML)</accessor></technique_common></source>\n"
        }
        x += source("positions", mesh.points.flatMap { [$0.x, $0.y, $0.z] }, params: ["X", "Y", "Z"])
        // Every other input: (semantic, set, source name, per-corner element indices).
        var inputs: [(String, Int?, String, [Int32])] = []
        if let normals = mesh.normals, case .float3(let v) = normals.values {
            let values = v
            x += source("normals", values.flatMap { [$0.x, $0.y, $0.z] }, params: ["X", "Y", "Z"])
            inputs.append(("NORMAL", nil, "normals", mesh.cornerElementIndices(of: normals)))
        }
        for (set, primvar) in mesh.texcoordSets.enumerated() {
            guard case .float2(let v) = primvar.values else { continue }
            x += source("uv\(set)", v.flatMap { [$0.x, $0.y] }, params: ["S", "T"])
            inputs.append(("TEXCOORD", set, "uv\(set)", mesh.cornerElementIndices(of: primvar)))
        }
        if let colors = mesh.primvar(named: Primvar.displayColorName) {
            switch colors.values {
            case .float3(let v): x += source("colors", v.flatMap { [$0.x, $0.y, $0.z] }, params: ["R", "G", "B"])
            case .float4(let v): x += source("colors", v.flatMap { [$0.x, $0.y, $0.z, $0.w] }, params: ["R", "G", "B", "A"])
            default: break
            }
            if case .float3 = colors.values { inputs.append(("COLOR", 0, "colors", mesh.cornerElementIndices(of: colors))) }
            if case .float4 = colors.values { inputs.append(("COLOR", 0, "colors", mesh.cornerElementIndices(of: colors))) }
        }
        x += "      <vertices id=\"\(id)-vertices\"><input semantic=\"POSITION\" source=\"#\(id)-positions\"/></vertices>\n"
        var faceStart = [Int](repeating: 0, count: mesh.faceVertexCounts.count)
        var running = 0
        for (f, count) in mesh.faceVertexCounts.enumerated() { faceStart[f] = running; running += Int(count) }
        // A left-handed mesh's faces are written in reverse, since Collada is right-handed.
        let reverse = mesh.orientation == .leftHanded
        let boundSymbols = boundSymbolsByMesh[index] ?? []
        for group in Self.materialGroups(mesh, instance: nil) {
            // A symbol no instance binds would only make readers warn that it is unbound.
            let symbol = boundSymbols.contains(group.symbol) ? " material=\"\(group.symbol)\"" : ""
            x += "      <polylist count=\"\(group.faces.count)\"\(symbol)>\n"
            x += "        <input semantic=\"VERTEX\" source=\"#\(id)-vertices\" offset=\"0\"/>\n"
            for (k, input) in inputs.enumerated() {
                let set = input.1.map { " set=\"\($0)\"" } ?? ""
                x += "        <input semantic=\"\(input.0)\" source=\"#\(id)-\(input.2)\" offset=\"\(k + 1)\"\(set)/>\n"
            }
            x += "        <vcount>" + group.faces.map { String(mesh.faceVertexCounts[Int($0)]) }.joined(separator: " ") + "</vcount>\n        <p>"
            var p: [String] = []
            for f in group.faces.map(Int.init) {
                let corners = Array(faceStart[f]..<(faceStart[f] + Int(mesh.faceVertexCounts[f])))
                let ordered = reverse && !corners.isEmpty ? [corners[0]] + corners.dropFirst().reversed() : corners
                for c in ordered {
                    p.append(String(mesh.faceVertexIndices[c]))
                    for input in inputs { p.append(String(input.3[c])) }
                }
            }
            x += p.joined(separator: " ") + "</p>\n      </polylist>\n"
        }
        return x + "    </mesh></geometry>\n"
    }

    // MARK: Materials

    mutating func effect(_ index: Int) -> String {
        let material = scene.materials[index]
        var params = ""
        func channel(_ name: String, _ color: SIMD3<Float>, alpha: Float = 1, texture: TextureReference?) -> String {
            if let texture, let image = image(texture.texture) {
                let sid = "texture\(texture.texture)"
                if !params.contains("\(sid)-surface") {
                    params += "        <newparam sid=\"\(sid)-surface\"><surface type=\"2D\"><init_from>\(image)</init_from></surface></newparam>\n"
                    params += "        <newparam sid=\"\(sid)-sampler\"><sampler2D><source>\(sid)-surface</source></sampler2D></newparam>\n"
                }
                return "<\(name)><texture texture=\"\(sid)-sampler\" texcoord=\"\(MarkupText.escape(texture.texcoordSet))\"/></\(name)>"
            }
            return "<\(name)><color>\(NumberText.float(color.x)) \(NumberText.float(color.y)) \(NumberText.float(color.z)) \(NumberText.float(alpha))</color></\(name)>"
        }
        // Shininess from roughness, the inverse of the reader's sqrt(2 / (shininess + 2)).
        let r = max(material.roughness.value, 0.01)
        let shininess = max(0, min(1000, 2 / (r * r) - 2))
        let emission = channel("emission", material.emissive.value, texture: material.emissive.texture)
        let diffuse = channel("diffuse", material.baseColor.value, texture: material.baseColor.texture)
        var technique = "          \(emission)\n          \(diffuse)\n"
        if !material.inputsBeyondPhong.isEmpty {
            diagnostics.append(.warning("material \(material.name): Collada's phong has no \(material.inputsBeyondPhong.joined(separator: ", ")); left out"))
        }
        // Phong's specular is the specular workflow's colour; a metallic-roughness surface reflects a dielectric's 4%.
        let specular = material.usesSpecularWorkflow ? material.specularColor.value : SIMD3<Float>(repeating: 0.04)
        technique += "          <specular><color>\(NumberText.float(specular.x)) \(NumberText.float(specular.y)) \(NumberText.float(specular.z)) 1</color></specular>\n          <shininess><float>\(NumberText.float(shininess))</float></shininess>\n"
        if material.opacity.value < 1 {
            technique += "          <transparent opaque=\"A_ONE\"><color>1 1 1 \(NumberText.float(material.opacity.value))</color></transparent>\n"
            technique += "          <transparency><float>1</float></transparency>\n"
        }
        var x = "    <effect id=\"effect\(index)\" name=\"\(MarkupText.escape(material.name))\"><profile_COMMON>\n" + params
        x += "        <technique sid=\"common\"><phong>\n" + technique + "        </phong></technique>\n"
        if material.isDoubleSided { x += "        <extra><technique profile=\"GOOGLEEARTH\"><double_sided>1</double_sided></technique></extra>\n" }
        return x + "      </profile_COMMON></effect>\n"
    }

    /// The image id for a texture, copying its bytes beside the document; nil when unreadable.
    mutating func image(_ index: Int) -> String? {
        if let known = imageIDs[index] { return known }
        let texture = scene.textures[index]
        guard let bytes = context.textureBytes(texture) else {
            diagnostics.append(.warning("texture \(texture.authoredPath) could not be read; its material keeps its colour"))
            return nil
        }
        textureFiles.append(OutputFile(relativePath: texturePath(index), bytes: bytes))
        imageIDs[index] = "image\(index)"
        return "image\(index)"
    }

    func texturePath(_ index: Int) -> String { "\(context.textureFolder)/\(index)_\(scene.textures[index].outputFileName)" }
}

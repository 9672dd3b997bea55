import AssetCore

extension USDLayerWriter {
    /// One Material per scene material: a UsdPreviewSurface, a UsdUVTexture per textured input,
    /// and a UsdPrimvarReader_float2 per texture coordinate set they read.
    mutating func writeMaterials(looksPath: String) {
        let looksName = String(looksPath.split(separator: "/").last ?? "Looks")
        out.open("def Scope \(USDATextBuilder.quoted(looksName))")
        for (i, material) in scene.materials.enumerated() {
            guard let path = materialPaths[i] else { continue }
            let name = String(path.split(separator: "/").last!)
            out.open("def Material \(USDATextBuilder.quoted(name))")
            out.line("token outputs:surface.connect = <\(path)/PreviewSurface.outputs:surface>")
            var shaders: [(name: String, body: [String])] = []
            var readers: Set<String> = []
            var surface: [String] = ["uniform token info:id = \"UsdPreviewSurface\""]
            func input(_ key: String, type: String, constant: String, texture: TextureReference?, output: String, fallback: String) {
                if let texture, let file = textureFile(texture.texture) {
                    let shader = "\(key)_texture"
                    let reader = "TexCoordReader_\(USDName.sanitize(texture.texcoordSet))"
                    readers.insert(texture.texcoordSet)
                    surface.append("\(type) inputs:\(key).connect = <\(path)/\(shader).outputs:\(output)>")
                    var body = [
                        "uniform token info:id = \"UsdUVTexture\"",
                        "asset inputs:file = @\(file)@",
                        "float2 inputs:st.connect = <\(path)/\(reader).outputs:result>",
                        "token inputs:wrapS = \"\(scene.textures[texture.texture].wrapS.rawValue)\"",
                        "token inputs:wrapT = \"\(scene.textures[texture.texture].wrapT.rawValue)\"",
                        "float4 inputs:fallback = \(fallback)",
                    ]
                    if key == "normal" || key == "occlusion" || key == "metallic" || key == "roughness" {
                        body.append("token inputs:sourceColorSpace = \"raw\"")
                    }
                    if key == "normal" {
                        // Normal maps store [-1, 1] as [0, 1].
                        body += ["float4 inputs:scale = (2, 2, 2, 1)", "float4 inputs:bias = (-1, -1, -1, 0)"]
                    }
                    body.append(output == "rgb" ? "float3 outputs:rgb" : "float outputs:\(output)")
                    shaders.append((shader, body))
                } else if !constant.isEmpty {
                    surface.append("\(type) inputs:\(key) = \(constant)")
                }
            }
            let c = material.baseColor.value
            input("diffuseColor", type: "color3f", constant: USDATextBuilder.vec3(c), texture: material.baseColor.texture,
                  output: "rgb", fallback: USDATextBuilder.vec4(SIMD4(c, 1)))
            input("emissiveColor", type: "color3f", constant: material.emissive.value == .zero ? "" : USDATextBuilder.vec3(material.emissive.value),
                  texture: material.emissive.texture, output: "rgb", fallback: USDATextBuilder.vec4(SIMD4(material.emissive.value, 1)))
            for (key, property) in [("metallic", material.metallic), ("roughness", material.roughness), ("opacity", material.opacity)] {
                let channel = property.texture.map { $0.channels == .rgb || $0.channels == .rgba ? "r" : $0.channels.rawValue } ?? "r"
                input(key, type: "float", constant: NumberText.float(property.value), texture: property.texture, output: channel,
                      fallback: USDATextBuilder.vec4(SIMD4(repeating: property.value)))
            }
            if material.opacityThreshold > 0 { surface.append("float inputs:opacityThreshold = \(NumberText.float(material.opacityThreshold))") }
            input("normal", type: "normal3f", constant: "", texture: material.normal, output: "rgb", fallback: "(0.5, 0.5, 1, 1)")
            input("occlusion", type: "float", constant: "", texture: material.occlusion, output: "r", fallback: "(1, 1, 1, 1)")
            surface.append("token outputs:surface")
            out.open("def Shader \"PreviewSurface\"")
            for line in surface { out.line(line) }
            out.close()
            for shader in shaders {
                out.open("def Shader \(USDATextBuilder.quoted(shader.name))")
                for line in shader.body { out.line(line) }
                out.close()
            }
            for set in readers.sorted() {
                out.open("def Shader \(USDATextBuilder.quoted("TexCoordReader_\(USDName.sanitize(set))"))")
                out.line("uniform token info:id = \"UsdPrimvarReader_float2\"")
                out.line("string inputs:varname = \(USDATextBuilder.quoted(set))")
                out.line("float2 outputs:result")
                out.close()
            }
            out.close()
        }
        out.close()
    }

    /// The package-relative path of a texture's copy, or nil when its bytes cannot be had (the
    /// material then keeps its constant, with a warning).
    private mutating func textureFile(_ index: Int) -> String? {
        if let known = texturePaths[index] { return known }
        let texture = scene.textures[index]
        guard let bytes = context.textureBytes(texture) else {
            diagnostics.append(.warning("texture \(texture.authoredPath) could not be read; its material keeps its constant value"))
            texturePaths[index] = .some(nil)
            return nil
        }
        var fileName = texture.outputFileName
        var k = 2
        while usedTextureNames.contains(fileName) {
            fileName = "\(k)_" + texture.outputFileName
            k += 1
        }
        usedTextureNames.insert(fileName)
        let path = "\(textureFolder)/\(fileName)"
        textureFiles.append(OutputFile(relativePath: path, bytes: bytes))
        texturePaths[index] = path
        return path
    }
}

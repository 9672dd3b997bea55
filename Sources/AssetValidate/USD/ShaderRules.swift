import AssetCore
import FormatUSD

/// The rules about shading: which shaders, how they connect, which textures, how normal maps
/// are read, and input types.
enum ShaderRules {
    static let portableTextureFormats: Set<String> = ["exr", "jpg", "jpeg", "png"]
    /// Formats usd-core can decode but that are not portable to consumer devices.
    static let nonPortableTextureFormats: Set<String> = ["bmp", "tga", "hdr", "tif", "tx", "zfile"]
    /// Extensions usd-core takes for 8-bit images when it checks normal maps (as written).
    static let eightBitFormats: Set<String> = ["bmp", "tga", "jpg", "jpeg", "png", "tif"]
    /// Formats `--fix` can decode (stb_image, libtiff, `DDSDecoder`) and re-encode as PNG.
    static let transcodableTextureFormats: Set<String> = ["bmp", "tga", "gif", "psd", "ppm", "pgm", "pnm", "tif", "tiff", "dds"]

    static func check(_ context: USDRuleContext, into findings: inout USDFindings) {
        for entry in context.prims {
            let prim = entry.prim
            guard USDSchemaKinds.isConnectable(prim.typeName) else { continue }
            let inputs = prim.inputs  // sorted once for the three rules that walk them
            checkTextures(prim, inputs, into: &findings)
            guard prim.typeName == "Shader" else { continue }
            // Asked by every rule below; each lookup is a dictionary probe and a string copy.
            let source = implementationSource(prim)
            let id = source == "id" ? prim.token("info:id") : nil
            checkShader(prim, source: source, id: id, inputs, context, into: &findings)
            if id == "UsdPreviewSurface" { checkNormalMap(prim, context, into: &findings) }
            if id == "UsdUVTexture" { checkTextureCoordinates(prim, context, into: &findings) }
            checkInputTypes(prim, source: source, id: id, inputs, into: &findings)
        }
    }

    /// Materials whose surface is MaterialX only: `outputs:mtlx:surface` connected, and no
    /// `outputs:surface` leading to a UsdPreviewSurface, which is all AR Quick Look reads.
    static func checkMaterialXOnly(_ context: USDRuleContext, into findings: inout USDFindings) {
        for entry in context.prims where entry.prim.typeName == "Material" {
            let material = entry.prim
            guard let mtlx = material.attribute("outputs:mtlx:surface"), !mtlx.targets.isEmpty else { continue }
            var preview = false
            if let surface = material.attribute("outputs:surface")?.targets.first, let (shader, _) = connectedSource(surface, context) {
                preview = shaderId(shader) == "UsdPreviewSurface"
            }
            guard !preview else { continue }
            findings.append(ValidationFinding(rule: .materialX, severity: .warning,
                                              message: "<\(material.path)> has a MaterialX surface only; AR Quick Look reads UsdPreviewSurface, so it shows the material grey "
                                                + "(assetc convert writes the preview surface the MaterialX maps to)",
                                              location: USDRuleContext.location(of: material)))
        }
    }

    private static func implementationSource(_ shader: USDComposedPrim) -> String {
        shader.token("info:implementationSource") ?? "id"
    }

    /// `info:id`, which counts only when the implementation source is `id`.
    private static func shaderId(_ shader: USDComposedPrim) -> String? {
        implementationSource(shader) == "id" ? shader.token("info:id") : nil
    }

    private static func checkShader(_ shader: USDComposedPrim, source: String, id: String?, _ inputs: [USDComposedProperty],
                                    _ context: USDRuleContext, into findings: inout USDFindings) {
        var here: SourceLocation { USDRuleContext.location(of: shader) }  // made only for a finding
        if source != "id" {
            findings.append(ValidationFinding(rule: .arkitShader, message: "<\(shader.path)> is implemented by '\(source)'; ARKit reads only info:id shaders",
                                              location: here))
        }
        let id = id ?? ""
        let known = id == "UsdPreviewSurface" || id == "UsdUVTexture" || id == "UsdTransform2d" || id.hasPrefix("UsdPrimvarReader") || id.hasPrefix("ND_")
        if !known {
            findings.append(ValidationFinding(rule: .arkitShader,
                                              message: id.isEmpty ? "<\(shader.path)> has no info:id" : "<\(shader.path)> has info:id '\(id)', which ARKit does not know",
                                              location: here))
        }
        for input in inputs where !input.targets.isEmpty {
            var inputHere: SourceLocation { USDRuleContext.location(of: shader, property: input) }
            if input.targets.count > 1 {
                findings.append(ValidationFinding(rule: .arkitShader, message: "\(input.name) has \(input.targets.count) connections; one is allowed",
                                                  location: inputHere))
            }
            let target = input.targets[0]
            guard let (sourcePrim, _) = connectedSource(target, context) else {
                findings.append(ValidationFinding(rule: .arkitShader, message: "\(input.name) connects to <\(target)>, which does not exist",
                                                  location: inputHere))
                continue
            }
            if sourcePrim.typeName != "Shader" && sourcePrim.typeName != "Material" {
                findings.append(ValidationFinding(rule: .arkitShader,
                                                  message: "\(input.name) connects to a \(sourcePrim.typeName) <\(sourcePrim.path)>; sources must be Shaders or Materials",
                                                  location: inputHere))
            }
        }
    }

    /// The prim and property a connection names, when both exist and the prim can be connected to.
    private static func connectedSource(_ target: String, _ context: USDRuleContext) -> (USDComposedPrim, String)? {
        guard let dot = target.lastIndex(of: "."), let prim = context.byPath[String(target[..<dot])],
              USDSchemaKinds.isConnectable(prim.typeName) else { return nil }
        let property = String(target[target.index(after: dot)...])
        guard prim.properties[property] != nil || USDSchemaKinds.isBuiltInOutput(property, of: prim.typeName) else { return nil }
        return (prim, property)
    }

    /// What gives an input its value, as `UsdShadeUtils::GetValueProducingAttributes` finds it:
    /// an unconnected input with a value, or, through connections and container interface
    /// inputs, a shader's output or an interface input that holds a value.
    private static func valueProducer(_ prim: USDComposedPrim, _ name: String, _ context: USDRuleContext,
                                      depth: Int = 0) -> (prim: USDComposedPrim, property: USDComposedProperty?)? {
        guard depth < 32 else { return nil }
        let property = prim.properties[name]
        guard let property, !property.targets.isEmpty else {
            guard let property, name.hasPrefix("inputs:"), USDRuleContext.value(property) != nil else { return nil }
            return (prim, property)
        }
        guard let (source, sourceName) = connectedSource(property.targets[0], context) else { return nil }
        if source.typeName == "Shader" { return (source, source.properties[sourceName]) }
        return valueProducer(source, sourceName, context, depth: depth + 1)
    }

    private static func inputValue(_ shader: USDComposedPrim, _ name: String, _ context: USDRuleContext) -> (USDComposedProperty, USDValue)? {
        guard let (prim, property) = valueProducer(shader, "inputs:" + name, context), let property,
              property.name.hasPrefix("inputs:"), prim.typeName != "Shader" || prim.path == shader.path,
              let value = USDRuleContext.value(property) else { return nil }
        return (property, value)
    }

    private static func checkTextures(_ prim: USDComposedPrim, _ inputs: [USDComposedProperty], into findings: inout USDFindings) {
        for input in inputs where input.typeName == "asset" || input.typeName == "asset[]" {
            for path in USDRuleContext.value(input)?.strings ?? [] where !path.isEmpty {
                let format = PackageRules.fileExtension(path).lowercased()
                guard !portableTextureFormats.contains(format) else { continue }
                let here = USDRuleContext.location(of: prim, property: input)
                let fixable = transcodableTextureFormats.contains(format)
                if nonPortableTextureFormats.contains(format) {
                    findings.append(ValidationFinding(rule: .texture, message: "@\(path)@ is a \(format) image, which AR Quick Look does not read; use png, jpg or exr",
                                                      location: here, fixable: fixable))
                } else {
                    findings.append(ValidationFinding(rule: .texture, message: "@\(path)@ is not a png, jpg or exr image", location: here, fixable: fixable))
                }
            }
        }
    }

    /// For a UsdPreviewSurface.
    private static func checkNormalMap(_ surface: USDComposedPrim, _ context: USDRuleContext, into findings: inout USDFindings) {
        guard surface.properties["inputs:normal"] != nil,
              let (source, _) = valueProducer(surface, "inputs:normal", context), source.path != surface.path,
              source.typeName == "Shader", shaderId(source) == "UsdUVTexture" else { return }
        let here = USDRuleContext.location(of: source)
        guard let (fileProperty, fileValue) = inputValue(source, "file", context), let file = fileValue.stringValue,
              let resolved = context.facts.locate(file, fileProperty.layer) else {
            let written = inputValue(source, "file", context)?.1.stringValue ?? ""
            findings.append(ValidationFinding(rule: .normalMapTexture, message: "the normal map <\(source.path)> reads @\(written)@, which does not resolve",
                                              location: here))
            return
        }
        guard eightBitFormats.contains(PackageRules.fileExtension(resolved.description)) else { return }
        if inputValue(source, "sourceColorSpace", context)?.1.stringValue != "raw" {
            findings.append(ValidationFinding(rule: .normalMapTexture, message: "the 8-bit normal map <\(source.path)> @\(file)@ must set inputs:sourceColorSpace to \"raw\"",
                                              location: here),
                            repair: .setInputs(shader: source, [.attribute("inputs:sourceColorSpace", "token", .string("raw"))], rule: .normalMapTexture))
        }
        guard let (biasProperty, biasValue) = inputValue(source, "bias", context), let (scaleProperty, scaleValue) = inputValue(source, "scale", context),
              biasProperty.typeName == "float4", scaleProperty.typeName == "float4",
              let bias = biasValue.flatNumbers, let scale = scaleValue.flatNumbers, bias.count == 4, scale.count == 4 else {
            findings.append(ValidationFinding(rule: .normalMapTexture,
                                              message: "the 8-bit normal map <\(source.path)> @\(file)@ needs float4 inputs:scale (2, 2, 2, 1) and inputs:bias (-1, -1, -1, 0)",
                                              location: here),
                            repair: .setInputs(shader: source, [Self.normalScale, Self.normalBias], rule: .normalMapTexture))
            return
        }
        if scale[0..<3] != [2, 2, 2] {
            findings.append(ValidationFinding(rule: .normalMapTexture, severity: .warning,
                                              message: "the 8-bit normal map <\(source.path)> scales by \(scale); (2, 2, 2, 1) maps it to [-1, 1]",
                                              location: here),
                            repair: .setInputs(shader: source, [Self.normalScale, Self.normalBias], rule: .normalMapTexture))
        } else if bias[0..<3] != [-1, -1, -1] {
            findings.append(ValidationFinding(rule: .normalMapTexture,
                                              message: "the 8-bit normal map <\(source.path)> has bias \(bias); with scale 2 it needs (-1, -1, -1, 0)",
                                              location: here),
                            repair: .setInputs(shader: source, [Self.normalBias], rule: .normalMapTexture))
        }
    }

    /// AR Quick Look reads a texture's coordinates from a primvar reader only, directly or through
    /// one UsdTransform2d; anything else (a constant, nothing) samples one texel everywhere.
    /// For a UsdUVTexture.
    private static func checkTextureCoordinates(_ shader: USDComposedPrim, _ context: USDRuleContext, into findings: inout USDFindings) {
        var source = valueProducer(shader, "inputs:st", context)?.prim
        if let transform = source, transform.path != shader.path, shaderId(transform) == "UsdTransform2d" {
            source = valueProducer(transform, "inputs:in", context)?.prim
        }
        guard let reader = source, reader.path != shader.path, shaderId(reader) == "UsdPrimvarReader_float2" else {
            findings.append(ValidationFinding(rule: .textureCoordinates, severity: .warning,
                                              message: "<\(shader.path)> takes its st from no UsdPrimvarReader_float2, so AR Quick Look samples one texel",
                                              location: USDRuleContext.location(of: shader, property: shader.properties["inputs:st"])))
            return
        }
    }

    /// The values that map an 8-bit normal map's [0, 1] onto [-1, 1].
    static let normalScale = USDPropertySpec.attribute("inputs:scale", "float4", .tuple([2, 2, 2, 1]))
    static let normalBias = USDPropertySpec.attribute("inputs:bias", "float4", .tuple([-1, -1, -1, 0]))

    private static func checkInputTypes(_ shader: USDComposedPrim, source: String, id: String?, _ inputs: [USDComposedProperty],
                                        into findings: inout USDFindings) {
        var here: SourceLocation { USDRuleContext.location(of: shader) }
        guard source == "id" || source == "sourceAsset" || source == "sourceCode" else {
            findings.append(ValidationFinding(rule: .shaderPropertyTypeConformance, message: "<\(shader.path)> has implementation source '\(source)'",
                                              location: here))
            return
        }
        let sourceTypes = shader.properties.keys.filter { $0.hasPrefix("info:") && ($0.hasSuffix(":sourceAsset") || $0.hasSuffix(":sourceCode")) }
        // Shaders defined by a source asset or code need a parser plugin for that source type to
        // know their inputs; usd-core's wheel has none (it reports the source type as unknown) and
        // neither has assetc, so such a shader has no definition to check against.
        guard source == "id", sourceTypes.isEmpty else {
            let message = sourceTypes.isEmpty ? "<\(shader.path)> names no source type"
                : "<\(shader.path)> is defined by \(sourceTypes.sorted().joined(separator: ", ")), a source no shader registry here can read"
            findings.append(ValidationFinding(rule: .shaderPropertyTypeConformance, message: message, location: here))
            return
        }
        guard let id else { return }
        guard let types = PreviewShaderDefinitions.inputTypes(of: id) else {
            findings.append(ValidationFinding(rule: .shaderPropertyTypeConformance, message: "<\(shader.path)>: no shader definition for info:id '\(id)'",
                                              location: here))
            return
        }
        for input in inputs {
            let name = String(input.name.dropFirst("inputs:".count))
            guard let expected = types[name], expected != input.typeName else { continue }
            findings.append(ValidationFinding(rule: .shaderPropertyTypeConformance,
                                              message: "\(input.name) is \(input.typeName); the \(id) definition says \(expected)",
                                              location: USDRuleContext.location(of: shader, property: input)))
        }
    }
}

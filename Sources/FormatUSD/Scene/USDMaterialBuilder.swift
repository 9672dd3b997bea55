import AssetCore

/// Builds `Material`s from UsdShade networks: a Material's `outputs:surface` connected (directly or
/// through NodeGraphs) to a UsdPreviewSurface shader, whose inputs are constants or connections to
/// UsdUVTexture shaders, whose `st` comes from a UsdPrimvarReader naming the texcoord set. Material
/// interface inputs (`inputs:` on the Material or a NodeGraph) are followed too.
struct USDMaterialBuilder {
    static let maxConnectionDepth = 16

    let primsByPath: [String: USDComposedPrim]
    let values: USDAttributeValues
    let resolver: USDAssetResolver
    var textures: [Texture] = []
    var diagnostics: [Diagnostic] = []
    private var textureIndex: [String: Int] = [:]

    /// Per Material prim path, its preview surface's inputs that UsdPrimvarReaders feed.
    var primvarInputs: [String: [PrimvarInput]] = [:]

    /// A UsdPreviewSurface input fed by a UsdPrimvarReader_float/float2/float3/float4.
    struct PrimvarInput {
        /// The preview surface inputs a reader may feed that the scene model holds.
        static let inputs = ["diffuseColor", "emissiveColor", "specularColor", "metallic", "roughness", "opacity", "clearcoat", "clearcoatRoughness"]
        var input: String
        var varname: String
        /// The reader's `fallback`, for meshes without the primvar; UsdPrimvarReader's own is 0.
        var fallback: [Float]
        var location: SourceLocation
    }

    init(primsByPath: [String: USDComposedPrim], values: USDAttributeValues, resolver: USDAssetResolver) {
        self.primsByPath = primsByPath
        self.values = values
        self.resolver = resolver
    }

    /// Where an input's value comes from.
    enum Source {
        case value(USDValue, layer: AssetLocation)
        case output(shader: USDComposedPrim, name: String)
        case none
    }

    mutating func build(_ prim: USDComposedPrim) -> Material {
        // MaterialX first where both are there: it is what the authoring tool shaded with, and the
        // preview surface beside it is a simplification (Blender 5 writes a grey one with MaterialX only).
        if let (surface, kind) = materialXSurface(of: prim) { return materialXMaterial(prim, surface: surface, kind: kind) }
        var material = Material(name: prim.name)
        material.shadingSource = "UsdPreviewSurface"
        guard let surface = surfaceShader(of: prim) else {
            material.shadingSource = nil
            diagnostics.append(.warning("material \(prim.name) has no UsdPreviewSurface or MaterialX surface; its fallback values are used", at: prim.location))
            return material
        }
        // Inputs a UsdPrimvarReader feeds are read from the bound meshes' primvars once the scene
        // is built (USDSceneBuilder+PrimvarInputs); here they keep their defaults.
        var fedByPrimvars: [PrimvarInput] = []
        for name in PrimvarInput.inputs {
            if let reader = primvarReader(surface, name) { fedByPrimvars.append(reader) }
        }
        primvarInputs[prim.path] = fedByPrimvars.isEmpty ? nil : fedByPrimvars
        func fed(_ name: String) -> Bool { fedByPrimvars.contains { $0.input == name } }
        if !fed("diffuseColor"), let c = color(surface, "diffuseColor") { material.baseColor = c }
        if !fed("emissiveColor"), let c = color(surface, "emissiveColor") { material.emissive = c }
        if !fed("metallic"), let f = scalar(surface, "metallic") { material.metallic = f }
        if !fed("roughness"), let f = scalar(surface, "roughness") { material.roughness = f }
        if !fed("opacity"), let f = scalar(surface, "opacity") { material.opacity = f }
        if let f = scalar(surface, "opacityThreshold") { material.opacityThreshold = f.value }
        material.normal = texture(surface, "normal")
        material.occlusion = texture(surface, "occlusion")
        if case .value(let value, _) = input(surface, "useSpecularWorkflow"), let on = value.doubleValue { material.usesSpecularWorkflow = on != 0 }
        if !fed("specularColor"), let c = color(surface, "specularColor") { material.specularColor = c }
        if !fed("clearcoat"), let f = scalar(surface, "clearcoat") { material.clearcoat = f }
        if !fed("clearcoatRoughness"), let f = scalar(surface, "clearcoatRoughness") { material.clearcoatRoughness = f }
        if let f = scalar(surface, "ior") { material.ior = f.value }
        if case .output = input(surface, "displacement") {
            diagnostics.append(.warning("material \(prim.name): displacement is not kept", at: surface.location))
        }
        return material
    }

    /// The preview surface's constant inputs that hold time samples (more than one), as material
    /// channels: what an animated Collada effect or a glTF KHR_animation_pointer becomes in USD.
    mutating func animatedInputs(of prim: USDComposedPrim, material: Int, timeCodesPerSecond: Double) -> [MaterialAnimationChannel] {
        guard let surface = surfaceShader(of: prim) else { return [] }
        var channels: [MaterialAnimationChannel] = []
        for input in MaterialAnimationChannel.Input.allCases {
            let name: String = switch input {
            case .baseColor: "diffuseColor"
            case .emissive: "emissiveColor"
            case .opacity: "opacity"
            case .metallic: "metallic"
            case .roughness: "roughness"
            }
            guard let property = surface.attribute("inputs:" + name), property.targets.isEmpty,
                  let samples = property.spec.timeSamples, samples.count > 1 else { continue }
            var times: [Double] = [], values: [Float] = []
            for sample in samples {
                guard sample.time.isFinite, let numbers = sample.value.flatNumbers, numbers.count >= input.components,
                      numbers.prefix(input.components).allSatisfy(\.isFinite) else {
                    times = []
                    break
                }
                times.append(sample.time / timeCodesPerSecond)
                values += numbers.prefix(input.components).map(Float.init)
            }
            if times.isEmpty {
                diagnostics.append(.warning("material \(prim.name): inputs:\(name) has a time sample that is not \(input.components) finite numbers; its animation is ignored",
                                            at: surface.location))
                continue
            }
            channels.append(MaterialAnimationChannel(material: material, input: input, times: times, values: values))
        }
        return channels
    }

    // MARK: Network walking

    private func surfaceShader(of material: USDComposedPrim) -> USDComposedPrim? {
        let outputs = ["outputs:surface"] + material.properties.keys.filter { $0.hasSuffix(":surface") && $0 != "outputs:surface" }.sorted()
        for output in outputs {
            guard let property = material.attribute(output) else { continue }
            if case .output(let shader, _) = follow(property, depth: 0),
               values.string(shader.attribute("info:id")) == "UsdPreviewSurface" {
                return shader
            }
        }
        return nil
    }

    /// The MaterialX surface node the material's `outputs:mtlx:surface` (or another surface output)
    /// leads to, and which kind it is.
    private func materialXSurface(of material: USDComposedPrim) -> (USDComposedPrim, MaterialXSurface)? {
        let outputs = ["outputs:mtlx:surface", "outputs:surface"] + material.properties.keys.filter {
            $0.hasSuffix(":surface") && $0 != "outputs:surface" && $0 != "outputs:mtlx:surface"
        }.sorted()
        for output in outputs {
            guard let property = material.attribute(output), case .output(let shader, _) = follow(property, depth: 0),
                  let kind = MaterialXSurface(id: values.string(shader.attribute("info:id")) ?? "") else { continue }
            return (shader, kind)
        }
        return nil
    }

    /// Follows a property's connection to the shader output that feeds it, or to a constant.
    func follow(_ property: USDComposedProperty, depth: Int) -> Source {
        guard depth < Self.maxConnectionDepth else { return .none }
        if let target = property.targets.first {
            let primPath = USDPath.primPath(of: target)
            guard let source = primsByPath[primPath], let name = USDPath.propertyName(of: target) else { return .none }
            if source.typeName == "Shader" && name.hasPrefix("outputs:") {
                return .output(shader: source, name: String(name.dropFirst("outputs:".count)))
            }
            // A Material's or NodeGraph's interface input or output: keep following.
            guard let next = source.attribute(name) else { return .none }
            return follow(next, depth: depth + 1)
        }
        if let value = values.value(property) { return .value(value, layer: property.layer) }
        return .none
    }

    func input(_ shader: USDComposedPrim, _ name: String) -> Source {
        guard let property = shader.attribute("inputs:" + name) else { return .none }
        return follow(property, depth: 0)
    }

    // MARK: Inputs

    private mutating func color(_ surface: USDComposedPrim, _ name: String) -> MaterialProperty<SIMD3<Float>>? {
        switch input(surface, name) {
        case .value(let value, _):
            guard let n = value.flatNumbers, n.count >= 3 else { return nil }
            return MaterialProperty(SIMD3(Float(n[0]), Float(n[1]), Float(n[2])))
        case .output(let shader, let output):
            guard let (reference, fallback) = textureReference(shader, output: output) else { return nil }
            let f = fallback ?? [0.18, 0.18, 0.18, 1]  // UsdPreviewSurface's default diffuseColor, never black
            return MaterialProperty(SIMD3(f[0], f[1], f[2]), texture: reference)
        case .none:
            return nil
        }
    }

    private mutating func scalar(_ surface: USDComposedPrim, _ name: String) -> MaterialProperty<Float>? {
        switch input(surface, name) {
        case .value(let value, _):
            return value.doubleValue.map { MaterialProperty(Float($0)) }
        case .output(let shader, let output):
            guard let (reference, fallback) = textureReference(shader, output: output) else { return nil }
            return MaterialProperty(fallback?[0] ?? 0, texture: reference)
        case .none:
            return nil
        }
    }

    /// The primvar a UsdPrimvarReader feeding the input reads; nil when no reader feeds it (or
    /// one names no primvar, which is said).
    private mutating func primvarReader(_ surface: USDComposedPrim, _ name: String) -> PrimvarInput? {
        guard case .output(let shader, _) = input(surface, name),
              let id = values.string(shader.attribute("info:id")), id.hasPrefix("UsdPrimvarReader_") else { return nil }
        guard case .value(let value, _) = input(shader, "varname"), let varname = value.stringValue, !varname.isEmpty else {
            diagnostics.append(.warning("primvar reader \(shader.name) names no primvar; inputs:\(name) keeps its default", at: shader.location))
            return nil
        }
        var fallback: [Float] = [0, 0, 0, 0]
        if case .value(let value, _) = input(shader, "fallback"), let numbers = value.flatNumbers { fallback = numbers.map(Float.init) }
        return PrimvarInput(input: name, varname: varname, fallback: fallback, location: shader.location)
    }

    private mutating func texture(_ surface: USDComposedPrim, _ name: String) -> TextureReference? {
        guard case .output(let shader, let output) = input(surface, name) else { return nil }
        return textureReference(shader, output: output)?.reference
    }

    /// A UsdUVTexture output as a texture reference, with the shader's `fallback` colour.
    mutating func textureReference(_ shader: USDComposedPrim, output: String) -> (reference: TextureReference, fallback: [Float]?)? {
        let id = values.string(shader.attribute("info:id")) ?? ""
        guard id == "UsdUVTexture" else {
            diagnostics.append(.warning("shader \(shader.name) (\(id.isEmpty ? "no info:id" : id)) is not a UsdUVTexture; its connection is ignored", at: shader.location))
            return nil
        }
        guard case .value(let fileValue, let layer) = input(shader, "file"), let file = fileValue.stringValue, !file.isEmpty else {
            diagnostics.append(.warning("texture shader \(shader.name) has no file", at: shader.location))
            return nil
        }
        var texcoordSet = "st"
        var transform: TextureTransform?
        if case .output(var reader, _) = input(shader, "st") {
            if values.string(reader.attribute("info:id")) == "UsdTransform2d" {
                transform = textureTransform(reader)
                if case .output(let next, _) = input(reader, "in") { reader = next }
            }
            if case .value(let name, _) = input(reader, "varname"), let varname = name.stringValue { texcoordSet = varname }
        }
        let index = textureIndex(for: file, layer: layer, shader: shader)
        let wrapS = wrapMode(shader, "wrapS"), wrapT = wrapMode(shader, "wrapT")
        if let wrapS { textures[index].wrapS = wrapS }
        if let wrapT { textures[index].wrapT = wrapT }
        let channels = TextureReference.Channels(rawValue: output) ?? .rgb
        var fallback: [Float]?
        if case .value(let value, _) = input(shader, "fallback"), let n = value.flatNumbers { fallback = n.map(Float.init) }
        var reference = TextureReference(texture: index, texcoordSet: texcoordSet, channels: channels)
        if let transform, !transform.isIdentity { reference.transform = transform }
        if case .value(let value, _) = input(shader, "scale"), let n = value.flatNumbers, n.count == 4 {
            reference.scale = SIMD4(n.map(Float.init))
        }
        if case .value(let value, _) = input(shader, "bias"), let n = value.flatNumbers, n.count == 4 {
            reference.bias = SIMD4(n.map(Float.init))
        }
        return (reference, fallback)
    }

    /// A UsdTransform2d's inputs, with the schema's fallbacks (scale 1, rotation 0, translation 0).
    private func textureTransform(_ node: USDComposedPrim) -> TextureTransform {
        var transform = TextureTransform()
        if case .value(let v, _) = input(node, "scale"), let n = v.flatNumbers, n.count == 2 { transform.scale = SIMD2(Float(n[0]), Float(n[1])) }
        if case .value(let v, _) = input(node, "rotation"), let r = v.doubleValue { transform.rotation = Float(r) }
        if case .value(let v, _) = input(node, "translation"), let n = v.flatNumbers, n.count == 2 {
            transform.translation = SIMD2(Float(n[0]), Float(n[1]))
        }
        return transform
    }

    private func wrapMode(_ shader: USDComposedPrim, _ name: String) -> Texture.WrapMode? {
        guard case .value(let value, _) = input(shader, name), let token = value.stringValue else { return nil }
        return Texture.WrapMode(rawValue: token)
    }

    /// One `Texture` per distinct file; missing or refused files are kept (unresolved) with a warning,
    /// so a renderer can fall back to the material's constant colour.
    mutating func textureIndex(for file: String, layer: AssetLocation, shader: USDComposedPrim) -> Int {
        let source: Texture.Source
        let key: String
        var warning: String?
        if file.contains("<UDIM>") {
            warning = "UDIM texture '\(file)' is not supported; its constant colour is used"
            source = .file(authoredPath: file, resolvedPath: nil)
            key = "unresolved:" + file
        } else {
            switch resolver.resolve(file, anchor: layer) {
            case .refused(let why):
                warning = "texture refused: \(why)"
                source = .file(authoredPath: file, resolvedPath: nil)
                key = "refused:" + file
            case .found(let location):
                key = location.description
                let exists = resolver.exists(location)
                if !exists { warning = "texture '\(file)' not found (looked for \(resolver.name(of: location)))" }
                switch location {
                case .file(let path): source = .file(authoredPath: file, resolvedPath: exists ? path : nil)
                case .packageEntry(let package, let entry):
                    source = exists ? .packageEntry(package: package.description, entry: entry) : .file(authoredPath: file, resolvedPath: nil)
                }
            }
        }
        if let known = textureIndex[key] { return known }
        if let warning { diagnostics.append(.warning(warning, at: shader.location)) }
        let name = String(file.split(separator: "/").last ?? Substring(file))
        textures.append(Texture(name: name, source: source))
        textureIndex[key] = textures.count - 1
        return textures.count - 1
    }
}

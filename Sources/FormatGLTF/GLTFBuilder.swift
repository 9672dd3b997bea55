import AssetCore

/// Builds the glTF JSON and its binary buffer from a triangulated scene.
struct GLTFBuilder {
    let scene: Scene
    let binary: Bool
    let context: WriteContext
    var document: GLTFDocument
    var buffer = ByteWriter()
    var textureFiles: [OutputFile] = []
    var diagnostics: [Diagnostic] = []
    /// Scene mesh index + bound materials -> glTF mesh index.
    private var meshCache: [String: Int] = [:]
    /// Scene mesh index -> its vertex attribute accessors, shared by every glTF mesh built from it.
    private var attributeCache: [Int: (attributes: [String: Int], unwelded: UnweldedMesh)] = [:]
    private var textureIndex: [Int: Int] = [:]
    /// Vertex count -> an accessor of that many zero texture coordinates.
    private var zeroTexcoordAccessors: [Int: Int] = [:]
    /// Scene node path -> glTF node, and -> the glTF node holding its first mesh (morph weights).
    private var nodeIndexByPath: [String: Int] = [:]
    var meshNodeByPath: [String: Int] = [:]
    private var skinnedNodes: [(node: Int, skeleton: Int)] = []
    /// Scene camera and light -> glTF camera and KHR_lights_punctual light.
    var cameraIndex: [Int: Int] = [:]
    var lightIndex: [Int: Int] = [:]
    var ambientLightsLeftOut: Set<Int> = []

    init(scene: Scene, binary: Bool, context: WriteContext) {
        self.scene = scene
        self.binary = binary
        self.context = context
        document = GLTFDocument(asset: .init(generator: "assetc"), scenes: [.init(nodes: [])])
    }

    mutating func build() {
        if !scene.materials.isEmpty { document.materials = scene.materials.indices.map { material($0) } }
        if !scene.materialVariants.isEmpty {
            document.extensions = .init(KHR_materials_variants: .init(variants: scene.materialVariants.map { .init(name: $0) }), KHR_lights_punctual: nil)
            document.extensionsUsed = (document.extensionsUsed ?? []) + ["KHR_materials_variants"]
        }
        document.scenes[0].nodes = scene.root.children.map { node($0, path: "/" + $0.name) }
        addSkinsAndAnimations(nodeIndexByPath: nodeIndexByPath, skinnedNodes: skinnedNodes)
    }

    // MARK: Nodes and meshes

    private mutating func node(_ source: Node, path: String) -> Int {
        let index = document.nodes.count
        nodeIndexByPath[path] = index
        document.nodes.append(GLTFDocument.Node(name: source.name.isEmpty ? nil : source.name,
                                                matrix: source.transform.isIdentity ? nil : source.transform.columnMajorElements))
        attachCameraAndLight(of: source, to: index)
        var children: [Int] = []
        for (k, instance) in source.meshInstances.enumerated() where scene.meshes.indices.contains(instance.mesh) {
            let isPointCloud = scene.meshes[instance.mesh].faceVertexCounts.isEmpty && !scene.meshes[instance.mesh].points.isEmpty
            let mesh = isPointCloud ? pointsMesh(for: instance) : mesh(for: instance)
            var holder = index
            if k == 0 {
                document.nodes[index].mesh = mesh
            } else {
                // A glTF node holds one mesh; further instances hang below it.
                holder = document.nodes.count
                children.append(holder)
                document.nodes.append(GLTFDocument.Node(name: "\(source.name)_mesh\(k)", mesh: mesh))
            }
            if k == 0 { meshNodeByPath[path] = holder }
            if let skin = instance.skin, scene.meshes[instance.mesh].skinWeights != nil { skinnedNodes.append((holder, skin.skeleton)) }
        }
        // Lines and splats are meshes of their own: on the node when it holds no mesh yet, else on a child.
        let extra = source.curvesInstances.filter { scene.curves.indices.contains($0.curves) }.map { (linesMesh(for: $0), "lines") }
            + source.splatInstances.filter { scene.splats.indices.contains($0.splats) }.map { (splatMesh(for: $0), "splats") }
        for (mesh, kind) in extra {
            if document.nodes[index].mesh == nil {
                document.nodes[index].mesh = mesh
            } else {
                children.append(document.nodes.count)
                document.nodes.append(GLTFDocument.Node(name: "\(source.name)_\(kind)\(children.count)", mesh: mesh))
            }
        }
        for child in source.children { children.append(node(child, path: path + "/" + child.name)) }
        if !children.isEmpty { document.nodes[index].children = children }
        return index
    }

    private mutating func mesh(for instance: MeshInstance) -> Int {
        let geomBind = instance.skin?.geomBindTransform ?? .identity
        let key = "\(instance.mesh):\(instance.material.map(String.init) ?? "-"):\(instance.subsetMaterials.map { $0.map(String.init) ?? "-" })"
            + ":\(instance.variantBindings.map { "\($0.variant)/\($0.subset ?? -1)/\($0.material)" })"
            + (geomBind.isIdentity ? "" : ":\(geomBind.columnMajorElements)")
        if let known = meshCache[key] { return known }
        let source = scene.meshes[instance.mesh]
        let (vertexAttributes, unwelded) = vertexAttributes(instance.mesh, geomBind: geomBind)
        var attributes = vertexAttributes
        var targets: [[String: Int]]?
        if let skin = instance.skin, let weights = source.skinWeights, scene.skeletons.indices.contains(skin.skeleton) {
            attributes.merge(skinAttributes(weights, jointCount: scene.skeletons[skin.skeleton].jointCount,
                                            sourcePoints: unwelded.sourcePoints, vertexCount: unwelded.positions.count)) { $1 }
        }
        if !source.blendShapes.isEmpty {
            targets = morphTargets(source.blendShapes, sourcePoints: unwelded.sourcePoints, vertexCount: unwelded.positions.count,
                                   pointCount: source.points.count)
        }
        // Triangles grouped by material: each subset's, then the rest.
        var assigned = [Bool](repeating: false, count: source.faceVertexCounts.count)
        var groups: [(material: Int?, subset: Int?, faces: [Int32])] = []
        for (s, subset) in source.subsets.enumerated() {
            let faces = subset.faceIndices.filter { !assigned[Int($0)] }
            for f in faces { assigned[Int(f)] = true }
            if !faces.isEmpty { groups.append((s < instance.subsetMaterials.count ? instance.subsetMaterials[s] ?? instance.material : instance.material, s, faces)) }
        }
        let rest = (0..<Int32(source.faceVertexCounts.count)).filter { !assigned[Int($0)] }
        if !rest.isEmpty { groups.append((instance.material, nil, rest)) }
        var primitives: [GLTFDocument.Primitive] = []
        for group in groups {
            var indices = [UInt32]()
            indices.reserveCapacity(group.faces.count * 3)
            unwelded.indices.withUnsafeBufferPointer { all in
                for f in group.faces { let c = Int(f) * 3; indices.append(all[c]); indices.append(all[c + 1]); indices.append(all[c + 2]) }
            }
            let accessor = addIndices(indices)
            var primitiveAttributes = attributes
            for set in 0..<(group.material.map { texcoordSetsRead(by: $0) } ?? 0) where primitiveAttributes["TEXCOORD_\(set)"] == nil {
                // A texture reading coordinates the mesh lacks samples at (0, 0), as UsdPrimvarReader's
                // fallback does; glTF instead requires the attribute, so it is written as zeros.
                primitiveAttributes["TEXCOORD_\(set)"] = zeroTexcoords(count: unwelded.positions.count)
            }
            var primitive = GLTFDocument.Primitive(attributes: primitiveAttributes, indices: accessor, material: group.material, targets: targets)
            if !instance.variantBindings.isEmpty {
                // Each variant's material for these faces, the variants sharing one grouped into one mapping.
                var byMaterial: [Int: [Int]] = [:]
                for v in scene.materialVariants.indices {
                    if let m = instance.material(forSubset: group.subset, variant: v) { byMaterial[m, default: []].append(v) }
                }
                let mappings = byMaterial.keys.sorted().map { GLTFDocument.VariantMapping(material: $0, variants: byMaterial[$0]!) }
                if !mappings.isEmpty { primitive.extensions = .init(KHR_materials_variants: .init(mappings: mappings)) }
            }
            primitives.append(primitive)
        }
        var built = GLTFDocument.Mesh(name: source.name.isEmpty ? nil : source.name, primitives: primitives)
        if !source.blendShapes.isEmpty {
            built.extras = .init(targetNames: source.blendShapes.map(\.name))
            let weights = instance.blendShapeWeights
            if weights.contains(where: { $0 != 0 }) { built.weights = source.blendShapes.indices.map { $0 < weights.count ? weights[$0] : 0 } }
        }
        document.meshes.append(built)
        meshCache[key] = document.meshes.count - 1
        return document.meshes.count - 1
    }

    /// `geomBind` (a skin's geometry bind transform, which glTF lacks) is baked into the vertices.
    private mutating func vertexAttributes(_ meshIndex: Int, geomBind: Matrix4x4 = .identity) -> ([String: Int], UnweldedMesh) {
        if geomBind.isIdentity, let known = attributeCache[meshIndex] { return known }
        var mesh = scene.meshes[meshIndex]
        mesh.transform(by: geomBind)
        var corners = mesh.orientation == .leftHanded ? mesh.reversingWinding() : mesh
        if mesh.orientation == .leftHanded { corners.orientation = .rightHanded }
        let unwelded = corners.unwelded(corners: nil)
        let vertexCount = unwelded.positions.count
        // Every stream below and the indices after them, so the buffer grows once, not by doubling
        // copies; and room for a .glb's header and JSON, which the writer moves in front of it all.
        let floats = vertexCount * (3 + (unwelded.normals == nil ? 0 : 3) + 2 * unwelded.texcoords.count + (unwelded.colors == nil ? 0 : 4))
        buffer.reserve(additional: 4 * (floats + unwelded.indices.count) + Self.headroom)
        var attributes: [String: Int] = [:]
        attributes["POSITION"] = addFloats(type: "VEC3", count: vertexCount, width: 3, bounds: true) { out in
            for (i, p) in unwelded.positions.enumerated() { out[3 * i] = p.x; out[3 * i + 1] = p.y; out[3 * i + 2] = p.z }
        }
        if let normals = unwelded.normals {
            attributes["NORMAL"] = addFloats(type: "VEC3", count: normals.count, width: 3) { out in
                for (i, n) in normals.enumerated() {
                    let l = (n.x * n.x + n.y * n.y + n.z * n.z).squareRoot()
                    // glTF requires unit normals.
                    if l > 0 { out[3 * i] = n.x / l; out[3 * i + 1] = n.y / l; out[3 * i + 2] = n.z / l }
                    else { out[3 * i] = 0; out[3 * i + 1] = 1; out[3 * i + 2] = 0 }
                }
            }
        }
        for (set, uv) in unwelded.texcoords.enumerated() {
            attributes["TEXCOORD_\(set)"] = addFloats(type: "VEC2", count: uv.count, width: 2) { out in
                for (i, t) in uv.enumerated() { out[2 * i] = t.x; out[2 * i + 1] = 1 - t.y }
            }
        }
        if let colors = unwelded.colors {
            attributes["COLOR_0"] = addFloats(type: "VEC4", count: colors.count, width: 4) { out in
                for (i, c) in colors.enumerated() { out[4 * i] = c.x; out[4 * i + 1] = c.y; out[4 * i + 2] = c.z; out[4 * i + 3] = c.w }
            }
        }
        if geomBind.isIdentity { attributeCache[meshIndex] = (attributes, unwelded) }
        return (attributes, unwelded)
    }

    /// How many texture coordinate sets a material's textures read (`st` is set 0, `st1` set 1...).
    private func texcoordSetsRead(by material: Int) -> Int {
        guard scene.materials.indices.contains(material) else { return 0 }
        return scene.materials[material].textureReferences.map { (Int($0.texcoordSet.dropFirst(2)) ?? 0) + 1 }.max() ?? 0
    }

    /// One accessor of `count` zero texture coordinates, shared by every primitive that needs it.
    private mutating func zeroTexcoords(count: Int) -> Int {
        if let known = zeroTexcoordAccessors[count] { return known }
        let accessor = addFloats(type: "VEC2", count: count, width: 2) { out in out.update(repeating: 0) }
        zeroTexcoordAccessors[count] = accessor
        return accessor
    }

    // MARK: Buffer

    mutating func addView(_ bytes: Int, target: Int?) -> Int {
        document.bufferViews.append(GLTFDocument.BufferView(byteOffset: buffer.count - bytes, byteLength: bytes, target: target))
        return document.bufferViews.count - 1
    }

    mutating func addFloats(_ values: [Float], type: String, count: Int, bounds: Bool = false) -> Int {
        addFloats(type: type, count: count, floats: values.count, bounds: bounds) { out in _ = out.update(fromContentsOf: values) }
    }

    /// An accessor of `count` elements of `type` whose `floats` floats (`width` per element) `fill`
    /// writes straight into the buffer.
    mutating func addFloats(type: String, count: Int, width: Int, bounds: Bool = false,
                            _ fill: (UnsafeMutableBufferPointer<Float>) -> Void) -> Int {
        addFloats(type: type, count: count, floats: count * width, bounds: bounds, fill)
    }

    private mutating func addFloats(type: String, count: Int, floats: Int, bounds: Bool,
                                    _ fill: (UnsafeMutableBufferPointer<Float>) -> Void) -> Int {
        let width = count > 0 ? floats / count : 0
        buffer.pad(to: 4)
        let start = buffer.count
        buffer.f32s(count: floats, fill)
        let view = addView(buffer.count - start, target: 34962)
        var accessor = GLTFDocument.Accessor(bufferView: view, componentType: 5126, count: count, type: type)
        if bounds, count > 0 {
            // Per component, compared as Sequence.min()/max() compare (a NaN never replaces a value).
            var low = [Float](repeating: 0, count: width), high = low
            buffer.bytes.withUnsafeBytes { raw in
                // The floats as written: little-endian bit patterns.
                func float(_ index: Int) -> Float {
                    Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + 4 * index, as: UInt32.self)))
                }
                for k in 0..<width {
                    var (l, h) = (float(k), float(k))
                    for e in 1..<count {
                        let x = float(e * width + k)
                        if x < l { l = x }
                        if h < x { h = x }
                    }
                    low[k] = l
                    high[k] = h
                }
            }
            accessor.min = low
            accessor.max = high
        }
        document.accessors.append(accessor)
        return document.accessors.count - 1
    }

    /// Capacity kept past a mesh's data for what the writer puts in front of the buffer at the end.
    static let headroom = 64 << 10

    mutating func addIndices(_ indices: [UInt32]) -> Int {
        buffer.pad(to: 4)
        let start = buffer.count
        buffer.u32s(indices)
        let view = addView(buffer.count - start, target: 34963)
        document.accessors.append(GLTFDocument.Accessor(bufferView: view, componentType: 5125, count: indices.count, type: "SCALAR"))
        return document.accessors.count - 1
    }

    // MARK: Materials

    private mutating func material(_ index: Int) -> GLTFDocument.Material {
        let source = scene.materials[index]
        // glTF core is metallic-roughness: a specular-workflow material is written as its nearest one.
        let m = source.metallicRoughnessEquivalent
        if source.usesSpecularWorkflow {
            let k = source.specularColor.value
            var lost = ["specular colour (\(NumberText.float(k.x)), \(NumberText.float(k.y)), \(NumberText.float(k.z))) (as metalness \(NumberText.float(m.metallic.value)))"]
            if source.specularColor.texture != nil { lost = ["the specular texture (taken as a dielectric, metalness 0)"] }
            diagnostics.append(.warning("material \(source.name): glTF has no specular workflow; written as metallic-roughness without \(lost.joined(separator: " and "))"))
        }
        // glTF multiplies a texture by its factor; a textured input's constant is only a fallback, so
        // the factor is the texture's scale (glTF's own factor read back), else 1.
        // Transmission was folded into opacity when read (opacity × (1 − t)); glTF holds it apart.
        let transmission = transmissionParts(m)
        let opacity = transmission.opacity
        let c = m.baseColor.texture.map { $0.scale ?? .one } ?? SIMD4(m.baseColor.value, opacity.value)
        let alpha = m.baseColor.texture == nil ? opacity.value : (opacity.texture?.scale?.w ?? (opacity.texture == nil ? opacity.value : 1))
        var metallic = m.metallic.texture.map { $0.scale?.x ?? 1 } ?? m.metallic.value
        var roughness = m.roughness.texture.map { $0.scale?.x ?? 1 } ?? m.roughness.value
        // glTF reads metalness from blue and roughness from green of one texture: a pair that is
        // already that (a glTF source's) is written as it is; anything else keeps its factors only.
        var packed: GLTFDocument.TextureInfo?
        if let mt = m.metallic.texture, let rt = m.roughness.texture, mt.texture == rt.texture, mt.channels == .b, rt.channels == .g,
           mt.texcoordSet == rt.texcoordSet, mt.transform == rt.transform, mt.bias == nil, rt.bias == nil {
            packed = textureInfo(mt)
        } else if m.metallic.texture != nil || m.roughness.texture != nil {
            // The constants are the inputs' fallbacks, the values the source itself gives without its textures.
            metallic = m.metallic.value
            roughness = min(max(m.roughness.value, 0), 1)
            diagnostics.append(.warning("material \(source.name): its metallic/roughness textures are not glTF's packed blue/green texture; written as the factors \(metallic) and \(roughness)"))
        }
        var result = GLTFDocument.Material(
            name: m.name,
            pbrMetallicRoughness: .init(baseColorFactor: [c.x, c.y, c.z, alpha],
                                        baseColorTexture: m.baseColor.texture.flatMap { textureInfo($0) },
                                        metallicFactor: metallic, roughnessFactor: roughness, metallicRoughnessTexture: packed))
        var e = m.emissive.texture.map { scale -> SIMD3<Float> in scale.scale.map { SIMD3($0.x, $0.y, $0.z) } ?? SIMD3(repeating: 1) } ?? m.emissive.value
        var extensions = GLTFDocument.MaterialExtensions()
        // emissiveFactor stops at 1; a brighter emission is a factor times KHR_materials_emissive_strength.
        if let brightest = [e.x, e.y, e.z].max(), brightest > 1 {
            e /= brightest
            extensions.KHR_materials_emissive_strength = .init(emissiveStrength: brightest)
        }
        if e != .zero { result.emissiveFactor = [e.x, e.y, e.z] }
        result.normalTexture = m.normal.flatMap { textureInfo($0) }
        // A normal map's strength is half its x scale (UsdUVTexture decodes with 2s); occlusion's is its scale.
        if let s = m.normal?.scale?.x, s != 2 { result.normalTexture?.scale = s / 2 }
        result.occlusionTexture = m.occlusion.flatMap { textureInfo($0) }
        if let s = m.occlusion?.scale?.x, s != 1 { result.occlusionTexture?.strength = s }
        switch transmission.alphaMode {
        case .opaque: break
        case .mask:
            result.alphaMode = "MASK"
            result.alphaCutoff = m.opacityThreshold
        case .blend: result.alphaMode = "BLEND"
        }
        if m.isDoubleSided { result.doubleSided = true }
        if m.clearcoat.value != 0 || m.clearcoat.texture != nil {
            extensions.KHR_materials_clearcoat = .init(
                clearcoatFactor: m.clearcoat.texture.map { $0.scale?.x ?? 1 } ?? m.clearcoat.value,
                clearcoatTexture: m.clearcoat.texture.flatMap { $0.channels == .r ? textureInfo($0) : nil },
                clearcoatRoughnessFactor: m.clearcoatRoughness.texture.map { $0.scale?.x ?? 1 } ?? m.clearcoatRoughness.value,
                clearcoatRoughnessTexture: m.clearcoatRoughness.texture.flatMap { $0.channels == .g ? textureInfo($0) : nil })
        }
        if m.ior != 1.5 { extensions.KHR_materials_ior = .init(ior: m.ior) }
        if m.transmission > 0 {
            extensions.KHR_materials_transmission = .init(transmissionFactor: m.transmission,
                                                          transmissionTexture: transmission.texture.flatMap { textureInfo($0) })
        }
        if extensions.KHR_materials_clearcoat != nil || extensions.KHR_materials_ior != nil || extensions.KHR_materials_emissive_strength != nil
            || extensions.KHR_materials_transmission != nil {
            result.extensions = extensions
            for (name, used) in [("KHR_materials_clearcoat", extensions.KHR_materials_clearcoat != nil), ("KHR_materials_ior", extensions.KHR_materials_ior != nil),
                                 ("KHR_materials_emissive_strength", extensions.KHR_materials_emissive_strength != nil),
                                 ("KHR_materials_transmission", extensions.KHR_materials_transmission != nil)] where used {
                if document.extensionsUsed?.contains(name) != true { document.extensionsUsed = (document.extensionsUsed ?? []) + [name] }
            }
        }
        return result
    }

    /// The opacity and alpha mode with transmission unfolded, and the transmission texture: an opacity
    /// texture read as 1 − t × texel (scale −t, bias 1) is the transmission texture glTF had.
    private func transmissionParts(_ m: Material) -> (opacity: MaterialProperty<Float>, alphaMode: Material.AlphaMode, texture: TextureReference?) {
        let t = m.transmission
        guard t > 0 else { return (m.opacity, m.alphaMode, nil) }
        var opacity = m.opacity
        var texture: TextureReference?
        if var reference = opacity.texture, reference.bias == SIMD4(repeating: 1), reference.scale == SIMD4(repeating: -t) {
            reference.scale = nil
            reference.bias = nil
            texture = reference
            opacity.texture = nil
        }
        opacity.value = t < 1 ? min(1, opacity.value / (1 - t)) : 1
        // What the reader made blended for transmission's sake is opaque again beside the extension.
        let mode: Material.AlphaMode = m.alphaMode == .blend && opacity.value >= 0.999 && opacity.texture == nil ? .opaque : m.alphaMode
        return (opacity, mode, texture)
    }

    private mutating func textureInfo(_ reference: TextureReference) -> GLTFDocument.TextureInfo? {
        guard scene.textures.indices.contains(reference.texture), let image = texture(reference.texture) else { return nil }
        // The texcoord set's position among the mesh's sets; "st" is the first everywhere assetc writes.
        let set = Int(reference.texcoordSet.dropFirst(2)) ?? 0
        var info = GLTFDocument.TextureInfo(index: image, texCoord: set == 0 ? nil : set)
        if let transform = reference.transform {
            let t = GLTFTextureTransform.gltf(transform)
            info.extensions = .init(KHR_texture_transform: .init(offset: t.offset, rotation: t.rotation, scale: t.scale))
            if document.extensionsUsed?.contains("KHR_texture_transform") != true {
                document.extensionsUsed = (document.extensionsUsed ?? []) + ["KHR_texture_transform"]
            }
        }
        return info
    }

    private mutating func texture(_ index: Int) -> Int? {
        if let known = textureIndex[index] { return known }
        let texture = scene.textures[index]
        guard let bytes = context.textureBytes(texture), let mime = texture.mimeType else {
            diagnostics.append(.warning("texture \(texture.authoredPath) could not be read or is not PNG/JPEG; left out"))
            return nil
        }
        if document.images == nil { document.images = []; document.textures = []; document.samplers = [] }
        let image = addImage(bytes, mime: mime, name: texture.name, file: "\(index)_\(texture.outputFileName)")
        var entry = GLTFDocument.Texture(sampler: document.samplers!.count, source: image)
        if mime == "image/webp" {
            // EXT_texture_webp: the WebP under the extension, the PNG fallback (when there is one) as
            // the source viewers without the extension read; without one the extension is required.
            entry.extensions = .init(EXT_texture_webp: .init(source: image))
            if let png = texture.fallbackPNG {
                let name = texture.outputFileName
                let stem = name.lowercased().hasSuffix(".webp") ? String(name.dropLast(5)) : name
                entry.source = addImage(png, mime: "image/png", name: texture.name, file: "\(index)_\(stem).png")
            } else {
                entry.source = nil
                if document.extensionsRequired?.contains("EXT_texture_webp") != true {
                    document.extensionsRequired = (document.extensionsRequired ?? []) + ["EXT_texture_webp"]
                }
            }
            if document.extensionsUsed?.contains("EXT_texture_webp") != true {
                document.extensionsUsed = (document.extensionsUsed ?? []) + ["EXT_texture_webp"]
            }
        }
        document.samplers!.append(GLTFDocument.Sampler(wrapS: Self.wrap(texture.wrapS), wrapT: Self.wrap(texture.wrapT)))
        document.textures!.append(entry)
        textureIndex[index] = document.textures!.count - 1
        return document.textures!.count - 1
    }

    /// An image in the GLB's buffer, or a file beside the .gltf; its index.
    private mutating func addImage(_ bytes: [UInt8], mime: String, name: String, file: String) -> Int {
        var image = GLTFDocument.Image(name: name)
        if binary {
            buffer.pad(to: 4)
            buffer.append(bytes)
            image.bufferView = addView(bytes.count, target: nil)
            image.mimeType = mime
        } else {
            let path = "\(context.textureFolder)/\(file)"
            image.uri = path
            textureFiles.append(OutputFile(relativePath: path, bytes: bytes))
        }
        document.images!.append(image)
        return document.images!.count - 1
    }

    static func wrap(_ mode: AssetCore.Texture.WrapMode) -> Int {
        switch mode {
        case .repeat: return 10497
        case .mirror: return 33648
        case .clamp, .black: return 33071
        }
    }
}

import AssetCore

/// The default scene's node tree (`scene`, else scene 0, else every node no other node names as a
/// child) with TRS or matrix transforms, one `Mesh` or `Curves` per primitive (built once per glTF
/// mesh, however many nodes instance it), cameras and `KHR_lights_punctual` lights. glTF is Y up
/// in metres. Node graphs that are not trees (a node reached twice, a cycle) are cut with a warning.
struct GLTFSceneBuilder {
    let asset: GLTFAsset
    let file: String
    let limits: ReadLimits
    let meshBuilder: GLTFMeshBuilder
    var materialBuilder: GLTFMaterialBuilder
    var diagnostics: [Diagnostic] = []
    private var scene = Scene()
    /// glTF mesh index -> what each of its primitives became: scene mesh or curves index, and material.
    private var builtMeshes: [Int: [(built: Placement, material: Int?, variants: [MaterialVariantBinding])]] = [:]
    private var materialIndex: [Int: Int] = [:]
    /// KHR_lights_punctual light -> the scene lights made from it (one a node that places it).
    private var lightsBySource: [Int: [Int]] = [:]
    private var visited: Set<Int> = []
    private var nodeCount = 0
    /// glTF node index -> its path in the scene, for skins and animation channels.
    private var nodePaths: [Int: String] = [:]

    private enum Placement { case mesh(Int), curves(Int), splats(Int) }

    init(asset: GLTFAsset, file: String, limits: ReadLimits, meshBuilder: GLTFMeshBuilder, materialBuilder: GLTFMaterialBuilder) {
        self.asset = asset
        self.file = file
        self.limits = limits
        self.meshBuilder = meshBuilder
        self.materialBuilder = materialBuilder
    }

    mutating func build(format: AssetFormat) throws(AssetError) -> Scene {
        scene.metadata = SceneMetadata(upAxis: .y, metersPerUnit: 1, sourceFormat: format, generator: asset.asset.generator)
        scene.materialVariants = (asset.extensions?.KHR_materials_variants?.variants ?? []).enumerated().map { k, variant in
            variant.name ?? "variant\(k)"
        }
        let nodes = asset.nodes ?? []
        var roots: [Int]
        if let scenes = asset.scenes, !scenes.isEmpty {
            let chosen = asset.scene ?? 0
            guard scenes.indices.contains(chosen) else {
                throw AssetError(.malformed("scene \(chosen) does not exist (there are \(scenes.count))"), at: SourceLocation(file: file, elementPath: "scene"))
            }
            roots = scenes[chosen].nodes ?? []
            scene.metadata.defaultPrim = scenes[chosen].name
        } else {
            let children = Set(nodes.flatMap { $0.children ?? [] })
            roots = nodes.indices.filter { !children.contains($0) }
        }
        scene.root.children = try children(roots, depth: 1, parentPath: "")
        materialBuilder.finish()
        scene.textures = materialBuilder.textures
        diagnostics += materialBuilder.diagnostics
        var animation = GLTFAnimationBuilder(asset: asset, accessors: meshBuilder.accessors, file: file, nodePaths: nodePaths,
                                             lightsBySource: lightsBySource)
        try animation.build(into: &scene)
        diagnostics += animation.diagnostics
        GLTFSkinnedPlacement.apply(to: &scene)
        return scene
    }

    /// Nodes for `indices`, named by their glTF names made distinct among siblings (`_2`, `_3`...),
    /// since paths address nodes.
    private mutating func children(_ indices: [Int], depth: Int, parentPath: String) throws(AssetError) -> [Node] {
        var built: [Node] = []
        var used: Set<String> = []
        for index in indices {
            let base = asset.nodes.flatMap { $0.indices.contains(index) ? $0[index].name : nil } ?? "node\(index)"
            var name = base, n = 1
            while used.contains(name) {
                n += 1
                name = "\(base)_\(n)"
            }
            if let node = try node(index, depth: depth, name: name, parentPath: parentPath) {
                used.insert(name)
                built.append(node)
            }
        }
        return built
    }

    private mutating func node(_ index: Int, depth: Int, name: String, parentPath: String) throws(AssetError) -> Node? {
        let here = SourceLocation(file: file, elementPath: "nodes[\(index)]")
        guard let nodes = asset.nodes, nodes.indices.contains(index) else { throw AssetError(.malformed("node \(index) does not exist"), at: here) }
        guard depth <= limits.maxNodeDepth else { throw AssetError(.limitExceeded("nodes nested deeper than \(limits.maxNodeDepth) levels"), at: here) }
        guard visited.insert(index).inserted else {
            diagnostics.append(.warning("node \(index) is reached a second time (glTF nodes form a tree); this placement is cut", at: here))
            return nil
        }
        nodeCount += 1
        guard nodeCount <= limits.maxNodes else { throw AssetError(.limitExceeded("more than \(limits.maxNodes) nodes"), at: here) }
        let source = nodes[index]
        let path = parentPath + "/" + name
        nodePaths[index] = path
        var node = Node(name: name, typeName: "node", transform: try transform(source, at: here))
        if let meshIndex = source.mesh {
            let placements = try mesh(meshIndex)  // checks that the mesh exists
            let weights = (source.weights ?? asset.meshes?[meshIndex].weights ?? []).map(Float.init)
            for (built, material, variants) in placements {
                switch built {
                case .mesh(let m):
                    var instance = MeshInstance(mesh: m, material: material)
                    instance.blendShapeWeights = weights
                    instance.variantBindings = variants
                    if let skin = source.skin {
                        // Scene skeletons are the file's skins in order (GLTFAnimationBuilder).
                        guard asset.skins?.indices.contains(skin) == true else { throw AssetError(.malformed("skin \(skin) does not exist"), at: here) }
                        instance.skin = SkinBinding(skeleton: skin)
                    }
                    node.meshInstances.append(instance)
                case .curves(let c): node.curvesInstances.append(CurvesInstance(curves: c, material: material))
                case .splats(let s): node.splatInstances.append(SplatInstance(splats: s))
                }
            }
        }
        if let cameraIndex = source.camera { node.camera = try camera(cameraIndex, at: here) }
        if let lightIndex = source.extensions?.KHR_lights_punctual?.light { node.light = try light(lightIndex, at: here) }
        node.children = try children(source.children ?? [], depth: depth + 1, parentPath: path)
        return node
    }

    private func transform(_ node: GLTFAsset.Node, at here: SourceLocation) throws(AssetError) -> Matrix4x4 {
        if let m = node.matrix {
            guard m.count == 16 else { throw AssetError(.malformed("matrix has \(m.count) numbers, not 16"), at: here) }
            return Matrix4x4(columnMajor: m)  // glTF matrices are column-major for column vectors, like Matrix4x4
        }
        var result = Matrix4x4.identity
        if let t = node.translation {
            guard t.count == 3 else { throw AssetError(.malformed("translation has \(t.count) numbers, not 3"), at: here) }
            result = .translation(SIMD3(t[0], t[1], t[2]))
        }
        if let r = node.rotation {
            guard r.count == 4 else { throw AssetError(.malformed("rotation has \(r.count) numbers, not 4"), at: here) }
            result = result * .rotation(Quaternion(real: r[3], imaginary: SIMD3(r[0], r[1], r[2])))
        }
        if let s = node.scale {
            guard s.count == 3 else { throw AssetError(.malformed("scale has \(s.count) numbers, not 3"), at: here) }
            result = result * .scale(SIMD3(s[0], s[1], s[2]))
        }
        return result
    }

    private mutating func mesh(_ index: Int) throws(AssetError) -> [(built: Placement, material: Int?, variants: [MaterialVariantBinding])] {
        if let known = builtMeshes[index] { return known }
        let here = SourceLocation(file: file, elementPath: "meshes[\(index)]")
        guard let meshes = asset.meshes, meshes.indices.contains(index) else { throw AssetError(.malformed("mesh \(index) does not exist"), at: here) }
        let source = meshes[index]
        let baseName = source.name ?? "mesh\(index)"
        var placements: [(built: Placement, material: Int?, variants: [MaterialVariantBinding])] = []
        for (k, primitive) in source.primitives.enumerated() {
            let pHere = SourceLocation(file: file, elementPath: "meshes[\(index)].primitives[\(k)]")
            let name = source.primitives.count == 1 ? baseName : "\(baseName)_\(k)"
            guard let built = try meshBuilder.build(primitive, name: name, targetNames: source.extras?.targetNames, at: pHere,
                                                    diagnostics: &diagnostics) else { continue }
            let material = try primitive.material.map { m throws(AssetError) in try self.material(m, at: pHere) }
            let variants = try variantBindings(primitive, at: pHere)
            switch built {
            case .mesh(var mesh):
                if let m = material { mesh.isDoubleSided = scene.materials[m].isDoubleSided }
                scene.meshes.append(mesh)
                placements.append((.mesh(scene.meshes.count - 1), material, variants))
            case .curves(let curves):
                scene.curves.append(curves)
                placements.append((.curves(scene.curves.count - 1), material, []))
                if !variants.isEmpty { diagnostics.append(.warning("material variants of a line primitive are not kept", at: pHere)) }
            case .splats(let splats):
                scene.splats.append(splats)
                placements.append((.splats(scene.splats.count - 1), nil, []))
            }
        }
        builtMeshes[index] = placements
        return placements
    }

    /// A primitive's KHR_materials_variants mappings as bindings of the whole mesh it becomes.
    private mutating func variantBindings(_ primitive: GLTFAsset.Primitive, at here: SourceLocation) throws(AssetError) -> [MaterialVariantBinding] {
        guard let mappings = primitive.extensions?.KHR_materials_variants?.mappings else { return [] }
        var bindings: [MaterialVariantBinding] = []
        for mapping in mappings {
            let material = try self.material(mapping.material, at: here)
            for variant in mapping.variants {
                guard scene.materialVariants.indices.contains(variant) else {
                    throw AssetError(.malformed("KHR_materials_variants mapping names variant \(variant); the file has \(scene.materialVariants.count)"), at: here)
                }
                bindings.append(MaterialVariantBinding(variant: variant, material: material))
            }
        }
        return bindings
    }

    private mutating func material(_ index: Int, at here: SourceLocation) throws(AssetError) -> Int {
        if let known = materialIndex[index] { return known }
        guard let materials = asset.materials, materials.indices.contains(index) else {
            throw AssetError(.malformed("material \(index) does not exist"), at: here)
        }
        scene.materials.append(try materialBuilder.build(index))
        materialIndex[index] = scene.materials.count - 1
        return scene.materials.count - 1
    }

    private mutating func camera(_ index: Int, at here: SourceLocation) throws(AssetError) -> Int {
        guard let cameras = asset.cameras, cameras.indices.contains(index) else { throw AssetError(.malformed("camera \(index) does not exist"), at: here) }
        let source = cameras[index]
        var camera = Camera(name: source.name ?? "camera\(index)")
        if source.type == "orthographic", let o = source.orthographic {
            camera.projection = .orthographic
            camera.orthographicHeight = 2 * o.ymag
            camera.near = o.znear
            camera.far = o.zfar
        } else if let p = source.perspective {
            camera.verticalFieldOfView = p.yfov * 180 / .pi
            camera.near = p.znear
            camera.far = p.zfar ?? max(p.znear * 1e6, 1e6)  // an infinite projection: far enough for any scene
        } else {
            throw AssetError(.malformed("camera \(index) of type '\(source.type)' has no matching projection"), at: here)
        }
        scene.cameras.append(camera)
        return scene.cameras.count - 1
    }

    private mutating func light(_ index: Int, at here: SourceLocation) throws(AssetError) -> Int {
        guard let lights = asset.extensions?.KHR_lights_punctual?.lights, lights.indices.contains(index) else {
            throw AssetError(.malformed("KHR_lights_punctual light \(index) does not exist"), at: here)
        }
        let source = lights[index]
        let kind: Light.Kind
        switch source.type {
        case "directional": kind = .directional
        case "point": kind = .point
        case "spot": kind = .spot
        default: throw AssetError(.malformed("light type '\(source.type)' is not one KHR_lights_punctual defines"), at: here)
        }
        let c = source.color ?? [1, 1, 1]
        guard c.count == 3 else { throw AssetError(.malformed("light color has \(c.count) numbers, not 3"), at: here) }
        scene.lights.append(Light(name: source.name ?? "light\(index)", kind: kind, color: SIMD3(Float(c[0]), Float(c[1]), Float(c[2])),
                                  intensity: Float(source.intensity ?? 1)))
        lightsBySource[index, default: []].append(scene.lights.count - 1)
        return scene.lights.count - 1
    }
}

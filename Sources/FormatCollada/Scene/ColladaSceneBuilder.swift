import AssetCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a `ColladaDocument` into a `Scene`: the instanced visual scene's node tree with transforms,
/// geometry and controller instances (skins in their bind pose: the source geometry under the
/// bind shape matrix), `instance_node` copies with cycles cut, cameras, lights, and materials bound
/// per primitive through `bind_material`.
struct ColladaSceneBuilder {
    let document: ColladaDocument
    let limits: ReadLimits
    var diagnostics: [Diagnostic] = []
    private var scene = Scene()
    private var meshBuilder: ColladaMeshBuilder
    private let curvesBuilder: ColladaCurvesBuilder
    private var materialBuilder: ColladaMaterialBuilder
    /// Mesh index (or nil when the geometry could not be read) per geometry / controller id.
    private var meshes: [String: Built?] = [:]
    private var materialIndex: [String: Int] = [:]
    private var cameraIndex: [String: Int] = [:]
    private var lightIndex: [String: Int] = [:]
    private var nodeCount = 0
    /// Per node made, in the order made (the scene's depth-first order): where it came from, for
    /// joints and animation targets, which name Collada ids and sids rather than scene paths.
    var origins: [ColladaNodeOrigin] = []
    /// Skinned instances waiting for their joints to be found once every node exists.
    var pendingSkins: [ColladaPendingSkin] = []
    /// Nodes placing a morph (or a chain of them), by node number: their weights may be animated.
    var morphPlacements: [ColladaMorphPlacement] = []

    private struct Built {
        var mesh: Int?
        /// The skin controller whose joints the mesh follows, and the morphs (innermost first, with
        /// where each one's shapes start) whose default weights its instances start from.
        var skinController: String?
        var morphControllers: [(id: String, slots: [Int?])] = []
        var morphWeights: [Float] = []
        /// The geometry's lines and line strips: `scene.curves` index and material symbol.
        var curves: [(index: Int, symbol: String?)]
        var symbol: String?
        var subsetSymbols: [String]
        var texcoordNames: [Int: String]
    }

    init(document: ColladaDocument, documentPath: String, options: ReadOptions) {
        self.document = document
        limits = options.limits
        meshBuilder = ColladaMeshBuilder(document: document)
        curvesBuilder = ColladaCurvesBuilder(document: document)
        materialBuilder = ColladaMaterialBuilder(document: document, documentPath: documentPath, options: options)
    }

    mutating func build() throws(AssetError) -> Scene {
        scene.metadata = SceneMetadata(upAxis: document.upAxis, metersPerUnit: document.meter, sourceFormat: .dae,
                                       generator: document.authoringTool)
        let sceneID = document.sceneURL ?? document.visualSceneOrder.first
        if let url = document.sceneURL, document.visualScenes[url] == nil {
            diagnostics.append(.warning("unresolved reference #\(url) (visual_scene); the first visual scene is used", at: document.location(line: 1)))
        }
        let visualScene = sceneID.flatMap { document.visualScenes[$0] } ?? document.visualSceneOrder.first.flatMap { document.visualScenes[$0] }
        var roots: [Node] = []
        for node in visualScene?.nodes ?? [] {
            roots.append(try makeNode(node, depth: 1, instancing: [], parent: -1))
        }
        scene.root = Node(name: "", children: Self.uniquelyNamed(roots))
        scene.textures = materialBuilder.textures
        diagnostics += materialBuilder.diagnostics
        var animation = ColladaAnimationBuilder(document: document, origins: origins, limits: limits)
        try animation.build(into: &scene, pendingSkins: pendingSkins, morphPlacements: morphPlacements, materialIndex: materialIndex, lightIndex: lightIndex)
        diagnostics += animation.diagnostics
        return scene
    }

    private mutating func makeNode(_ source: ColladaNode, depth: Int, instancing: Set<String>, parent: Int) throws(AssetError) -> Node {
        let here = document.location(line: source.line, element: "node[@id=\(source.id ?? source.name)]")
        nodeCount += 1
        let order = origins.count
        origins.append(ColladaNodeOrigin(node: source, parent: parent))
        guard nodeCount <= limits.maxNodes else { throw AssetError(.limitExceeded("more than \(limits.maxNodes) nodes"), at: here) }
        guard depth <= limits.maxNodeDepth else {
            throw AssetError(.limitExceeded("nodes nested deeper than \(limits.maxNodeDepth) levels"), at: here)
        }
        var node = Node(name: source.name, typeName: "node", transform: ColladaTransforms.matrix(source.transforms))
        var children: [Node] = []
        for instance in source.instances {
            let instanceHere = document.location(line: instance.line, element: "node[@id=\(source.id ?? source.name)]")
            switch instance.kind {
            case .geometry, .controller:
                guard let built = mesh(for: instance, at: instanceHere) else { continue }
                if let mesh = built.mesh {
                    var placed = MeshInstance(
                        mesh: mesh,
                        material: built.symbol.flatMap { material(symbol: $0, instance: instance, names: built.texcoordNames, at: instanceHere) },
                        subsetMaterials: built.subsetSymbols.map { material(symbol: $0, instance: instance, names: built.texcoordNames, at: instanceHere) })
                    placed.blendShapeWeights = built.morphWeights
                    if !built.morphControllers.isEmpty {
                        morphPlacements.append(ColladaMorphPlacement(node: order, controllers: built.morphControllers, weights: built.morphWeights))
                    }
                    if let skin = built.skinController {
                        pendingSkins.append(ColladaPendingSkin(node: order, instance: node.meshInstances.count, controller: skin,
                                                               skeletonRoots: instance.skeletons, location: instanceHere))
                    }
                    node.meshInstances.append(placed)
                }
                for curves in built.curves {
                    node.curvesInstances.append(CurvesInstance(
                        curves: curves.index,
                        material: curves.symbol.flatMap { material(symbol: $0, instance: instance, names: built.texcoordNames, at: instanceHere) }))
                }
            case .node:
                guard let target = document.nodes[instance.url] else {
                    diagnostics.append(.warning("unresolved reference #\(instance.url) (instance_node); skipped", at: instanceHere))
                    continue
                }
                guard !instancing.contains(instance.url) else {
                    diagnostics.append(.warning("instance_node cycle through #\(instance.url) is cut", at: instanceHere))
                    continue
                }
                children.append(try makeNode(target, depth: depth + 1, instancing: instancing.union([instance.url]), parent: order))
            case .camera:
                guard let camera = document.cameras[instance.url] else {
                    diagnostics.append(.warning("unresolved reference #\(instance.url) (camera); skipped", at: instanceHere))
                    continue
                }
                node.camera = index(of: camera)
            case .light:
                guard let light = document.lights[instance.url] else {
                    diagnostics.append(.warning("unresolved reference #\(instance.url) (light); skipped", at: instanceHere))
                    continue
                }
                node.light = index(of: light)
            }
        }
        let ownID = source.id.map { [$0] } ?? []
        for child in source.children {
            children.append(try makeNode(child, depth: depth + 1, instancing: instancing.union(ownID), parent: order))
        }
        node.children = Self.uniquelyNamed(children)
        return node
    }

    /// Paths are made of names, so siblings with the same name get `_2`, `_3`, ... suffixes.
    static func uniquelyNamed(_ nodes: [Node]) -> [Node] {
        var seen: [String: Int] = [:]
        return nodes.map { node in
            var node = node
            let count = (seen[node.name] ?? 0) + 1
            seen[node.name] = count
            if count > 1 { node.name += "_\(count)" }
            return node
        }
    }

    private mutating func mesh(for instance: ColladaInstance, at here: SourceLocation) -> Built? {
        let key = (instance.kind == .controller ? "controller:" : "geometry:") + instance.url
        if let known = meshes[key] { return known }
        var geometryID = instance.url
        var bindShape: Matrix4x4?
        var skinController: String?
        // A morph whose source is another morph (morph on morph) adds its shapes to the inner one's.
        var morphChain: [ColladaController] = []
        if instance.kind == .controller {
            // Skins and morphs may chain; follow them to the geometry, a few links at most.
            var controllerID = instance.url
            for _ in 0..<8 {
                guard let controller = document.controllers[controllerID] else {
                    diagnostics.append(.warning("unresolved reference #\(controllerID) (controller); skipped", at: here))
                    meshes[key] = .some(nil)
                    return nil
                }
                if controller.isMorph {
                    if !morphChain.contains(where: { $0.id == controller.id }) { morphChain.insert(controller, at: 0) }
                } else if skinController == nil, !controller.jointNames.isEmpty {
                    skinController = controller.id
                }
                if let m = controller.bindShapeMatrix, bindShape == nil { bindShape = Matrix4x4(rowMajor: m) }
                geometryID = controller.source
                guard document.controllers[geometryID] != nil else { break }
                controllerID = geometryID
            }
        }
        guard let geometry = document.geometries[geometryID] else {
            diagnostics.append(.warning("unresolved reference #\(geometryID) (geometry); skipped", at: here))
            meshes[key] = .some(nil)
            return nil
        }
        let surface = meshBuilder.build(geometry, diagnostics: &diagnostics)
        var curves: [(index: Int, symbol: String?)] = []
        for var lines in curvesBuilder.build(geometry, diagnostics: &diagnostics) {
            if let bindShape { lines.curves.points = bindShape.transformedPoints(lines.curves.points) }
            scene.curves.append(lines.curves)
            curves.append((scene.curves.count - 1, lines.symbol))
        }
        guard surface != nil || !curves.isEmpty else {
            meshes[key] = .some(nil)
            return nil
        }
        var meshIndex: Int?
        var morphWeights: [Float] = []
        var morphControllers: [(id: String, slots: [Int?])] = []
        if var built = surface {
            for morph in morphChain {
                // Each usable target a shape, its weight and its channel kept; a target left out
                // takes its weight with it (already named by morphShapes).
                var slots: [Int?] = []
                for (k, shape) in morphShapes(morph, base: built.mesh.points, at: here).enumerated() {
                    guard let shape else { slots.append(nil); continue }
                    slots.append(built.mesh.blendShapes.count)
                    built.mesh.blendShapes.append(shape)
                    morphWeights.append(k < morph.morphWeights.count ? morph.morphWeights[k] : 0)
                }
                morphControllers.append((morph.id, slots))
            }
            // The skin's bind pose: points and normals under the bind shape matrix (offsets under
            // its linear part), so joints' inverse bind matrices apply to the points as stored.
            if let bindShape {
                built.mesh.transform(by: bindShape)
                for k in built.mesh.blendShapes.indices {
                    built.mesh.blendShapes[k].offsets = built.mesh.blendShapes[k].offsets.map {
                        let d = bindShape.transformDirection($0.double)
                        return SIMD3(Float(d.x), Float(d.y), Float(d.z))
                    }
                }
            }
            if let skinController, let weights = skinWeights(skinController, pointCount: built.mesh.points.count, at: here) {
                built.mesh.skinWeights = weights
            } else {
                skinController = nil
            }
            scene.meshes.append(built.mesh)
            meshIndex = scene.meshes.count - 1
        }
        var result = Built(mesh: meshIndex, curves: curves, symbol: surface?.symbol, subsetSymbols: surface?.subsetSymbols ?? [],
                           texcoordNames: surface?.texcoordNames ?? [:])
        result.skinController = skinController
        result.morphWeights = morphWeights
        if !morphWeights.isEmpty { result.morphControllers = morphControllers }
        meshes[key] = result
        return result
    }

    private mutating func material(symbol: String, instance: ColladaInstance, names: [Int: String], at here: SourceLocation) -> Int? {
        guard let binding = instance.materials[symbol] else {
            // Many exporters bind nothing and name the material itself in the primitive.
            if let direct = document.materials[symbol] { return index(of: direct, texcoordSets: [:], names: names) }
            diagnostics.append(.warning("material symbol '\(symbol)' is not bound by the instance; no material", at: here))
            return nil
        }
        guard let material = document.materials[binding.materialID] else {
            diagnostics.append(.warning("unresolved reference #\(binding.materialID) (material); no material", at: here))
            return nil
        }
        return index(of: material, texcoordSets: binding.texcoordSets, names: names)
    }

    private mutating func index(of material: ColladaMaterial, texcoordSets: [String: Int], names: [Int: String]) -> Int {
        if let known = materialIndex[material.id] { return known }
        var symbolToPrimvar: [String: String] = [:]
        for (symbol, set) in texcoordSets { symbolToPrimvar[symbol] = names[set] ?? "st" }
        if symbolToPrimvar.isEmpty, let first = names.sorted(by: { $0.key < $1.key }).first { symbolToPrimvar[""] = first.value }
        scene.materials.append(materialBuilder.build(material, texcoordSets: symbolToPrimvar))
        materialIndex[material.id] = scene.materials.count - 1
        return scene.materials.count - 1
    }

    private mutating func index(of camera: ColladaCamera) -> Int {
        if let known = cameraIndex[camera.id] { return known }
        var result = Camera(name: camera.name)
        if let ymag = camera.ymag {
            result.projection = .orthographic
            result.orthographicHeight = 2 * ymag
        } else if let yfov = camera.yfov {
            result.verticalFieldOfView = yfov
        } else if let xfov = camera.xfov, let aspect = camera.aspect, aspect > 0 {
            result.verticalFieldOfView = 2 * atan(tan(xfov * .pi / 360) / aspect) * 180 / .pi
        }
        if let near = camera.near { result.near = near }
        if let far = camera.far { result.far = far }
        scene.cameras.append(result)
        cameraIndex[camera.id] = scene.cameras.count - 1
        return scene.cameras.count - 1
    }

    private mutating func index(of light: ColladaLight) -> Int {
        if let known = lightIndex[light.id] { return known }
        scene.lights.append(Light(name: light.name, kind: light.kind, color: light.color))
        lightIndex[light.id] = scene.lights.count - 1
        return scene.lights.count - 1
    }
}

import AssetCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a composed stage into a `Scene`. Traverses what usd-core's default traversal does
/// (defined, active, non-abstract prims); Material, Shader, NodeGraph and GeomSubset prims feed
/// materials and subsets rather than becoming nodes. Prim types it does not understand stay as
/// plain nodes with one warning per type.
struct USDSceneBuilder {
    static let shadingTypes: Set<String> = ["Material", "Shader", "NodeGraph", "GeomSubset"]
    static let groupTypes: Set<String> = ["", "Xform", "Scope", "SkelRoot", "SkelAnimation", "BlendShape"]
    static let curveTypes: Set<String> = ["NurbsCurves", "HermiteCurves", "NurbsPatch", "TetMesh"]
    static let lightKinds: [String: Light.Kind] = [
        "DistantLight": .directional, "SphereLight": .point, "RectLight": .point, "DiskLight": .point,
        "CylinderLight": .point, "DomeLight": .ambient,
    ]

    let stage: USDComposedStage
    let resolver: USDAssetResolver
    let budget: ReadBudget
    let values: USDAttributeValues
    var diagnostics: [Diagnostic] = []
    var scene = Scene()
    var materialIndex: [String: Int] = [:]
    /// Time-sampled light inputs, gathered as the lights are read.
    var lightChannels: [LightAnimationChannel] = []
    private var warnedTypes: Set<String> = []
    private var primsByPath: [String: USDComposedPrim] = [:]
    private var skel: USDSkelBuilder

    init(stage: USDComposedStage, resolver: USDAssetResolver, budget: ReadBudget) {
        self.stage = stage
        self.resolver = resolver
        self.budget = budget
        values = USDAttributeValues(time: stage.rootLayer.startTimeCode)
        skel = USDSkelBuilder(values: values, budget: budget, timeCodesPerSecond: Self.timeCodesPerSecond(stage.rootLayer),
                              startTimeCode: stage.rootLayer.startTimeCode)
    }

    /// usd-core's rule: `timeCodesPerSecond`, else `framesPerSecond`, else 24.
    static func timeCodesPerSecond(_ layer: USDLayer) -> Double {
        for key in ["timeCodesPerSecond", "framesPerSecond"] {
            if let value = layer.metadata[key]?.doubleValue, value.isFinite, value > 0 { return value }
        }
        return 24
    }

    /// A material binding in force: the material, and whether it was bound `strongerThanDescendants`.
    private struct Binding {
        var material: Int
        var isStronger: Bool
    }

    mutating func build(format: AssetFormat) throws(AssetError) -> Scene {
        scene.metadata = metadata(format: format)
        var materialPrims: [USDComposedPrim] = []
        collect(stage.prims, into: &primsByPath, materials: &materialPrims)
        var materials = USDMaterialBuilder(primsByPath: primsByPath, values: values, resolver: resolver)
        var materialChannels: [MaterialAnimationChannel] = []
        let rate = Self.timeCodesPerSecond(stage.rootLayer)
        for prim in materialPrims {
            materialIndex[prim.path] = scene.materials.count
            materialChannels += materials.animatedInputs(of: prim, material: scene.materials.count, timeCodesPerSecond: rate)
            scene.materials.append(materials.build(prim))
        }
        scene.textures = materials.textures
        diagnostics += materials.diagnostics
        scene.root = Node(name: "", children: try makeNodes(stage.prims, inherited: nil, skelContext: .init()))
        try skel.finish(&scene, primsByPath: primsByPath, clipName: scene.metadata.defaultPrim ?? "stage")
        if !materialChannels.isEmpty || !lightChannels.isEmpty {
            // A stage has one timeline: its sampled material and light inputs play in the stage's one clip.
            if scene.animations.isEmpty { scene.animations = [AnimationClip(name: scene.metadata.defaultPrim ?? "stage")] }
            scene.animations[0].materialChannels = materialChannels
            scene.animations[0].lightChannels = lightChannels
        }
        splitClips()
        readMaterialVariants()
        applyPrimvarInputs(materials.primvarInputs)
        diagnostics += skel.diagnostics
        return scene
    }

    /// The clips an assetc-written stage laid end to end, cut apart again (`ClipTimeline`); the
    /// stage's own range then spans them all, so the clips' key spans give their lengths.
    private mutating func splitClips() {
        let layer = stage.rootLayer
        guard let clips = layer.metadata["customLayerData"]?.dictionaryValue("assetc"), scene.animations.count == 1,
              case .list(let nameValues)? = clips.dictionaryValue("clipNames"),
              let starts = clips.dictionaryValue("clipStarts")?.flatNumbers, let ends = clips.dictionaryValue("clipEnds")?.flatNumbers,
              let sourceStarts = clips.dictionaryValue("clipSourceStarts")?.flatNumbers else { return }
        let names = nameValues.compactMap(\.stringValue)
        guard names.count == starts.count, starts.count == ends.count, ends.count == sourceStarts.count,
              zip(starts, ends).allSatisfy({ $0.isFinite && $1.isFinite && $0 <= $1 }) else {
            diagnostics.append(.warning("customLayerData assetc clips do not agree in length; the stage is read as one clip",
                                        at: SourceLocation(file: layer.name)))
            return
        }
        let rate = Self.timeCodesPerSecond(layer)
        let timeline = ClipTimeline(spans: names.indices.map {
            ClipTimeline.Span(name: names[$0], start: starts[$0] / rate, end: ends[$0] / rate, sourceStart: sourceStarts[$0] / rate)
        })
        scene.animations = timeline.split(scene.animations[0])
        scene.metadata.startTimeCode = nil
        scene.metadata.endTimeCode = nil
    }

    private func isTraversed(_ prim: USDComposedPrim) -> Bool {
        prim.isDefined && prim.metadata["active"]?.boolValue != false
    }

    private func collect(_ prims: [USDComposedPrim], into byPath: inout [String: USDComposedPrim], materials: inout [USDComposedPrim],
                         ancestorsTraversed: Bool = true) {
        for prim in prims {
            byPath[prim.path] = prim
            let traversed = ancestorsTraversed && isTraversed(prim)
            if prim.typeName == "Material" && traversed { materials.append(prim) }
            // Materials under over, class or inactive prims are not part of the scene (a prim is
            // defined only if its ancestors are); their shaders may still be connection targets,
            // so paths are collected all the same.
            collect(prim.children, into: &byPath, materials: &materials, ancestorsTraversed: traversed)
        }
    }

    private mutating func metadata(format: AssetFormat) -> SceneMetadata {
        let layer = stage.rootLayer
        var metadata = SceneMetadata(upAxis: .y, metersPerUnit: 0.01, sourceFormat: format)
        let here = SourceLocation(file: layer.name)
        if let axis = layer.upAxis {
            if axis == "Y" || axis == "Z" { metadata.upAxis = UpAxis(rawValue: axis)! }
            else { diagnostics.append(.warning("upAxis '\(axis)' is not Y or Z; Y is used", at: here)) }
        }
        if let meters = layer.metersPerUnit {
            if meters.isFinite && meters > 0 { metadata.metersPerUnit = meters }
            else { diagnostics.append(.warning("metersPerUnit \(meters) is not a positive number; 0.01 is used", at: here)) }
        }
        metadata.defaultPrim = layer.defaultPrim
        metadata.startTimeCode = layer.startTimeCode
        metadata.endTimeCode = layer.metadata["endTimeCode"]?.doubleValue
        metadata.timeCodesPerSecond = Self.timeCodesPerSecond(layer)
        if let creator = layer.metadata["customLayerData"]?.dictionaryValue("creator")?.stringValue {
            metadata.generator = creator
        } else if let doc = (layer.metadata["comment"] ?? layer.metadata["doc"])?.stringValue,
                  let firstLine = doc.split(whereSeparator: \.isNewline).first {
            metadata.generator = String(firstLine.prefix(120))
        }
        return metadata
    }

    private mutating func makeNodes(_ prims: [USDComposedPrim], inherited: Binding?, skelContext: USDSkelBuilder.Inherited) throws(AssetError) -> [Node] {
        var nodes: [Node] = []
        nodes.reserveCapacity(prims.count)
        for prim in prims {
            if let node = try makeNode(prim, inherited: inherited, skelContext: skelContext) { nodes.append(node) }
        }
        return nodes
    }

    /// Charges what building a mesh from `prim` takes: each of its arrays is converted once per
    /// mesh, however many meshes share the array in the layer.
    private func chargeMesh(_ prim: USDComposedPrim) throws(AssetError) {
        var elements = 0
        for property in prim.properties.values {
            switch property.spec.defaultValue {
            case .numbers(let numbers, _): elements += numbers.count
            case .integers(let integers): elements += integers.count
            case .floats(let floats): elements += floats.count * floats.components
            default: break
            }
        }
        try budget.spend(work: elements, for: "mesh \(prim.path)", at: prim.location)
        try budget.spend(bytes: elements * MemoryLayout<Float>.stride, for: "mesh \(prim.path)", at: prim.location)
    }

    private mutating func makeNode(_ prim: USDComposedPrim, inherited: Binding?, skelContext parentSkelContext: USDSkelBuilder.Inherited) throws(AssetError) -> Node? {
        guard isTraversed(prim), !Self.shadingTypes.contains(prim.typeName) else { return nil }
        var node = Node(name: prim.name, typeName: prim.typeName)
        let skelContext = skel.inherited(for: prim, from: parentSkelContext)
        let xform = USDXformOps.evaluate(prim, values: values, diagnostics: &diagnostics)
        node.transform = xform.transform
        try skel.xformChannel(prim, nodePath: prim.path)
        node.resetsTransformStack = xform.resetsTransformStack
        if let purpose = values.string(prim.attribute("purpose")) {
            node.purpose = Purpose(rawValue: purpose)
            if !Purpose(rawValue: purpose).isKnown {
                // usd-core keeps the token and no purpose set includes it; so do we.
                diagnostics.append(.warning("unknown purpose '\(purpose)': its geometry is left out of bounds and images", at: prim.location))
            }
        }
        node.isInvisible = values.string(prim.attribute("visibility")) == "invisible"
        let binding = resolveBinding(prim, inherited: inherited)

        switch prim.typeName {
        case "Mesh":
            try chargeMesh(prim)
            let builder = USDMeshBuilder(values: values)
            if var built = builder.build(prim, diagnostics: &diagnostics) {
                try skel.bind(prim, mesh: &built.mesh, meshIndex: scene.meshes.count, context: skelContext, primsByPath: primsByPath)
                try skel.pointsChannel(prim, nodePath: prim.path, pointCount: built.mesh.points.count)
                let subsetMaterials = built.subsetPrims.map { subset in
                    resolveBinding(subset, inherited: nil).map(\.material)
                }
                node.meshInstances = [MeshInstance(mesh: scene.meshes.count, material: binding?.material, subsetMaterials: subsetMaterials)]
                scene.meshes.append(built.mesh)
            }
        case "Points":
            try chargeMesh(prim)
            if let built = USDMeshBuilder(values: values).build(prim, diagnostics: &diagnostics) {
                node.meshInstances = [MeshInstance(mesh: scene.meshes.count, material: binding?.material)]
                scene.meshes.append(built.mesh)
            }
        case let type where USDGprimTessellator.types.contains(type):
            if let mesh = USDGprimTessellator.tessellate(prim, values: values) {
                node.meshInstances = [MeshInstance(mesh: scene.meshes.count, material: binding?.material)]
                scene.meshes.append(mesh)
            }
        case "BasisCurves":
            if let curves = USDCurvesBuilder(values: values).build(prim, diagnostics: &diagnostics) {
                try budget.spend(work: curves.points.count, for: "curves \(prim.path)", at: prim.location)
                node.curvesInstances = [CurvesInstance(curves: scene.curves.count, material: binding?.material)]
                scene.curves.append(curves)
            }
        case USDSplatBuilder.typeName:
            try chargeMesh(prim)
            if let splats = USDSplatBuilder(values: values).build(prim, diagnostics: &diagnostics) {
                node.splatInstances = [SplatInstance(splats: scene.splats.count)]
                scene.splats.append(splats)
            }
        case "ParticleField":
            warnOnce(prim, "ParticleField prims other than ParticleField3DGaussianSplat have no kernel assetc draws; skipped")
        case "Skeleton":
            node.children = try skel.skeleton(prim, context: skelContext)
        case "Camera":
            node.camera = scene.cameras.count
            scene.cameras.append(camera(prim))
        case let type where Self.lightKinds[type] != nil:
            node.light = scene.lights.count
            lightChannels += animatedInputs(ofLight: prim, index: scene.lights.count)
            scene.lights.append(light(prim, kind: Self.lightKinds[type]!))
        case let type where Self.groupTypes.contains(type):
            break
        case "PointInstancer":
            warnOnce(prim, "PointInstancer prims are not expanded yet; their prototypes are not placed")
        case let type where Self.curveTypes.contains(type):
            warnOnce(prim, "\(type) prims have no surface assetc reads; skipped")
        default:
            warnOnce(prim, "prim type '\(prim.typeName)' is not understood; kept as a plain node")
        }
        node.children += try makeNodes(prim.children, inherited: binding, skelContext: skelContext)
        return node
    }

    private mutating func warnOnce(_ prim: USDComposedPrim, _ message: String) {
        guard !warnedTypes.contains(prim.typeName) else { return }
        warnedTypes.insert(prim.typeName)
        diagnostics.append(.warning(message, at: prim.location))
    }

    /// UsdShade's binding rules, for the all-purpose binding (the preview one when only it exists):
    /// the nearest binding wins unless an ancestor's is `strongerThanDescendants`.
    private mutating func resolveBinding(_ prim: USDComposedPrim, inherited: Binding?) -> Binding? {
        if let inherited, inherited.isStronger { return inherited }
        guard let relationship = prim.attribute("material:binding") ?? prim.attribute("material:binding:preview"),
              let target = relationship.targets.first else { return inherited }
        guard let material = materialIndex[target] else {
            diagnostics.append(.warning("material:binding targets <\(target)>, which is not a Material", at: prim.location))
            return inherited
        }
        let strength = relationship.metadata["bindMaterialAs"]?.stringValue
        return Binding(material: material, isStronger: strength == "strongerThanDescendants")
    }

    private func camera(_ prim: USDComposedPrim) -> Camera {
        var camera = Camera(name: prim.name)
        // UsdGeomCamera fallbacks: focalLength 50, verticalAperture 15.2908 (35 mm film, in mm).
        let focal = values.double(prim.attribute("focalLength")) ?? 50
        let aperture = values.double(prim.attribute("verticalAperture")) ?? 15.2908
        if focal > 0 && aperture > 0 { camera.verticalFieldOfView = 2 * atan(aperture / (2 * focal)) * 180 / .pi }
        if values.string(prim.attribute("projection")) == "orthographic" {
            camera.projection = .orthographic
            // Orthographic apertures are in tenths of a scene unit.
            camera.orthographicHeight = aperture / 10
        }
        if let range = values.numbers(prim.attribute("clippingRange")), range.count == 2 {
            camera.near = range[0]
            camera.far = range[1]
        }
        return camera
    }
}

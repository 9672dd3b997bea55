import AssetCore
import Foundation

/// Turns the object graph into a Scene: the model hierarchy (Model -> Model connections under the
/// root, cycles refused), each model's transform stack, geometry with its materials as subsets,
/// skins, blend shapes, cameras, lights and animation stacks. GlobalSettings give the up axis,
/// the units (UnitScaleFactor is centimetres per unit) and the frame rate.
struct FBXSceneBuilder {
    let objects: FBXObjects
    let document: FBXDocument
    let file: String
    let options: ReadOptions
    let budget: ReadBudget
    var scene = Scene()
    var diagnostics: [Diagnostic] = []
    var materials: FBXMaterialBuilder
    /// Model id -> its node path, and the transform stack it was placed by.
    var pathOf: [String: String] = [:]
    var transformOf: [String: FBXTransform] = [:]
    /// Geometry id + geometric transform -> scene mesh, so instanced geometry is read once.
    private var meshOf: [String: (mesh: Int, built: FBXMeshBuilder.Built)] = [:]
    /// Material id + the geometry's UV sets -> scene material.
    private var materialOf: [String: Int] = [:]
    /// Mesh index -> the blend shape channel ids its shapes came from, in order.
    var channelsOfMesh: [Int: [String]] = [:]
    /// Mesh node path -> the mesh it shows, for blend-shape weight channels.
    var meshNodes: [(path: String, mesh: Int)] = []
    /// Skeletons waiting for their joint paths, and each skin's geometry bind transform, by skin id.
    var pending: [String: PendingSkeleton] = [:]
    var bindOf: [String: Matrix4x4] = [:]

    init(document: FBXDocument, objects: FBXObjects, file: String, options: ReadOptions, budget: ReadBudget) {
        self.document = document
        self.objects = objects
        self.file = file
        self.options = options
        self.budget = budget
        materials = FBXMaterialBuilder(objects: objects, file: file, options: options)
    }

    mutating func build() throws(AssetError) -> Scene {
        let axes = FBXAxes(objects)
        scene.metadata = SceneMetadata(upAxis: axes.upAxis, metersPerUnit: axes.metersPerUnit, sourceFormat: .fbx,
                                       generator: document.root.child("FBXHeaderExtension")?.child("Creator").flatMap { $0.values.first?.string }
                                           ?? document.root.child("Creator")?.values.first?.string)
        if let warning = axes.warning { diagnostics.append(.warning(warning, at: document.root.location)) }
        let models = objects.order.compactMap { objects.objects[$0] }.filter { $0.kind == "Model" }
        if let takes = document.root.child("Takes")?.children("Take"), takes.contains(where: { !$0.children.filter { $0.name == "Model" }.isEmpty }) {
            // 6.1 keeps animation in Takes, a layout of its own that assetc does not read.
            diagnostics.append(.warning("the FBX \(document.version / 1000).\(document.version / 100 % 10) animation is not read (takes: \(takes.count)); "
                                        + "re-export as FBX 7 to keep it", at: document.root.location))
        }
        var unread: [String: Int] = [:]
        for id in objects.order where !Self.kindsRead.contains(objects.objects[id]?.kind ?? "") { unread[objects.objects[id]?.kind ?? "", default: 0] += 1 }
        if !unread.isEmpty {
            diagnostics.append(.warning("objects assetc does not read: " + unread.keys.sorted().map { "\($0) (\(unread[$0]!))" }.joined(separator: ", "),
                                        at: document.root.location))
        }
        try refuseCycles(models)
        let roots = models.filter { model in objects.parents(of: model.id, kind: "Model").isEmpty }
        var names = Set<String>()
        for model in roots {
            var node = try self.node(model, parentPath: "", siblings: &names)
            if !axes.correction.isIdentity { node.transform = axes.correction * node.transform }
            scene.root.children.append(node)
        }
        if models.isEmpty {
            diagnostics.append(.warning("the file has no models: the scene is empty", at: document.root.location))
        }
        try buildSkins()
        scene.materials = materialList
        scene.textures = materials.textures
        diagnostics += materials.diagnostics
        var animation = FBXAnimationBuilder(builder: self, correction: axes.correction)
        scene.animations = try animation.clips()
        diagnostics += animation.diagnostics
        if let rate = axes.framesPerSecond { scene.metadata.timeCodesPerSecond = rate }
        return scene
    }

    private var materialList: [Material] = []

    /// The object kinds the builder reads; others (constraints, selection sets, shader graphs) are
    /// counted in one warning.
    static let kindsRead: Set<String> = ["Model", "Geometry", "Material", "Texture", "LayeredTexture", "Video", "Deformer", "NodeAttribute",
                                         "Pose", "AnimationStack", "AnimationLayer", "AnimationCurveNode", "AnimationCurve", "GlobalSettings"]

    /// A model that is its own ancestor would recurse without end: refused, naming it.
    private func refuseCycles(_ models: [FBXObject]) throws(AssetError) {
        for model in models {
            var seen: Set<String> = [model.id]
            var current = model
            while let parent = objects.parents(of: current.id, kind: "Model").first {
                guard seen.insert(parent.id).inserted else {
                    throw AssetError(.malformed("the connections make a cycle: model \(model.id) (\(model.name)) is its own ancestor"), at: model.node.location)
                }
                current = parent
            }
        }
    }

    private mutating func node(_ model: FBXObject, parentPath: String, parentWorld: Matrix4x4 = .identity,
                               siblings: inout Set<String>) throws(AssetError) -> Node {
        try budget.spend(work: 1, for: "FBX models", at: model.node.location)
        var name = model.name.isEmpty ? "Model" : model.name
        if siblings.contains(name) {
            var k = 1
            while siblings.contains("\(name)_\(k)") { k += 1 }
            name = "\(name)_\(k)"
        }
        siblings.insert(name)
        let path = parentPath + "/" + name
        var stack = FBXTransform(model)
        if stack.isRotationOrderUnknown {
            diagnostics.append(.warning("model \(model.name): RotationOrder is not one of FBX's seven; XYZ is used", at: model.node.location))
        }
        if stack.inheritType == 2 && !parentPath.isEmpty {
            // Rrs (Maya's segment scale compensation): the parent's scale does not reach the child's
            // rotation and size. assetc's nodes multiply plainly, so the child undoes it (at rest).
            let scale = TransformComponents(parentWorld).scale
            if scale.x != 0 && scale.y != 0 && scale.z != 0 { stack.compensation = .scale(SIMD3(1 / scale.x, 1 / scale.y, 1 / scale.z)) }
        } else if stack.inheritType == 0 {
            diagnostics.append(.warning("model \(model.name) has InheritType 0 (RrSs); its parent's scale is applied as an ordinary product",
                                        at: model.node.location))
        }
        pathOf[model.id] = path
        transformOf[model.id] = stack
        var node = Node(name: name, typeName: model.subclass, transform: stack.matrix())
        node.isJoint = model.subclass == "LimbNode"
        for geometry in objects.children(of: model.id, kind: "Geometry") {
            guard geometry.subclass == "Mesh" || geometry.subclass.isEmpty else {
                diagnostics.append(.warning("model \(model.name): its \(geometry.subclass) geometry \(geometry.name.isEmpty ? geometry.id : geometry.name) is not read (assetc reads FBX meshes)",
                                            at: geometry.node.location))
                continue
            }
            if let instance = try meshInstance(geometry, model: model, geometric: stack.geometric, world: parentWorld * node.transform) {
                node.meshInstances.append(instance)
                meshNodes.append((path, instance.mesh))
            }
        }
        if document.version < 7000, model.node.child("Vertices") != nil, model.subclass == "Mesh" {
            // 6.1 keeps the geometry inside the model record.
            let geometry = FBXObject(id: model.id + "#geometry", kind: "Geometry", name: model.name, subclass: "Mesh", node: model.node, properties: [:])
            if let instance = try meshInstance(geometry, model: model, geometric: stack.geometric, world: parentWorld * node.transform) {
                node.meshInstances.append(instance)
                meshNodes.append((path, instance.mesh))
            }
        }
        for attribute in objects.children(of: model.id, kind: "NodeAttribute") { attach(attribute, to: &node) }
        var childNames = Set<String>()
        for child in objects.children(of: model.id, kind: "Model") {
            node.children.append(try self.node(child, parentPath: path, parentWorld: parentWorld * node.transform, siblings: &childNames))
        }
        return node
    }

    private mutating func meshInstance(_ geometry: FBXObject, model: FBXObject, geometric: Matrix4x4, world: Matrix4x4) throws(AssetError) -> MeshInstance? {
        let key = geometry.id + (geometric.isIdentity ? "" : ":\(geometric.columnMajorElements)")
        let mesh: Int, built: FBXMeshBuilder.Built
        var isNew = false
        if let known = meshOf[key] {
            (mesh, built) = known
        } else {
            isNew = true
            var made = try FBXMeshBuilder(file: file, budget: budget).build(geometry, name: geometry.name.isEmpty ? model.name : geometry.name,
                                                                            diagnostics: &diagnostics)
            let (shapes, channels) = try blendShapes(of: geometry, pointCount: made.mesh.points.count)
            made.mesh.blendShapes = shapes.map { Self.transformed($0, by: geometric) }
            if !geometric.isIdentity { made.mesh.transform(by: geometric) }
            made.mesh.skinWeights = try skinWeights(of: geometry, pointCount: made.mesh.points.count)
            scene.meshes.append(made.mesh)
            (mesh, built) = (scene.meshes.count - 1, made)
            if !channels.isEmpty { channelsOfMesh[mesh] = channels }
            meshOf[key] = (mesh, built)
        }
        let uvSets = Dictionary(built.uvSets.map { ($0.fbxName, $0.primvar) }, uniquingKeysWith: { first, _ in first })
        let slots = objects.children(of: model.id, kind: "Material").map { material(for: $0, uvSets: uvSets) }
        var instance = MeshInstance(mesh: mesh, material: slots.first)
        if scene.meshes[mesh].skinWeights != nil, var skin = skinBinding(of: geometry) {
            // FBX importers place a skinned mesh by its clusters (TransformLink · Transform), not by
            // its model, which exporters often leave elsewhere (Blender: turned and scaled by 100).
            // The points move to where the bind puts them under the model, and the binding takes
            // the model's world instead: skinning is unchanged, and the mesh at rest stands where
            // Blender, ufbx and the FBX SDK stand it.
            let move = (world.inverse ?? .identity) * skin.geomBindTransform
            if isNew, !move.isApproximatelyEqual(to: .identity, tolerance: 1e-9) {
                scene.meshes[mesh].transform(by: move)
                scene.meshes[mesh].blendShapes = scene.meshes[mesh].blendShapes.map { Self.transformed($0, by: move) }
                skin.geomBindTransform = world
            }
            instance.skin = skin
        }
        if let perPolygon = built.polygonMaterials {
            var faces: [Int32: [Int32]] = [:]
            for (f, slot) in perPolygon.enumerated() { faces[slot, default: []].append(Int32(f)) }
            if scene.meshes[mesh].subsets.isEmpty {
                scene.meshes[mesh].subsets = faces.keys.sorted().map { GeomSubset(name: "material\($0)", faceIndices: faces[$0]!) }
            }
            instance.subsetMaterials = scene.meshes[mesh].subsets.map { subset in
                Int(subset.name.dropFirst("material".count)).flatMap { $0 >= 0 && $0 < slots.count ? slots[$0] : nil }
            }
            if faces.keys.contains(where: { $0 < 0 || Int($0) >= slots.count }) {
                diagnostics.append(.warning("model \(model.name): polygons use material slots past the \(slots.count) connected", at: model.node.location))
            }
        }
        if let channels = channelsOfMesh[mesh] {
            instance.blendShapeWeights = channels.map { Float((objects.objects[$0]?.number("DeformPercent") ?? 0) / 100) }
        }
        return instance
    }

    private mutating func material(for object: FBXObject, uvSets: [String: String]) -> Int {
        // The UV sets matter only to a material's textures, which name their set.
        let textured = !objects.propertyChildren(of: object.id).isEmpty
        let key = object.id + (textured ? ":" + uvSets.keys.sorted().joined(separator: ",") : "")
        if let known = materialOf[key] { return known }
        materialList.append(materials.material(object, uvSets: uvSets))
        materialOf[key] = materialList.count - 1
        return materialList.count - 1
    }

    /// NodeAttribute Camera / Light on a model. FBX cameras look down +X and lights shine down -Y
    /// of their model, where assetc's look down -Z: each hangs on a child node turned to match
    /// (-90 degrees about Y, and about X), as Blender's importer turns them.
    private mutating func attach(_ attribute: FBXObject, to node: inout Node) {
        let turn: Matrix4x4 = attribute.subclass == "Camera" ? .rotation(axis: SIMD3(0, 1, 0), degrees: -90) : .rotation(axis: SIMD3(1, 0, 0), degrees: -90)
        var holder = Node(name: node.name + (attribute.subclass == "Camera" ? "_camera" : "_light"), typeName: attribute.subclass, transform: turn)
        defer { if holder.camera != nil || holder.light != nil { node.children.append(holder) } }
        switch attribute.subclass {
        case "Camera":
            var camera = Camera(name: node.name)
            if (attribute.number("CameraProjectionType") ?? 0) == 1 {
                camera.projection = .orthographic
                camera.orthographicHeight = attribute.number("OrthoZoom").map { $0 * 2 } ?? 1
            }
            if let fov = attribute.number("FieldOfViewY") ?? attribute.number("FieldOfView") { camera.verticalFieldOfView = fov }
            camera.near = attribute.number("NearPlane") ?? camera.near
            camera.far = attribute.number("FarPlane") ?? camera.far
            scene.cameras.append(camera)
            holder.camera = scene.cameras.count - 1
        case "Light":
            let kinds: [Light.Kind] = [.point, .directional, .spot]
            let type = attribute.integer("LightType") ?? 0
            let color = attribute.vector("Color").map { SIMD3(Float($0.x), Float($0.y), Float($0.z)) } ?? .one
            scene.lights.append(Light(name: node.name, kind: type >= 0 && type < kinds.count ? kinds[type] : .point, color: color,
                                      intensity: Float((attribute.number("Intensity") ?? 100) / 100)))
            holder.light = scene.lights.count - 1
        default:
            break
        }
    }
}

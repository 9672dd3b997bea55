import AssetCore
import Foundation

/// Builds an FBX 7.4 object graph from the scene model: one `Model` per node (joints as
/// `LimbNode`s with their `NodeAttribute`), one `Geometry` per mesh shared by its instances, the
/// materials, textures, deformers and animation stacks, and the `Connections` that tie them
/// (`OO` object to object, `OP` object to a named property). Ids are counted from a fixed start,
/// so the same scene always writes the same file.
struct FBXSceneEncoder {
    let scene: Scene
    let context: WriteContext
    let embedsTextures: Bool
    var objects: [FBXRecord] = []
    var connections: [FBXRecord] = []
    /// Objects by their `Definitions` type name, in first-written order.
    var counts: [(type: String, count: Int)] = []
    var diagnostics: [Diagnostic] = []
    var textureFiles: [OutputFile] = []
    private var nextID: Int64 = 100_000

    /// Node path -> its model, and its local transform at rest (what animation curves default to).
    var modelOf: [String: Int64] = [:]
    var localOf: [String: Matrix4x4] = [:]
    /// Blend-shape channels already keyed in the clip being written.
    var animatedChannels: Set<Int64> = []
    /// Mesh (and bind, for skinned ones) -> its geometry id; per mesh its blend-shape channel ids
    /// in `Mesh.blendShapes` order.
    var geometryOf: [String: Int64] = [:]
    var blendChannelsOf: [Int: [Int64]] = [:]
    /// Scene material -> its id; the grey default for slots nothing binds.
    var materialOf: [Int: Int64] = [:]
    var defaultMaterial: Int64?
    /// Texture objects by scene texture, UV set and transform; file names already given.
    var textureOf: [String: Int64] = [:]
    var usedTextureNames: Set<String> = []
    /// Every mesh model written: the node it stands for, its own model, its geometry and its instance.
    var meshModels: [(path: String, model: Int64, geometry: Int64, instance: MeshInstance)] = []
    /// Nodes whose shear was baked into their meshes and children, named for the warning.
    var shearedNodes: [String] = []
    /// Blend shapes whose in-between shapes were left out, named for the warning.
    var droppedInbetweens: [String] = []
    /// Joint models and their worlds at rest, for the bind pose.
    var jointModels: [(model: Int64, world: Matrix4x4)] = []

    /// Nodes that are joints of a skeleton: `LimbNode`s, whatever the source called them.
    let jointPaths: Set<String>

    init(scene: Scene, context: WriteContext, embedsTextures: Bool) {
        jointPaths = Set(scene.skeletons.flatMap(\.jointPaths))
        self.scene = scene
        self.context = context
        self.embedsTextures = embedsTextures
    }

    mutating func newID() -> Int64 {
        nextID += 1
        return nextID
    }

    mutating func add(_ record: FBXRecord, type: String) {
        objects.append(record)
        if let k = counts.firstIndex(where: { $0.type == type }) { counts[k].count += 1 } else { counts.append((type, 1)) }
    }

    mutating func connect(_ child: Int64, to parent: Int64, property: String? = nil) {
        if let property {
            connections.append(FBXRecord("C", .string("OP"), .int64(child), .int64(parent), .string(property)))
        } else {
            connections.append(FBXRecord("C", .string("OO"), .int64(child), .int64(parent)))
        }
    }

    /// The whole file's records, header to takes.
    mutating func encode() -> [FBXRecord] {
        for child in scene.root.children { model(child, parentPath: "", parent: 0, parentWorld: .identity) }
        if !shearedNodes.isEmpty {
            diagnostics.append(.warning("\(shearedNodes.count) node(s) have a shear, which an FBX model cannot hold: written as translation, rotation "
                                        + "and scale with the rest baked into their meshes and children (\(shearedNodes.prefix(3).joined(separator: ", ")))"))
        }
        writeSkins()
        if !droppedInbetweens.isEmpty {
            diagnostics.append(.warning("FBX output leaves out in-between shapes, which Blender's importer refuses: \(droppedInbetweens.joined(separator: ", "))"))
        }
        let stacks = writeAnimation()
        let rate = scene.metadata.timeCodesPerSecond ?? 30
        let span = stacks.isEmpty ? (Int64(0), FBXTime.ticks(1)) : (stacks.map(\.start).min()!, stacks.map(\.stop).max()!)
        let header = FBXDocumentHeader(unitScaleFactor: scene.metadata.metersPerUnit * 100, creator: "assetc FBX writer",
                                       frameRate: rate, timeSpan: span, activeStack: stacks.first?.name ?? "")
        return header.leading + [FBXDocumentHeader.definitions(counts), FBXRecord("Objects", children: objects),
                                 FBXRecord("Connections", children: connections), FBXDocumentHeader.takes(stacks)]
    }

    /// A node as a model. A node with one unskinned mesh is itself the `Mesh` model; a node with
    /// several meshes, or a skinned one, is a `Null` with a model per mesh under it (a skinned
    /// mesh's model goes to the root instead, its points at their bind); a camera or light hangs on
    /// a child turned to FBX's conventions. `prefix` is what a sheared parent could not hold: it
    /// comes before this node's own transform.
    private mutating func model(_ node: Node, parentPath: String, parent: Int64, parentWorld: Matrix4x4, prefix: Matrix4x4 = .identity) {
        let path = parentPath + "/" + node.name
        let local = prefix * node.transform
        // A model holds translation, rotation and scale only: a shear (a skew, or a non-uniform
        // scale under a rotation) stays in the residual, baked into the node's meshes and passed
        // on to its children, so every world position is kept.
        let parts = TransformComponents(local)
        let residual = (parts.matrix.inverse ?? .identity) * local
        let sheared = !residual.isApproximatelyEqual(to: .identity, tolerance: 1e-9)
        if sheared { shearedNodes.append(path) }
        let world = parentWorld * parts.matrix
        let meshes = node.meshInstances.filter { !scene.meshes[$0.mesh].isPointCloud }
        let isJoint = node.isJoint || jointPaths.contains(path)
        let ownsMesh = !isJoint && meshes.count == 1 && meshes[0].skin == nil
        let id = newID()
        modelOf[path] = id
        localOf[path] = parts.matrix
        let subclass = isJoint ? "LimbNode" : ownsMesh ? "Mesh" : "Null"
        add(modelRecord(id, name: node.name, subclass: subclass, transform: parts.matrix), type: "Model")
        connect(id, to: parent)
        if isJoint {
            jointModels.append((id, world))
            let attribute = newID()
            add(FBXRecord("NodeAttribute", .int64(attribute), FBXRecord.objectName(node.name, "NodeAttribute"), .string("LimbNode"),
                          children: [FBXRecord("TypeFlags", .string("Skeleton"))]), type: "NodeAttribute")
            connect(attribute, to: id)
        }
        if ownsMesh {
            attachMesh(meshes[0], to: id, path: path, residual: sheared ? residual : .identity)
        } else {
            for (k, instance) in meshes.enumerated() {
                let mesh = scene.meshes[instance.mesh]
                let child = newID()
                let name = meshes.count == 1 ? mesh.name : "\(mesh.name)_\(k)"
                // A skinned mesh's model stands at the root with its points at their bind in the
                // world (the joints place it, not its node, whose transform may hold a shear no
                // model can): FBX importers place skinned meshes by model and clusters alike then.
                let skinned = instance.skin != nil
                add(modelRecord(child, name: name.isEmpty ? "\(node.name)_mesh" : name, subclass: "Mesh", transform: .identity), type: "Model")
                connect(child, to: skinned ? 0 : id)
                attachMesh(instance, to: child, path: path, residual: sheared ? residual : .identity)
            }
        }
        if let camera = node.camera { attachCamera(camera, to: id, name: node.name) }
        if let light = node.light { attachLight(light, to: id, name: node.name) }
        for child in node.children { model(child, parentPath: path, parent: id, parentWorld: world, prefix: sheared ? residual : .identity) }
    }

    /// A model record; `transform` is translation, rotation and scale (callers take any shear out).
    mutating func modelRecord(_ id: Int64, name: String, subclass: String, transform: Matrix4x4) -> FBXRecord {
        let parts = TransformComponents(transform)
        var p = FBXProperties70()
        p.enumeration("InheritType", 1)
        p.int("DefaultAttributeIndex", 0)
        p.local("Lcl Translation", parts.translation)
        p.local("Lcl Rotation", FBXEuler.degrees(parts.rotation))
        p.local("Lcl Scaling", parts.scale)
        return FBXRecord("Model", .int64(id), FBXRecord.objectName(name, "Model"), .string(subclass), children: [
            FBXRecord("Version", .int32(232)), p.record, FBXRecord("MultiLayer", .int32(0)), FBXRecord("MultiTake", .int32(0)),
            FBXRecord("Shading", .bool(true)), FBXRecord("Culling", .string("CullingOff")),
        ])
    }

    /// The mesh's geometry (written once, shared by later instances) and the model's materials, in
    /// the slot order the geometry's per-polygon material layer counts.
    private mutating func attachMesh(_ instance: MeshInstance, to model: Int64, path: String, residual: Matrix4x4) {
        // A skinned mesh's geometry holds its points at their bind (geometry bind applied), and a
        // sheared node's mesh its points under the shear, so each is its own geometry per such
        // transform; an unskinned mesh's is shared by every plain instance.
        let bind = instance.skin?.geomBindTransform ?? residual
        let key = bind.isIdentity ? "\(instance.mesh)" : "\(instance.mesh) \(bind.columnMajorElements)"
        let geometry: Int64
        if let known = geometryOf[key] {
            geometry = known
        } else {
            geometry = writeGeometry(instance.mesh, blendShapeWeights: instance.blendShapeWeights, bind: bind)
            geometryOf[key] = geometry
        }
        connect(geometry, to: model)
        // A mesh that binds no material anywhere gets none, as its source has none.
        let bound = materialSlots(of: scene.meshes[instance.mesh]).map { slot in slot.map { instance.material(forSubset: $0, variant: -1) } ?? instance.material }
        if bound.contains(where: { $0 != nil }) {
            for slot in bound { connect(material(slot), to: model) }
        }
        meshModels.append((path, model, geometry, instance))
    }

    /// FBX cameras look down their +X; the camera's model is turned 90 degrees about Y so that +X
    /// points down the node's -Z, where assetc's cameras look.
    private mutating func attachCamera(_ index: Int, to parent: Int64, name: String) {
        let camera = scene.cameras[index]
        let model = newID(), attribute = newID()
        add(modelRecord(model, name: name + "_camera", subclass: "Camera", transform: .rotation(axis: SIMD3(0, 1, 0), degrees: 90)),
            type: "Model")
        connect(model, to: parent)
        var p = FBXProperties70()
        let filmHeight = 0.612  // inches, as the SDK's default film back; the focal length follows the field of view
        let aspect = 1.5  // the model keeps no aspect ratio; the SDK's default film back has this one
        p.enumeration("CameraProjectionType", camera.projection == .orthographic ? 1 : 0)
        p.enumeration("ApertureMode", 2)  // vertical field of view
        p.double("FilmHeight", filmHeight)
        p.double("FilmWidth", filmHeight * aspect)
        p.double("FilmAspectRatio", aspect)
        p.number("FieldOfView", camera.verticalFieldOfView)
        p.number("FieldOfViewY", camera.verticalFieldOfView)
        p.number("FocalLength", (filmHeight * 25.4 / 2) / tan(camera.verticalFieldOfView * .pi / 360))
        p.double("NearPlane", camera.near)
        p.double("FarPlane", camera.far)
        if camera.projection == .orthographic { p.double("OrthoZoom", camera.orthographicHeight / 2) }
        add(FBXRecord("NodeAttribute", .int64(attribute), FBXRecord.objectName(name, "NodeAttribute"), .string("Camera"), children: [
            p.record, FBXRecord("TypeFlags", .string("Camera")), FBXRecord("GeometryVersion", .int32(124)),
        ]), type: "NodeAttribute")
        connect(attribute, to: model)
    }

    /// FBX lights shine down their -Y; the light's model is turned 90 degrees about X so that -Y
    /// points down the node's -Z. Intensity is FBX's percentage (100 for 1).
    private mutating func attachLight(_ index: Int, to parent: Int64, name: String) {
        let light = scene.lights[index]
        let types: [Light.Kind: Int] = [.point: 0, .directional: 1, .spot: 2]
        guard let type = types[light.kind] else {
            diagnostics.append(.warning("light \(light.name): FBX has no \(light.kind) light; left out"))
            return
        }
        let model = newID(), attribute = newID()
        add(modelRecord(model, name: name + "_light", subclass: "Light", transform: .rotation(axis: SIMD3(1, 0, 0), degrees: 90)),
            type: "Model")
        connect(model, to: parent)
        var p = FBXProperties70()
        p.enumeration("LightType", type)
        p.colorRGB("Color", SIMD3(Double(light.color.x), Double(light.color.y), Double(light.color.z)))
        p.number("Intensity", Double(light.intensity) * 100)
        p.bool("CastLight", true)
        add(FBXRecord("NodeAttribute", .int64(attribute), FBXRecord.objectName(name, "NodeAttribute"), .string("Light"), children: [
            p.record, FBXRecord("TypeFlags", .string("Light")), FBXRecord("GeometryVersion", .int32(124)),
        ]), type: "NodeAttribute")
        connect(attribute, to: model)
    }
}

/// FBX time: 46,186,158,000 ticks per second.
enum FBXTime {
    static let perSecond = 46_186_158_000.0
    static func ticks(_ seconds: Double) -> Int64 { Int64((seconds * perSecond).rounded()) }
}

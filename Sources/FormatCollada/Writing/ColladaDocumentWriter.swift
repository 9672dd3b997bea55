import AssetCore

/// Builds the Collada text for `ColladaWriter`.
struct ColladaDocumentWriter {
    let scene: Scene
    let context: WriteContext
    var diagnostics: [Diagnostic] = []
    var textureFiles: [OutputFile] = []
    private var nodeCounter = 0
    var imageIDs: [Int: String] = [:]
    /// Scene path -> the `<node>` id (and sid) written for it, for joints and channel targets.
    var nodeIDs: [String: String] = [:]
    /// Every skeleton's joints, written as `type="JOINT"`.
    let jointPaths: Set<String>
    /// Per mesh, the material symbols some instance binds.
    var boundSymbolsByMesh: [Int: Set<String>] = [:]
    /// Nodes some channel moves: their transform is one `<matrix sid="transform">` the channels target.
    let animatedPaths: Set<String>
    /// Controllers the instances use, by id, in the order first used: (mesh, skeleton or nil).
    var controllerUses: [(id: String, mesh: Int, skeleton: Int?, geomBind: Matrix4x4)] = []

    init(scene: Scene, context: WriteContext) {
        self.scene = scene
        self.context = context
        jointPaths = Set(scene.skeletons.flatMap(\.jointPaths))
        // Ids follow the depth-first order the nodes are written in, so they are known up front.
        for (i, path) in FlatNodeTree(scene.root).paths.enumerated() { nodeIDs[path] = "node\(i + 1)" }
        var animated = Set<String>()
        for clip in scene.animations {
            for channel in clip.channels {
                guard channel.property.isTransform else { continue }
                animated.insert(channel.nodePath)
            }
        }
        animatedPaths = animated
        for placed in scene.placedMeshes(includingUncounted: true) where scene.meshes.indices.contains(placed.instance.mesh) {
            for group in Self.materialGroups(scene.meshes[placed.instance.mesh], instance: placed.instance) where group.material != nil {
                boundSymbolsByMesh[placed.instance.mesh, default: []].insert(group.symbol)
            }
        }
    }

    mutating func write() -> String {
        let axis: String
        switch scene.metadata.upAxis {
        case .x: axis = "X_UP"
        case .y: axis = "Y_UP"
        case .z: axis = "Z_UP"
        }
        var x = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        x += "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
        x += "  <asset>\n    <contributor><authoring_tool>assetc</authoring_tool></contributor>\n"
        x += "    <created>2000-01-01T00:00:00Z</created>\n    <modified>2000-01-01T00:00:00Z</modified>\n"
        x += "    <unit name=\"unit\" meter=\"\(NumberText.double(scene.metadata.metersPerUnit))\"/>\n    <up_axis>\(axis)</up_axis>\n  </asset>\n"
        let effects = scene.materials.indices.map { effect($0) }
        if !imageIDs.isEmpty {
            x += "  <library_images>\n"
            for (index, id) in imageIDs.sorted(by: { $0.key < $1.key }) {
                x += "    <image id=\"\(id)\" name=\"\(MarkupText.escape(scene.textures[index].name))\"><init_from>\(MarkupText.escape(texturePath(index)))</init_from></image>\n"
            }
            x += "  </library_images>\n"
        }
        if !scene.materials.isEmpty {
            x += "  <library_effects>\n" + effects.joined() + "  </library_effects>\n  <library_materials>\n"
            for (i, material) in scene.materials.enumerated() {
                x += "    <material id=\"material\(i)\" name=\"\(MarkupText.escape(material.name))\"><instance_effect url=\"#effect\(i)\"/></material>\n"
            }
            x += "  </library_materials>\n"
        }
        if !scene.meshes.isEmpty || !scene.curves.isEmpty {
            x += "  <library_geometries>\n"
            for i in scene.meshes.indices { x += geometry(i) }
            for i in scene.curves.indices { x += curvesGeometry(i) }
            x += "  </library_geometries>\n"
        }
        // Collada's primitives are faces and lines: a point cloud's geometry holds its points alone,
        // which readers place as nothing.
        if let warning = scene.pointCloudsDropped(format: "Collada") { diagnostics.append(warning) }
        if !scene.cameras.isEmpty || !scene.lights.isEmpty {
            let channels = scene.animations.reduce(0) { $0 + $1.lightChannels.count }
            let animated = channels == 0 ? "" : ", with \(channels == 1 ? "1 light animation channel" : "\(channels) light animation channels")"
            diagnostics.append(.warning("Collada output: cameras and lights are not written yet: \(scene.cameras.count + scene.lights.count) dropped\(animated)"))
        }
        // Nodes first: controllers and animations name the ids the nodes get.
        var nodes = ""
        for node in scene.root.children { nodes += self.node(node, path: "/" + node.name, indent: 6) }
        x += morphTargetGeometries()
        x += controllersLibrary()
        x += animationLibraries()
        x += "  <library_visual_scenes>\n    <visual_scene id=\"scene\" name=\"\(MarkupText.escape(context.outputStem))\">\n"
        x += nodes
        x += "    </visual_scene>\n  </library_visual_scenes>\n  <scene><instance_visual_scene url=\"#scene\"/></scene>\n</COLLADA>\n"
        return x
    }

    // MARK: Nodes

    private mutating func node(_ node: Node, path: String, indent: Int) -> String {
        nodeCounter += 1
        let pad = String(repeating: " ", count: indent)
        let id = nodeIDs[path] ?? "node\(nodeCounter)"
        let kind = jointPaths.contains(path) ? "JOINT" : "NODE"
        var x = "\(pad)<node id=\"\(id)\" sid=\"\(id)\" name=\"\(MarkupText.escape(node.name))\" type=\"\(kind)\">\n"
        if !node.transform.isIdentity || animatedPaths.contains(path) {
            // Collada writes matrices row by row for column vectors.
            let m = node.transform
            let rows = (0..<4).map { r in (0..<4).map { c in NumberText.double(m[r, c]) }.joined(separator: " ") }
            x += "\(pad)  <matrix sid=\"transform\">\(rows.joined(separator: "  "))</matrix>\n"
        }
        for instance in node.meshInstances where scene.meshes.indices.contains(instance.mesh) {
            let mesh = scene.meshes[instance.mesh]
            let controller = controllerID(for: instance)
            let element = controller == nil ? "instance_geometry" : "instance_controller"
            x += "\(pad)  <\(element) url=\"#\(controller ?? "geometry\(instance.mesh)")\">\n"
            if let skin = instance.skin, controller != nil {
                for root in skeletonRoots(skin.skeleton) { x += "\(pad)    <skeleton>#\(root)</skeleton>\n" }
            }
            let groups = Self.materialGroups(mesh, instance: instance)
            let bound = groups.compactMap { group in group.material.map { (group.symbol, $0) } }
            if !bound.isEmpty {
                x += "\(pad)    <bind_material><technique_common>\n"
                for (symbol, material) in bound {
                    x += "\(pad)      <instance_material symbol=\"\(symbol)\" target=\"#material\(material)\">"
                    for (set, primvar) in mesh.texcoordSets.enumerated() {
                        x += "<bind_vertex_input semantic=\"\(MarkupText.escape(primvar.name))\" input_semantic=\"TEXCOORD\" input_set=\"\(set)\"/>"
                    }
                    x += "</instance_material>\n"
                }
                x += "\(pad)    </technique_common></bind_material>\n"
            }
            x += "\(pad)  </\(element)>\n"
        }
        for instance in node.curvesInstances where scene.curves.indices.contains(instance.curves) {
            x += "\(pad)  <instance_geometry url=\"#curves\(instance.curves)\">"
            if let material = instance.material {
                x += "<bind_material><technique_common><instance_material symbol=\"lines\" target=\"#material\(material)\"/></technique_common></bind_material>"
            }
            x += "</instance_geometry>\n"
        }
        for child in node.children { x += self.node(child, path: path + "/" + child.name, indent: indent + 2) }
        if node.purpose == .guide || node.purpose == .proxy || node.isInvisible {
            diagnostics.append(.warning("Collada has no purpose or visibility: node \(node.name) is written as ordinary geometry"))
        }
        return x + "\(pad)</node>\n"
    }

    /// Faces grouped by the material the instance binds: each subset, then the faces left over.
    /// Symbols name groups per geometry, so every instance can bind its own materials.
    static func materialGroups(_ mesh: Mesh, instance: MeshInstance?) -> [(symbol: String, faces: [Int32], material: Int?)] {
        var assigned = [Bool](repeating: false, count: mesh.faceVertexCounts.count)
        var groups: [(String, [Int32], Int?)] = []
        for (s, subset) in mesh.subsets.enumerated() {
            let faces = subset.faceIndices.filter { !assigned[Int($0)] }
            for f in faces { assigned[Int(f)] = true }
            let material = instance.flatMap { s < $0.subsetMaterials.count ? ($0.subsetMaterials[s] ?? $0.material) : $0.material }
            if !faces.isEmpty { groups.append(("subset\(s)", faces, material)) }
        }
        let rest = (0..<Int32(mesh.faceVertexCounts.count)).filter { !assigned[Int($0)] }
        if !rest.isEmpty { groups.append(("surface", rest, instance?.material)) }
        return groups
    }
}

import AssetCore

/// Builds the Collada text for `ColladaWriter`.
struct ColladaDocumentWriter {
    let scene: Scene
    let context: WriteContext
    var diagnostics: [Diagnostic] = []
    var textureFiles: [OutputFile] = []
    private var nodeCounter = 0
    var imageIDs: [Int: String] = [:]

    init(scene: Scene, context: WriteContext) {
        self.scene = scene
        self.context = context
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
        if !scene.cameras.isEmpty || !scene.lights.isEmpty {
            diagnostics.append(.warning("Collada output: cameras and lights are not written yet: \(scene.cameras.count + scene.lights.count) dropped"))
        }
        x += "  <library_visual_scenes>\n    <visual_scene id=\"scene\" name=\"\(MarkupText.escape(context.outputStem))\">\n"
        for node in scene.root.children { x += self.node(node, indent: 6) }
        x += "    </visual_scene>\n  </library_visual_scenes>\n  <scene><instance_visual_scene url=\"#scene\"/></scene>\n</COLLADA>\n"
        return x
    }

    // MARK: Nodes

    private mutating func node(_ node: Node, indent: Int) -> String {
        nodeCounter += 1
        let pad = String(repeating: " ", count: indent)
        var x = "\(pad)<node id=\"node\(nodeCounter)\" name=\"\(MarkupText.escape(node.name))\" type=\"NODE\">\n"
        if !node.transform.isIdentity {
            // Collada writes matrices row by row for column vectors.
            let m = node.transform
            let rows = (0..<4).map { r in (0..<4).map { c in NumberText.double(m[r, c]) }.joined(separator: " ") }
            x += "\(pad)  <matrix sid=\"transform\">\(rows.joined(separator: "  "))</matrix>\n"
        }
        for instance in node.meshInstances where scene.meshes.indices.contains(instance.mesh) {
            let mesh = scene.meshes[instance.mesh]
            x += "\(pad)  <instance_geometry url=\"#geometry\(instance.mesh)\">\n"
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
            x += "\(pad)  </instance_geometry>\n"
        }
        for instance in node.curvesInstances where scene.curves.indices.contains(instance.curves) {
            x += "\(pad)  <instance_geometry url=\"#curves\(instance.curves)\">"
            if let material = instance.material {
                x += "<bind_material><technique_common><instance_material symbol=\"lines\" target=\"#material\(material)\"/></technique_common></bind_material>"
            }
            x += "</instance_geometry>\n"
        }
        for child in node.children { x += self.node(child, indent: indent + 2) }
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

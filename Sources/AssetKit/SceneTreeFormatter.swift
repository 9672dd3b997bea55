import AssetCore

/// `assetc info --tree`: the node hierarchy with what each node places.
public enum SceneTreeFormatter {
    public static func format(_ scene: Scene) -> String {
        var lines: [String] = []
        // Iterative, like Scene.forEachNode: the rails each line needs travel down with it.
        var stack: [(node: Node, rails: String, isLast: Bool, purpose: Purpose)] = []
        for (i, child) in scene.root.children.enumerated().reversed() {
            stack.append((child, "", i == scene.root.children.count - 1, .default))
        }
        while let (node, rails, isLast, inherited) = stack.popLast() {
            let purpose = node.purpose ?? inherited
            lines.append(rails + (isLast ? "└─ " : "├─ ") + describe(node, purpose: purpose, scene: scene))
            let childRails = rails + (isLast ? "   " : "│  ")
            for (i, child) in node.children.enumerated().reversed() {
                stack.append((child, childRails, i == node.children.count - 1, purpose))
            }
        }
        return lines.isEmpty ? "(no nodes)" : lines.joined(separator: "\n")
    }

    private static func describe(_ node: Node, purpose: Purpose, scene: Scene) -> String {
        var text = node.name.isEmpty ? "(unnamed)" : node.name
        if !node.typeName.isEmpty { text += " [\(node.typeName)]" }
        var notes: [String] = []
        for instance in node.meshInstances where scene.meshes.indices.contains(instance.mesh) {
            let mesh = scene.meshes[instance.mesh]
            var note: String
            switch mesh.origin {
            case .authored: note = "mesh \(mesh.name): \(mesh.points.count) points, \(mesh.triangleCount) triangles"
            case .primitive(let kind): note = "\(kind) \(mesh.name)"
            }
            if let m = instance.material, scene.materials.indices.contains(m) { note += ", material \(scene.materials[m].name)" }
            notes.append(note)
        }
        for instance in node.curvesInstances where scene.curves.indices.contains(instance.curves) {
            let curves = scene.curves[instance.curves]
            notes.append("curves \(curves.name): \(curves.curveVertexCounts.count) curves, \(curves.segmentCount) segments")
        }
        if let c = node.camera, scene.cameras.indices.contains(c) { notes.append("camera \(scene.cameras[c].name)") }
        if let l = node.light, scene.lights.indices.contains(l) { notes.append("\(scene.lights[l].kind.rawValue) light") }
        if purpose != .default { notes.append("purpose \(purpose.rawValue)") }
        if node.isInvisible { notes.append("invisible") }
        // Names come from the file: shown, never obeyed.
        return TerminalText.safe(notes.isEmpty ? text : text + "  — " + notes.joined(separator: "; "))
    }
}

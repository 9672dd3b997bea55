import AssetCore

/// Wavefront OBJ with its MTL file: world space (the converter flattens first), one object per
/// mesh, positions, the first texture coordinate set and normals with their own per-corner
/// indices, n-gons kept, `usemtl` per material subset; textures copied beside the file.
public struct OBJWriter: SceneWriter {
    public let format = AssetFormat.obj
    public let requirements = WriterRequirements(flattened: true)

    public init() {}

    public func write(_ scene: Scene, context: WriteContext) throws(AssetError) -> WriteResult {
        var obj = "# written by assetc\nmtllib \(context.outputStem).mtl\n"
        var offsets = (v: 1, vt: 1, vn: 1)
        var usedMaterials: [Int] = []
        for node in scene.root.children {
            for instance in node.meshInstances where scene.meshes.indices.contains(instance.mesh) {
                let mesh = scene.meshes[instance.mesh]
                obj += "o \(Self.name(node.name))\n"
                for p in mesh.points { obj += "v \(NumberText.float(p.x)) \(NumberText.float(p.y)) \(NumberText.float(p.z))\n" }
                let uv = mesh.texcoordSets.first
                let uvIndices = uv.map { mesh.cornerElementIndices(of: $0) }
                if let uv, case .float2(let values) = uv.values {
                    for t in values { obj += "vt \(NumberText.float(t.x)) \(NumberText.float(t.y))\n" }
                }
                let normals = mesh.normals
                let normalIndices = normals.map { mesh.cornerElementIndices(of: $0) }
                if let normals, case .float3(let values) = normals.values {
                    for n in values { obj += "vn \(NumberText.float(n.x)) \(NumberText.float(n.y)) \(NumberText.float(n.z))\n" }
                }
                if mesh.isPointCloud {
                    // A point cloud as `p` statements, a line per 32 points.
                    for start in stride(from: 0, to: mesh.points.count, by: 32) {
                        obj += "p" + (start..<min(start + 32, mesh.points.count)).map { " \($0 + offsets.v)" }.joined() + "\n"
                    }
                }
                // Faces grouped by material: each subset with its own, then the rest.
                var faceMaterial = [Int?](repeating: instance.material, count: mesh.faceVertexCounts.count)
                for (s, subset) in mesh.subsets.enumerated() where s < instance.subsetMaterials.count {
                    for f in subset.faceIndices { faceMaterial[Int(f)] = instance.subsetMaterials[s] ?? instance.material }
                }
                var faceStart = [Int](repeating: 0, count: mesh.faceVertexCounts.count)
                var running = 0
                for (f, count) in mesh.faceVertexCounts.enumerated() { faceStart[f] = running; running += Int(count) }
                let order = Array(mesh.faceVertexCounts.indices).sorted { (faceMaterial[$0] ?? -1, $0) < (faceMaterial[$1] ?? -1, $1) }
                var current: Int?? = .none
                for f in order {
                    if current != .some(faceMaterial[f]) {
                        current = .some(faceMaterial[f])
                        if let m = faceMaterial[f] {
                            obj += "usemtl \(Self.name(scene.materials[m].name))\n"
                            if !usedMaterials.contains(m) { usedMaterials.append(m) }
                        } else {
                            obj += "usemtl default\n"
                        }
                    }
                    obj += "f"
                    for c in faceStart[f]..<(faceStart[f] + Int(mesh.faceVertexCounts[f])) {
                        let v = Int(mesh.faceVertexIndices[c]) + offsets.v
                        let t = uvIndices.map { String(Int($0[c]) + offsets.vt) } ?? ""
                        let n = normalIndices.map { String(Int($0[c]) + offsets.vn) }
                        obj += n.map { " \(v)/\(t)/\($0)" } ?? (t.isEmpty ? " \(v)" : " \(v)/\(t)")
                    }
                    obj += "\n"
                }
                offsets.v += mesh.points.count
                offsets.vt += uv?.values.count ?? 0
                offsets.vn += normals?.values.count ?? 0
            }
        }
        var files = [OutputFile(relativePath: context.outputName, bytes: Array(obj.utf8))]
        var diagnostics = scene.droppedContentWarnings(format: "OBJ", keepsMaterials: true, keepsTexcoordSets: 1,
                                                       keepsNormals: true, keepsColors: false)
        let (mtl, textures) = materialLibrary(scene, used: usedMaterials, context: context, diagnostics: &diagnostics)
        files.append(OutputFile(relativePath: "\(context.outputStem).mtl", bytes: Array(mtl.utf8)))
        files += textures
        return WriteResult(files: files, diagnostics: diagnostics)
    }

    private func materialLibrary(_ scene: Scene, used: [Int], context: WriteContext,
                                 diagnostics: inout [Diagnostic]) -> (String, [OutputFile]) {
        var mtl = "# written by assetc\nnewmtl default\nKd 0.8 0.8 0.8\n"
        var textures: [OutputFile] = []
        var written: Set<Int> = []
        for m in used {
            let material = scene.materials[m]
            let c = material.baseColor.value, e = material.emissive.value
            // Phong exponent from roughness, the inverse of the rule the Collada reader uses.
            let r = max(material.roughness.value, 0.01)
            let ns = max(0, min(1000, 2 / (r * r) - 2))
            mtl += "\nnewmtl \(Self.name(material.name))\nKd \(NumberText.float(c.x)) \(NumberText.float(c.y)) \(NumberText.float(c.z))\n"
            mtl += "Ke \(NumberText.float(e.x)) \(NumberText.float(e.y)) \(NumberText.float(e.z))\nNs \(NumberText.float(ns))\n"
            mtl += "d \(NumberText.float(material.opacity.value))\nillum 2\n"
            if !material.inputsBeyondPhong.isEmpty {
                diagnostics.append(.warning("material \(material.name): MTL has no \(material.inputsBeyondPhong.joined(separator: ", ")); left out"))
            }
            if material.usesSpecularWorkflow {
                let k = material.specularColor.value
                mtl += "Ks \(NumberText.float(k.x)) \(NumberText.float(k.y)) \(NumberText.float(k.z))\n"
            }
            if let reference = material.baseColor.texture, scene.textures.indices.contains(reference.texture) {
                let texture = scene.textures[reference.texture]
                let path = "\(context.textureFolder)/\(reference.texture)_\(texture.outputFileName)"
                mtl += "map_Kd \(path)\n"
                if !written.contains(reference.texture) {
                    written.insert(reference.texture)
                    if let bytes = context.textureBytes(texture) {
                        textures.append(OutputFile(relativePath: path, bytes: bytes))
                    } else {
                        diagnostics.append(.warning("texture \(texture.authoredPath) could not be read; map_Kd names it but it is not copied"))
                    }
                }
            }
        }
        return (mtl, textures)
    }

    /// OBJ and MTL names end at whitespace.
    static func name(_ text: String) -> String {
        let cleaned = String(text.map { $0.isWhitespace ? "_" : $0 })
        return cleaned.isEmpty ? "unnamed" : cleaned
    }
}

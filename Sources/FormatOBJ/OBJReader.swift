import AssetCore
import Foundation

/// Reads Wavefront OBJ with its MTL files: each `o`/`g` group a node holding one mesh of the
/// positions it uses, n-gons kept, texture coordinates and normals as faceVarying primvars indexed
/// as the file indexes them, vertex colours (`v x y z r g b`) as displayColor, `usemtl` runs as
/// material subsets. `mtllib` files and textures resolve under the asset root. OBJ carries no unit
/// and no up axis: the unit is reported unknown, Y up is assumed.
public struct OBJReader: SceneReader {

    public init() {}

    public var formats: [AssetFormat] { [.obj] }

    /// OBJ has no signature: the extension decides.
    public func sniff(prefix: [UInt8], pathExtension: String) -> AssetFormat? {
        pathExtension == "obj" ? .obj : nil
    }

    public func read(_ file: SniffedFile, options: ReadOptions) throws(AssetError) -> ReadResult {
        let display = options.name(of: file.url)
        let path = file.url.path
        let budget = ReadBudget(options.limits)
        let parser: OBJParser
        if let mapped = try MappedFile.mapIfLarge(path: path, display: display, budget: budget, staged: options.staged) {
            parser = try OBJSplitParse.parse(mapped.bytes, file: display, budget: budget, mapping: mapped)
            if mapped.changedWhileRead { throw MappedFile.changedError(at: display) }
        } else {
            parser = try OBJSplitParse.parse(FileBytes.read(path: path, display: display, budget: budget, staged: options.staged), file: display, budget: budget)
        }
        var diagnostics: [Diagnostic] = []
        for (statement, count) in parser.skippedStatements.sorted(by: { $0.key < $1.key }) {
            diagnostics.append(.warning("\(count) '\(statement)' statements are not read", at: SourceLocation(file: display)))
        }
        for (_, dropped) in parser.droppedFaces.sorted(by: { $0.value.firstLine < $1.value.firstLine }) {
            let faces = dropped.count == 1 ? "1 face" : "\(dropped.count) faces"
            diagnostics.append(.warning("\(faces) dropped: \(dropped.firstReason)\(dropped.count > 1 ? " (the first)" : "")",
                                        at: SourceLocation(file: display, line: dropped.firstLine)))
        }
        for (_, lost) in parser.lostAttributes.sorted(by: { $0.value.firstLine < $1.value.firstLine }) {
            let faces = lost.count == 1 ? "1 face" : "\(lost.count) faces"
            let what = lost.firstReason.hasPrefix("texcoord") ? "texture coordinates" : "normals"
            diagnostics.append(.warning("\(faces) read without \(what): \(lost.firstReason)\(lost.count > 1 ? " (the first)" : "")",
                                        at: SourceLocation(file: display, line: lost.firstLine)))
        }
        var scene = Scene()
        scene.metadata = SceneMetadata(upAxis: .y, metersPerUnit: 1, sourceFormat: .obj)
        scene.metadata.declaresUnits = false
        var materials = OBJMaterials(objPath: path, display: display, options: options)
        materials.load(parser.materialLibraries, names: parser.materialNames)
        var assembler = OBJMeshAssembler(parser: parser)
        if parser.droppedPoints > 0 {
            diagnostics.append(.warning("\(parser.droppedPoints) 'p' points dropped: their position index points at nothing", at: SourceLocation(file: display)))
        }
        for (k, group) in parser.groups.enumerated() where !group.faceSizes.isEmpty || !group.points.isEmpty {
            let name = group.name.isEmpty ? (parser.groups.count == 1 ? file.url.deletingPathExtension().lastPathComponent : "group\(k)") : group.name
            var node = Node(name: name, typeName: "group")
            if !group.faceSizes.isEmpty {
                let (mesh, materialNames) = assembler.mesh(group, name: name, at: SourceLocation(file: display, line: group.line), diagnostics: &diagnostics)
                let materialIDs = materialNames.map { $0.flatMap { materials.index(of: $0) } }
                try budget.spend(bytes: mesh.points.count * 16 + mesh.faceVertexIndices.count * 12, for: "group \(name)", at: SourceLocation(file: display, line: group.line))
                scene.meshes.append(mesh)
                var instance = MeshInstance(mesh: scene.meshes.count - 1)
                if mesh.subsets.isEmpty { instance.material = materialIDs.first.flatMap { $0 } }
                else { instance.subsetMaterials = materialIDs }
                node.meshInstances.append(instance)
            }
            if !group.points.isEmpty {
                try budget.spend(bytes: group.points.count * 16, for: "points of group \(name)", at: SourceLocation(file: display, line: group.line))
                scene.meshes.append(pointCloud(group.points, parser: parser, name: group.faceSizes.isEmpty ? name : name + "_points"))
                node.meshInstances.append(MeshInstance(mesh: scene.meshes.count - 1))
            }
            scene.root.children.append(node)
        }
        scene.materials = materials.materials
        scene.textures = materials.textures
        return ReadResult(scene: scene, diagnostics: diagnostics + materials.diagnostics)
    }

    /// A group's `p` points as a point cloud, with their vertex colours when the file has them.
    private func pointCloud(_ indices: [Int32], parser: OBJParser, name: String) -> Mesh {
        var mesh = Mesh(name: name, points: indices.map { parser.positions[Int($0)] })
        if !parser.colors.isEmpty {
            mesh.primvars.append(Primvar(name: Primvar.displayColorName, interpolation: .vertex,
                                         values: .float3(indices.map { parser.colors[Int($0)] }), role: .color))
        }
        return mesh
    }
}

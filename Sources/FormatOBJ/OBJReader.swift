import AssetCore
import Foundation

/// Reads Wavefront OBJ with its MTL files: each `o`/`g` group a node holding one mesh of the
/// positions it uses, n-gons kept, texture coordinates and normals as faceVarying primvars indexed
/// as the file indexes them, vertex colours (`v x y z r g b`) as displayColor, `usemtl` runs as
/// material subsets. `mtllib` files and textures resolve under the asset root. OBJ carries no unit
/// and no up axis: the unit is reported unknown, Y up is assumed.
public struct OBJReader: SceneReader {
    public static let obj = FormatDescription(name: "obj", fileExtensions: ["obj"], summary: "Wavefront OBJ + MTL")

    public init() {}

    public var formats: [FormatDescription] { [Self.obj] }

    /// OBJ has no signature: the extension decides.
    public func sniff(prefix: [UInt8], pathExtension: String) -> FormatDescription? {
        pathExtension == "obj" ? Self.obj : nil
    }

    public func read(_ file: SniffedFile, options: ReadOptions) throws(AssetError) -> ReadResult {
        let display = file.url.relativePath
        let path = file.url.path
        let budget = ReadBudget(options.limits)
        let bytes = try FileBytes.read(path: path, display: display, budget: budget)
        let parser = try OBJSplitParse.parse(bytes, file: display, budget: budget)
        var diagnostics: [Diagnostic] = []
        for (statement, count) in parser.skippedStatements.sorted(by: { $0.key < $1.key }) {
            diagnostics.append(.warning("\(count) '\(statement)' statements are not read", at: SourceLocation(file: display)))
        }
        var scene = Scene()
        scene.metadata = SceneMetadata(upAxis: .y, metersPerUnit: 1, sourceFormat: "obj")
        scene.metadata.declaresUnits = false
        var materials = OBJMaterials(objPath: path, display: display, options: options)
        materials.load(parser.materialLibraries, names: parser.materialNames)
        var assembler = OBJMeshAssembler(parser: parser)
        for (k, group) in parser.groups.enumerated() where !group.faceSizes.isEmpty {
            let name = group.name.isEmpty ? (parser.groups.count == 1 ? file.url.deletingPathExtension().lastPathComponent : "group\(k)") : group.name
            let (mesh, materialNames) = assembler.mesh(group, name: name, at: SourceLocation(file: display, line: group.line), diagnostics: &diagnostics)
            let materialIDs = materialNames.map { $0.flatMap { materials.index(of: $0) } }
            try budget.spend(bytes: mesh.points.count * 16 + mesh.faceVertexIndices.count * 12, for: "group \(name)", at: SourceLocation(file: display, line: group.line))
            scene.meshes.append(mesh)
            var instance = MeshInstance(mesh: scene.meshes.count - 1)
            if mesh.subsets.isEmpty { instance.material = materialIDs.first.flatMap { $0 } }
            else { instance.subsetMaterials = materialIDs }
            scene.root.children.append(Node(name: name, typeName: "group", meshInstances: [instance]))
        }
        scene.materials = materials.materials
        scene.textures = materials.textures
        return ReadResult(scene: scene, diagnostics: diagnostics + materials.diagnostics)
    }
}

/// Turns one parsed group into a mesh: the positions, texcoords and normals it uses, compacted
/// in first-use order through one scratch table shared by every group (so many small groups in a
/// large file cost their own size, not the file's).
struct OBJMeshAssembler {
    let parser: OBJParser
    private var scratch: [Int32] = []

    init(parser: OBJParser) { self.parser = parser }

    /// Global indices as local ones, and the global elements used, in first-use order; nil when
    /// the group uses every element, so the file's own numbering serves as it is (the common
    /// one-object file pays no remapping and no copies).
    private mutating func compact(_ indices: [Int32], count: Int) -> (local: [Int32], used: [Int32])? {
        var seen = [Bool](repeating: false, count: count)
        var distinct = 0
        indices.withUnsafeBufferPointer { all in
            for g in all where !seen[Int(g)] { seen[Int(g)] = true; distinct += 1 }
        }
        if distinct == count { return nil }
        if scratch.count < count { scratch = [Int32](repeating: -1, count: count) }
        var used: [Int32] = []
        let local = indices.map { g -> Int32 in
            if scratch[Int(g)] < 0 { scratch[Int(g)] = Int32(used.count); used.append(g) }
            return scratch[Int(g)]
        }
        for g in used { scratch[Int(g)] = -1 }
        return (local, used)
    }

    mutating func mesh(_ group: OBJParser.Group, name: String, at here: SourceLocation,
                       diagnostics: inout [Diagnostic]) -> (Mesh, [String?]) {
        var mesh = Mesh(name: name)
        let positions = compact(group.positions, count: parser.positions.count)
        mesh.points = positions.map { $0.used.map { parser.positions[Int($0)] } } ?? parser.positions
        mesh.faceVertexIndices = positions?.local ?? group.positions
        mesh.faceVertexCounts = group.faceSizes
        if !parser.colors.isEmpty {
            mesh.primvars.append(Primvar(name: Primvar.displayColorName, interpolation: .vertex,
                                         values: .float3(positions.map { $0.used.map { parser.colors[Int($0)] } } ?? parser.colors), role: .color))
        }
        for (stream, count, isTexcoord) in [(group.texcoords, parser.texcoords.count, true), (group.normals, parser.normals.count, false)] {
            let present = stream.lazy.filter { $0 >= 0 }.count
            guard present > 0 else { continue }
            guard present == stream.count else {
                diagnostics.append(.warning("\(isTexcoord ? "texture coordinates" : "normals") on some faces of \(name) only; dropped", at: here))
                continue
            }
            let compacted = compact(stream, count: count)
            let indices = compacted?.local ?? stream
            let values: PrimvarValues
            if let used = compacted?.used {
                values = isTexcoord ? .float2(used.map { parser.texcoords[Int($0)] }) : .float3(used.map { parser.normals[Int($0)] })
            } else {
                values = isTexcoord ? .float2(parser.texcoords) : .float3(parser.normals)
            }
            mesh.primvars.append(Primvar(name: isTexcoord ? "st" : Primvar.normalsName, interpolation: .faceVarying, values: values,
                                         indices: indices, role: isTexcoord ? .textureCoordinate : .normal))
        }
        // Material runs: one material binds the whole mesh, several become subsets.
        let distinct = Array(Set(group.faceMaterials)).sorted()
        if distinct.count > 1 {
            for id in distinct {
                let faces = group.faceMaterials.indices.filter { group.faceMaterials[$0] == id }.map { Int32($0) }
                mesh.subsets.append(GeomSubset(name: id >= 0 ? parser.materialNames[Int(id)] : "unassigned", faceIndices: faces))
            }
        }
        let bound = (distinct.count > 1 ? distinct : Array(distinct.prefix(1))).map { id -> String? in id >= 0 ? parser.materialNames[Int(id)] : nil }
        return (mesh, bound)
    }
}

import AssetCore

/// Writes a `Scene` as one usda layer: `defaultPrim`, `upAxis`, `metersPerUnit`, an Xform hierarchy
/// with `xformOp:transform`, Meshes with their primvars and GeomSubsets, UsdPreviewSurface
/// materials under `<defaultPrim>/Looks` bound through MaterialBindingAPI, cameras and lights.
/// Texture files are collected for the caller to place at the paths the layer names.
struct USDLayerWriter {
    let scene: Scene
    let context: WriteContext
    /// Folder of copied textures, relative to the layer: `textures` inside a package, or the
    /// output's own texture folder beside a .usda.
    let textureFolder: String
    var out = USDATextBuilder()
    var diagnostics: [Diagnostic] = []
    /// Files the layer refers to (`textures/wood.png`), with their bytes.
    var textureFiles: [OutputFile] = []
    var materialPaths: [Int: String] = [:]
    var texturePaths: [Int: String?] = [:]
    var usedTextureNames: Set<String> = []

    init(scene: Scene, context: WriteContext, textureFolder: String) {
        self.scene = scene
        self.context = context
        self.textureFolder = textureFolder
    }

    mutating func write() -> String {
        let tops = scene.root.children
        // A single group becomes the default prim; otherwise (several top nodes, or one that is a
        // mesh itself) they are wrapped in an Xform named after the file.
        let single = tops.count == 1 && !Self.isMeshPrim(tops[0])
        var rootNames = USDName.Uniquer()
        let rootName = single ? rootNames.name(tops[0].name) : rootNames.name(context.outputStem)
        out.line("#usda 1.0")
        out.line("(")
        out.line("    defaultPrim = \(USDATextBuilder.quoted(rootName))")
        out.line("    doc = \"Written by assetc\"")
        out.line("    metersPerUnit = \(NumberText.double(scene.metadata.metersPerUnit))")
        out.line("    upAxis = \"\(scene.metadata.upAxis == .z ? "Z" : "Y")\"")
        out.line(")")
        out.line("")
        if scene.metadata.upAxis == .x {
            diagnostics.append(.warning("USD has no X up axis; the layer says Y and keeps the geometry as it is"))
        }
        var looksNames = USDName.Uniquer()
        let looksPath = "/\(rootName)/" + looksNames.name("Looks")
        for (i, material) in scene.materials.enumerated() {
            materialPaths[i] = looksPath + "/" + USDName.sanitize(material.name) + "_\(i)"
        }
        out.open("def Xform \(USDATextBuilder.quoted(rootName))", metadata: ["kind = \"component\""])
        if single {
            writeTransform(tops[0])
            var names = USDName.Uniquer()
            _ = names.name("Looks")
            writeContents(of: tops[0], path: "/\(rootName)", names: &names)
        } else {
            var names = USDName.Uniquer()
            _ = names.name("Looks")
            for node in tops { writeNode(node, parentPath: "/\(rootName)", names: &names) }
        }
        if !scene.materials.isEmpty { writeMaterials(looksPath: looksPath) }
        out.close()
        return out.text
    }

    static func isMeshPrim(_ node: Node) -> Bool {
        node.meshInstances.count == 1 && node.children.isEmpty && node.camera == nil && node.light == nil
    }

    private mutating func writeNode(_ node: Node, parentPath: String, names: inout USDName.Uniquer) {
        let name = names.name(node.name)
        let path = parentPath + "/" + name
        if Self.isMeshPrim(node), let instance = node.meshInstances.first, scene.meshes.indices.contains(instance.mesh) {
            writeMesh(scene.meshes[instance.mesh], instance: instance, name: name, path: path, node: node)
            return
        }
        out.open("def Xform \(USDATextBuilder.quoted(name))")
        writeTransform(node)
        var childNames = USDName.Uniquer()
        writeContents(of: node, path: path, names: &childNames)
        out.close()
    }

    private mutating func writeContents(of node: Node, path: String, names: inout USDName.Uniquer) {
        for instance in node.meshInstances where scene.meshes.indices.contains(instance.mesh) {
            let mesh = scene.meshes[instance.mesh]
            let name = names.name(mesh.name.isEmpty ? "Mesh" : mesh.name)
            writeMesh(mesh, instance: instance, name: name, path: path + "/" + name, node: nil)
        }
        if let c = node.camera, scene.cameras.indices.contains(c) { writeCamera(scene.cameras[c], name: names.name(scene.cameras[c].name)) }
        if let l = node.light, scene.lights.indices.contains(l) { writeLight(scene.lights[l], name: names.name(scene.lights[l].name)) }
        for child in node.children { writeNode(child, parentPath: path, names: &names) }
    }

    mutating func writeTransform(_ node: Node) {
        if let purpose = node.purpose, purpose != .default { out.line("uniform token purpose = \"\(purpose.rawValue)\"") }
        if node.isInvisible { out.line("token visibility = \"invisible\"") }
        guard !node.transform.isIdentity || node.resetsTransformStack else { return }
        out.line("matrix4d xformOp:transform = \(USDATextBuilder.matrix(node.transform))")
        let order = node.resetsTransformStack ? "[\"!resetXformStack!\", \"xformOp:transform\"]" : "[\"xformOp:transform\"]"
        out.line("uniform token[] xformOpOrder = \(order)")
    }

    private mutating func writeCamera(_ camera: Camera, name: String) {
        out.open("def Camera \(USDATextBuilder.quoted(name))")
        // UsdGeomCamera apertures are in tenths of a scene unit; keep the default film back and
        // derive the focal length that gives the camera's vertical field of view.
        let aperture = 20.955
        let focal = aperture / (2 * tan(camera.verticalFieldOfView * .pi / 360))
        out.line("float focalLength = \(NumberText.double(focal))")
        out.line("float verticalAperture = \(NumberText.double(aperture))")
        out.line("token projection = \"\(camera.projection == .orthographic ? "orthographic" : "perspective")\"")
        out.line("float2 clippingRange = (\(NumberText.double(camera.near)), \(NumberText.double(camera.far)))")
        out.close()
    }

    private mutating func writeLight(_ light: Light, name: String) {
        let type: String
        switch light.kind {
        case .directional: type = "DistantLight"
        case .ambient: type = "DomeLight"
        case .point, .spot: type = "SphereLight"
        }
        out.open("def \(type) \(USDATextBuilder.quoted(name))")
        out.line("color3f inputs:color = \(USDATextBuilder.vec3(light.color))")
        out.line("float inputs:intensity = \(NumberText.float(light.intensity))")
        out.close()
    }
}

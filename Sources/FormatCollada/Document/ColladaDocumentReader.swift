import AssetCore

/// Reads the element tree into a `ColladaDocument`. Structural problems that make one library
/// entry unusable (a source whose accessor runs past its array, a bad number) are warnings and
/// the entry is dropped; the rest of the document is still read.
struct ColladaDocumentReader {
    var document: ColladaDocument
    var diagnostics: [Diagnostic] = []

    init(file: String) {
        document = ColladaDocument(file: file)
    }

    mutating func read(_ root: ColladaElement) throws(AssetError) {
        guard root.name == "COLLADA" else {
            throw AssetError(.malformed("the root element is <\(root.name)>, not <COLLADA>: not a Collada document"),
                             at: document.location(line: root.line))
        }
        if let asset = root.child("asset") { readAsset(asset) }
        for library in root.children {
            switch library.name {
            case "library_geometries": library.children("geometry").forEach { readGeometry($0) }
            case "library_controllers": library.children("controller").forEach { readController($0) }
            case "library_materials": library.children("material").forEach { readMaterial($0) }
            case "library_effects": library.children("effect").forEach { readEffect($0) }
            case "library_images": library.children("image").forEach { readImage($0) }
            case "library_nodes": library.children("node").forEach { _ = readNode($0) }
            case "library_visual_scenes":
                for scene in library.children("visual_scene") {
                    let id = scene["id"] ?? "visual_scene\(document.visualSceneOrder.count)"
                    document.visualScenes[id] = ColladaVisualScene(id: id, nodes: scene.children("node").map { readNode($0) })
                    document.visualSceneOrder.append(id)
                }
            case "library_animations":
                for animation in library.children("animation") { document.animations.append(readAnimation(animation)) }
            case "library_animation_clips": library.children("animation_clip").forEach { readClip($0) }
            case "library_cameras": library.children("camera").forEach { readCamera($0) }
            case "library_lights": library.children("light").forEach { readLight($0) }
            case "scene":
                document.sceneURL = library.child("instance_visual_scene")?["url"].map(Self.fragment)
            default: break
            }
        }
        // Images also appear inside effects (Collada 1.4 allows <image> in profile_COMMON).
        for image in Self.all("image", under: root) where document.images[image["id"] ?? ""] == nil { readImage(image) }
    }

    static func fragment(_ url: String) -> String { url.hasPrefix("#") ? String(url.dropFirst()) : url }

    static func all(_ name: String, under root: ColladaElement) -> [ColladaElement] {
        var found: [ColladaElement] = []
        var stack = [root]
        while let element = stack.popLast() {
            if element.name == name { found.append(element) }
            stack.append(contentsOf: element.children)
        }
        return found
    }

    mutating func warn(_ message: String, line: Int, element: String? = nil) {
        diagnostics.append(.warning(message, at: document.location(line: line, element: element)))
    }

    private mutating func readAsset(_ asset: ColladaElement) {
        switch asset.child("up_axis")?.trimmedText {
        case "X_UP": document.upAxis = .x
        case "Z_UP": document.upAxis = .z
        case "Y_UP", nil: document.upAxis = .y
        case let other?: warn("unknown up_axis '\(other)'; Y_UP is used", line: asset.line, element: "asset/up_axis")
        }
        if let unit = asset.child("unit") {
            if let meter = unit["meter"].flatMap(Double.init), meter.isFinite, meter > 0 { document.meter = meter }
            else if unit["meter"] != nil { warn("unit meter '\(unit["meter"]!)' is not a positive number; 1 is used", line: unit.line, element: "asset/unit") }
        }
        document.authoringTool = asset.child("contributor")?.child("authoring_tool")?.trimmedText
    }

    // MARK: Geometry

    private mutating func readGeometry(_ element: ColladaElement) {
        let id = element["id"] ?? ""
        var geometry = ColladaGeometry(id: id, name: element["name"] ?? id, line: element.line)
        guard let mesh = element.child("mesh") else {
            geometry.unsupportedKind = element.children.first?.name ?? "empty geometry"
            document.geometries[id] = geometry
            return
        }
        for sourceElement in mesh.children("source") {
            if let source = readSource(sourceElement, geometry: id) { geometry.sources[source.id] = source }
        }
        if let vertices = mesh.child("vertices") {
            geometry.verticesID = vertices["id"]
            geometry.vertexInputs = vertices.children("input").map { readInput($0) }
        }
        for child in mesh.children {
            guard let kind = ColladaPrimitive.Kind(rawValue: child.name) else { continue }
            let lists: [[Int32]]
            var hasHoles = false
            switch kind {
            case .polygons:
                lists = child.children("p").map(\.ints) + child.children("ph").compactMap { $0.child("p")?.ints }
                hasHoles = child.child("ph") != nil
            case .triangles, .polylist:
                lists = [child.child("p")?.ints ?? []]
            default:
                lists = child.children("p").map(\.ints)
            }
            for list in child.children("p") + (child.children("ph").compactMap { $0.child("p") }) + (child.child("vcount").map { [$0] } ?? []) {
                if let bad = list.badNumber {
                    warn("<\(list.name)> holds '\(bad.token)', which is not an integer; primitive dropped", line: bad.line, element: "geometry[@id=\(id)]")
                }
            }
            if (child.children("p") + [child.child("vcount")].compactMap { $0 }).contains(where: { $0.badNumber != nil }) { continue }
            geometry.primitives.append(ColladaPrimitive(
                kind: kind, material: child["material"], count: child["count"].flatMap(Int.init) ?? 0,
                inputs: child.children("input").map { readInput($0) }, lists: lists,
                vcount: child.child("vcount")?.ints ?? [], hasHoles: hasHoles, line: child.line))
        }
        document.geometries[id] = geometry
    }

    private func readInput(_ element: ColladaElement) -> ColladaInput {
        ColladaInput(semantic: element["semantic"] ?? "", source: Self.fragment(element["source"] ?? ""),
                     offset: element["offset"].flatMap(Int.init) ?? 0, set: element["set"].flatMap(Int.init))
    }

    private mutating func readSource(_ element: ColladaElement, geometry: String) -> ColladaSource? {
        let id = element["id"] ?? ""
        let here = "geometry[@id=\(geometry)]/source[@id=\(id)]"
        guard let array = element.child("float_array") else { return nil }  // Name_array, IDREF_array: not geometry
        if let bad = array.badNumber {
            warn("float_array holds '\(bad.token)', which is not a number; source dropped", line: bad.line, element: here)
            return nil
        }
        if let declared = array["count"].flatMap(Int.init), declared != array.floats.count {
            warn("float_array count=\(declared) but it holds \(array.floats.count) numbers; the numbers present are used",
                 line: array.line, element: here)
        }
        guard let accessor = element.child("technique_common")?.child("accessor") else {
            warn("source has no accessor; dropped", line: element.line, element: here)
            return nil
        }
        let params = accessor.children("param")
        let count = accessor["count"].flatMap(Int.init) ?? 0
        let stride = accessor["stride"].flatMap(Int.init) ?? max(params.count, 1)
        let offset = accessor["offset"].flatMap(Int.init) ?? 0
        let named = params.enumerated().filter { ($0.element["name"] ?? "").isEmpty == false }.map(\.offset)
        let components = named.isEmpty ? Array(0..<min(params.count, stride)) : named
        guard count >= 0, stride > 0, offset >= 0, components.allSatisfy({ $0 < stride }) else {
            warn("accessor count \(count), stride \(stride), offset \(offset) are not usable; source dropped", line: accessor.line, element: here)
            return nil
        }
        // offset + count * stride, computed so that sizes from the file cannot overflow and trap.
        let (span, spanOverflows) = count.multipliedReportingOverflow(by: stride)
        let (end, endOverflows) = offset.addingReportingOverflow(span)
        if count > 0 && (spanOverflows || endOverflows || end > array.floats.count) {
            warn("accessor reads \(count) elements of stride \(stride) from offset \(offset) but the array holds \(array.floats.count) numbers; source dropped",
                 line: accessor.line, element: here)
            return nil
        }
        return ColladaSource(id: id, floats: array.floats, count: count, stride: stride, offset: offset,
                             componentOffsets: components, line: element.line)
    }

    private mutating func readController(_ element: ColladaElement) {
        let id = element["id"] ?? ""
        if let skin = element.child("skin") {
            let matrix = skin.child("bind_shape_matrix")?.doubles
            var controller = ColladaController(
                id: id, source: Self.fragment(skin["source"] ?? ""), isMorph: false,
                bindShapeMatrix: matrix?.count == 16 ? matrix : nil, line: element.line)
            readSkin(skin, into: &controller)
            document.controllers[id] = controller
        } else if let morph = element.child("morph") {
            var controller = ColladaController(id: id, source: Self.fragment(morph["source"] ?? ""), isMorph: true,
                                               bindShapeMatrix: nil, line: element.line)
            readMorph(morph, into: &controller)
            document.controllers[id] = controller
        }
    }
}

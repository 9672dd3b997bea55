import AssetCore

extension ColladaDocumentReader {
    /// Reads a `<node>` and its subtree; nodes with ids are also filed for `instance_node`.
    mutating func readNode(_ element: ColladaElement) -> ColladaNode {
        var node = ColladaNode(id: element["id"], name: element["name"] ?? element["id"] ?? element["sid"] ?? "node", line: element.line)
        node.sid = element["sid"]
        node.isJoint = element["type"] == "JOINT"
        for child in element.children {
            let values = child.doubles
            func need(_ count: Int) -> Bool {
                if values.count == count && child.badNumber == nil { return true }
                warn("<\(child.name)> needs \(count) numbers, has \(values.count); ignored", line: child.line, element: "node[@id=\(node.id ?? node.name)]")
                return false
            }
            switch child.name {
            case "matrix": if need(16) { node.transforms.append((.matrix(values), child.line, child["sid"])) }
            case "translate": if need(3) { node.transforms.append((.translate(values), child.line, child["sid"])) }
            case "rotate": if need(4) { node.transforms.append((.rotate(values), child.line, child["sid"])) }
            case "scale": if need(3) { node.transforms.append((.scale(values), child.line, child["sid"])) }
            case "lookat": if need(9) { node.transforms.append((.lookat(values), child.line, child["sid"])) }
            case "skew": if need(7) { node.transforms.append((.skew(values), child.line, child["sid"])) }
            case "node": node.children.append(readNode(child))
            case "instance_geometry": node.instances.append(readInstance(child, kind: .geometry))
            case "instance_controller": node.instances.append(readInstance(child, kind: .controller))
            case "instance_node": node.instances.append(readInstance(child, kind: .node))
            case "instance_camera": node.instances.append(readInstance(child, kind: .camera))
            case "instance_light": node.instances.append(readInstance(child, kind: .light))
            default: break
            }
        }
        if let id = node.id { document.nodes[id] = node }
        return node
    }

    private func readInstance(_ element: ColladaElement, kind: ColladaInstance.Kind) -> ColladaInstance {
        var bindings: [String: ColladaMaterialBinding] = [:]
        if let common = element.child("bind_material")?.child("technique_common") {
            for material in common.children("instance_material") {
                guard let symbol = material["symbol"], let target = material["target"] else { continue }
                var sets: [String: Int] = [:]
                for input in material.children("bind_vertex_input") where input["input_semantic"] == "TEXCOORD" {
                    if let semantic = input["semantic"] { sets[semantic] = input["input_set"].flatMap(Int.init) ?? 0 }
                }
                bindings[symbol] = ColladaMaterialBinding(materialID: Self.fragment(target), texcoordSets: sets)
            }
        }
        var instance = ColladaInstance(kind: kind, url: Self.fragment(element["url"] ?? ""), materials: bindings, line: element.line)
        instance.skeletons = element.children("skeleton").map { Self.fragment($0.trimmedText) }
        return instance
    }

    mutating func readMaterial(_ element: ColladaElement) {
        let id = element["id"] ?? ""
        document.materials[id] = ColladaMaterial(id: id, name: element["name"] ?? id,
                                                 effect: element.child("instance_effect")?["url"].map(Self.fragment), line: element.line)
    }

    mutating func readEffect(_ element: ColladaElement) {
        let id = element["id"] ?? ""
        guard let profile = element.child("profile_COMMON") else {
            warn("effect has no profile_COMMON; its material uses defaults", line: element.line, element: "effect[@id=\(id)]")
            return
        }
        let technique = profile.child("technique")
        let shadingElement = technique?.children.first { ["constant", "lambert", "phong", "blinn"].contains($0.name) }
        var effect = ColladaEffect(id: id, shading: shadingElement?.name ?? "lambert", line: element.line)
        if let sid = technique?["sid"] { effect.sids[sid] = "" }
        var paramNumbers: [String: [Double]] = [:]
        for param in profile.children("newparam") {
            guard let sid = param["sid"] else { continue }
            if let numbers = (param.child("float4") ?? param.child("float3") ?? param.child("float"))?.doubles, !numbers.isEmpty {
                paramNumbers[sid] = numbers
            }
            if let sampler = param.child("sampler2D") {
                // 1.4.1: <source>surface-sid</source>; 1.5: <instance_image url="#image"/>.
                if let surface = sampler.child("source")?.trimmedText { effect.samplers[sid] = "surface:" + surface }
                else if let image = sampler.child("instance_image")?["url"] { effect.samplers[sid] = Self.fragment(image) }
            } else if let surface = param.child("surface"), let image = surface.child("init_from")?.trimmedText {
                effect.surfaces[sid] = image
            }
        }
        for channel in shadingElement?.children ?? [] {
            if let sid = (channel.child("color") ?? channel.child("float"))?["sid"] { effect.sids[sid] = channel.name }
            if let ref = channel.child("param")?["ref"], let numbers = paramNumbers[ref] {
                // A channel that takes its value from a <newparam> (animated through that param's sid).
                effect.sids[ref] = channel.name
                if numbers.count >= 3 { effect.channels[channel.name] = .color(SIMD4(numbers[0], numbers[1], numbers[2], numbers.count > 3 ? numbers[3] : 1)) }
                else { effect.values[channel.name] = numbers[0] }
            } else if let color = channel.child("color")?.doubles, color.count >= 3 {
                effect.channels[channel.name] = .color(SIMD4(color[0], color[1], color[2], color.count > 3 ? color[3] : 1))
            } else if let texture = channel.child("texture"), let sampler = texture["texture"] {
                effect.channels[channel.name] = .texture(sampler: sampler, texcoord: texture["texcoord"] ?? "")
            } else if let value = channel.child("float")?.doubles.first {
                effect.values[channel.name] = value
            }
            if channel.name == "transparent", let mode = channel["opaque"] { effect.opaqueMode = mode }
        }
        effect.isDoubleSided = Self.all("double_sided", under: element).contains { $0.trimmedText == "1" }
        document.effects[id] = effect
    }

    mutating func readImage(_ element: ColladaElement) {
        let id = element["id"] ?? ""
        // 1.4.1: <init_from>path</init_from>; 1.5: <init_from><ref>path</ref></init_from>.
        guard let initFrom = element.child("init_from") else { return }
        let path = initFrom.child("ref")?.trimmedText ?? initFrom.trimmedText
        guard !path.isEmpty else { return }
        document.images[id] = ColladaImage(id: id, path: path, line: element.line)
    }

    mutating func readCamera(_ element: ColladaElement) {
        let id = element["id"] ?? ""
        var camera = ColladaCamera(id: id, name: element["name"] ?? id)
        if let optics = element.child("optics")?.child("technique_common") {
            if let p = optics.child("perspective") {
                camera.yfov = p.child("yfov")?.doubles.first
                camera.xfov = p.child("xfov")?.doubles.first
                camera.aspect = p.child("aspect_ratio")?.doubles.first
                camera.near = p.child("znear")?.doubles.first
                camera.far = p.child("zfar")?.doubles.first
            } else if let o = optics.child("orthographic") {
                camera.ymag = o.child("ymag")?.doubles.first ?? o.child("xmag")?.doubles.first
                camera.near = o.child("znear")?.doubles.first
                camera.far = o.child("zfar")?.doubles.first
            }
        }
        document.cameras[id] = camera
    }

    mutating func readLight(_ element: ColladaElement) {
        let id = element["id"] ?? ""
        guard let common = element.child("technique_common"), let kindElement = common.children.first else { return }
        let kinds: [String: Light.Kind] = ["ambient": .ambient, "directional": .directional, "point": .point, "spot": .spot]
        guard let kind = kinds[kindElement.name] else { return }
        let c = kindElement.child("color")?.doubles ?? [1, 1, 1]
        document.lights[id] = ColladaLight(id: id, name: element["name"] ?? id, kind: kind,
                                           color: c.count >= 3 ? SIMD3(Float(c[0]), Float(c[1]), Float(c[2])) : .one)
    }
}

import AssetCore

/// Cameras as glTF cameras and lights as KHR_lights_punctual lights, each written once however
/// many nodes hold it; light colour and intensity animation as KHR_animation_pointer channels.
/// glTF has no ambient light: those are left out, counted in one warning.
extension GLTFBuilder {
    mutating func attachCameraAndLight(of source: Node, to index: Int) {
        if let c = source.camera, scene.cameras.indices.contains(c) {
            document.nodes[index].camera = gltfCamera(c)
        }
        if let l = source.light, scene.lights.indices.contains(l) {
            guard scene.lights[l].kind != .ambient else {
                ambientLightsLeftOut.insert(l)
                return
            }
            document.nodes[index].extensions = .init(KHR_lights_punctual: .init(light: gltfLight(l)))
        }
    }

    private mutating func gltfCamera(_ c: Int) -> Int {
        if let known = cameraIndex[c] { return known }
        let camera = scene.cameras[c]
        let name = camera.name.isEmpty ? nil : camera.name
        // glTF asks znear > 0 of a perspective camera and zfar > znear of both kinds.
        let near = camera.near > 0 ? camera.near : 0.01
        let far = camera.far > near ? camera.far : near * 1000
        let written: GLTFDocument.Camera
        switch camera.projection {
        case .perspective:
            written = .init(name: name, type: "perspective",
                            perspective: .init(yfov: camera.verticalFieldOfView * .pi / 180, znear: near, zfar: far))
        case .orthographic:
            // The scene keeps no aspect ratio, so the view is as wide as it is high.
            let half = camera.orthographicHeight / 2
            written = .init(name: name, type: "orthographic", orthographic: .init(xmag: half, ymag: half, znear: max(0, camera.near), zfar: far))
        }
        document.cameras = (document.cameras ?? []) + [written]
        cameraIndex[c] = document.cameras!.count - 1
        return cameraIndex[c]!
    }

    private mutating func gltfLight(_ l: Int) -> Int {
        if let known = lightIndex[l] { return known }
        let light = scene.lights[l]
        let type = switch light.kind {
        case .directional: "directional"
        case .point: "point"
        case .spot: "spot"
        case .ambient: "point"  // not reached: ambient lights are left out before
        }
        let written = GLTFDocument.PunctualLight(name: light.name.isEmpty ? nil : light.name, type: type,
                                                 color: light.color == .one ? nil : [light.color.x, light.color.y, light.color.z],
                                                 intensity: light.intensity == 1 ? nil : light.intensity,
                                                 spot: light.kind == .spot ? .init() : nil)
        var extensions = document.extensions ?? .init(KHR_materials_variants: nil, KHR_lights_punctual: nil)
        var lights = extensions.KHR_lights_punctual?.lights ?? []
        lights.append(written)
        extensions.KHR_lights_punctual = .init(lights: lights)
        document.extensions = extensions
        if document.extensionsUsed?.contains("KHR_lights_punctual") != true {
            document.extensionsUsed = (document.extensionsUsed ?? []) + ["KHR_lights_punctual"]
        }
        lightIndex[l] = lights.count - 1
        return lights.count - 1
    }

    /// Light channels as pointers to `/extensions/KHR_lights_punctual/lights/N/color` and `…/intensity`.
    mutating func lightPointerChannels(_ clip: AnimationClip, into animation: inout GLTFDocument.Animation) {
        for channel in clip.lightChannels where !channel.times.isEmpty {
            guard let written = lightIndex[channel.light] else { continue }  // ambient, or placed by no node
            addPointerChannel("/extensions/KHR_lights_punctual/lights/\(written)/\(channel.input.rawValue)", times: channel.times,
                              values: channel.values, type: channel.input == .color ? "VEC3" : "SCALAR",
                              interpolation: channel.interpolation, into: &animation)
        }
    }

    /// The one warning for ambient lights, which glTF cannot hold, and their animation.
    var ambientLightsWarning: Diagnostic? {
        guard !ambientLightsLeftOut.isEmpty else { return nil }
        let channels = scene.animations.flatMap(\.lightChannels).filter { ambientLightsLeftOut.contains($0.light) }.count
        let count = ambientLightsLeftOut.count
        return .warning("glTF has no ambient lights: \(count == 1 ? "1 ambient light" : "\(count) ambient lights") left out"
                        + (channels == 0 ? "" : ", with \(channels == 1 ? "1 animation channel" : "\(channels) animation channels")"))
    }
}

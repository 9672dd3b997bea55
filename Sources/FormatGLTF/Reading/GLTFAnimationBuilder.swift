import AssetCore

/// glTF skins and animations into the scene model, after the node tree is built (both address
/// nodes by index, and a node's path is known only once it is placed).
///
/// Scene skeletons are the file's skins in order, so a mesh instance's `SkinBinding.skeleton` is
/// its node's `skin`. Joints stay ordinary nodes, as glTF has them; channels target node paths.
struct GLTFAnimationBuilder {
    let asset: GLTFAsset
    let accessors: GLTFAccessorReader
    let file: String
    let nodePaths: [Int: String]
    /// KHR_lights_punctual light -> the scene lights made from it.
    let lightsBySource: [Int: [Int]]
    var diagnostics: [Diagnostic] = []

    init(asset: GLTFAsset, accessors: GLTFAccessorReader, file: String, nodePaths: [Int: String], lightsBySource: [Int: [Int]] = [:]) {
        self.asset = asset
        self.accessors = accessors
        self.file = file
        self.nodePaths = nodePaths
        self.lightsBySource = lightsBySource
    }

    mutating func build(into scene: inout Scene) throws(AssetError) {
        for (index, skin) in (asset.skins ?? []).enumerated() {
            scene.skeletons.append(try skeleton(index, skin))
        }
        try checkJointRanges(scene)
        let shapeCounts = blendShapeCounts(scene)
        for (index, animation) in (asset.animations ?? []).enumerated() {
            scene.animations.append(try clip(index, animation, shapeCounts: shapeCounts, materials: scene.materials))
        }
    }

    private mutating func skeleton(_ index: Int, _ skin: GLTFAsset.Skin) throws(AssetError) -> Skeleton {
        let here = SourceLocation(file: file, elementPath: "skins[\(index)]")
        var paths: [String] = []
        var names: [String] = []
        for joint in skin.joints {
            guard asset.nodes?.indices.contains(joint) == true else { throw AssetError(.malformed("joint node \(joint) does not exist"), at: here) }
            if let path = nodePaths[joint] {
                paths.append(path)
            } else {
                diagnostics.append(.warning("joint node \(joint) is not in the scene that is read; meshes follow it at its bind pose", at: here))
                paths.append("")
            }
            names.append(asset.nodes?[joint].name ?? "node\(joint)")
        }
        var inverseBinds = [Matrix4x4](repeating: .identity, count: skin.joints.count)
        if let accessor = skin.inverseBindMatrices {
            let values = try accessors.floats(accessor, allowedComponents: [16], what: "inverseBindMatrices").values
            guard values.count == skin.joints.count * 16 else {
                throw AssetError(.malformed("inverseBindMatrices has \(values.count / 16) matrices for \(skin.joints.count) joints"), at: here)
            }
            for j in 0..<skin.joints.count {
                inverseBinds[j] = Matrix4x4(columnMajor: values[(j * 16)..<(j * 16 + 16)].map(Double.init))
            }
        }
        return Skeleton(name: skin.name ?? "skin\(index)", jointPaths: paths, jointNames: names, inverseBindMatrices: inverseBinds)
    }

    /// One warning per skinned mesh whose joint numbers reach past its skin's joints; skinning then
    /// skips those influences.
    private mutating func checkJointRanges(_ scene: Scene) throws(AssetError) {
        var checked: Set<Int> = []
        for placed in scene.placedMeshes(includingUncounted: true) {
            guard let binding = placed.instance.skin, let weights = scene.meshes[placed.instance.mesh].skinWeights,
                  checked.insert(placed.instance.mesh).inserted else { continue }
            let count = scene.skeletons[binding.skeleton].jointCount
            if let bad = weights.joints.first(where: { Int($0) >= count }) {
                diagnostics.append(.warning("mesh \(scene.meshes[placed.instance.mesh].name) names joint \(bad), but its skin has \(count) joints; those influences are skipped",
                                            at: SourceLocation(file: file, elementPath: placed.nodePath)))
            }
        }
    }

    /// Morph target count per node path, for checking weight channels.
    private func blendShapeCounts(_ scene: Scene) -> [String: Int] {
        var counts: [String: Int] = [:]
        scene.forEachNode { node, visit in
            if let instance = node.meshInstances.first { counts[visit.path] = scene.meshes[instance.mesh].blendShapes.count }
        }
        return counts
    }

    private mutating func clip(_ index: Int, _ animation: GLTFAsset.Animation, shapeCounts: [String: Int],
                               materials: [Material]) throws(AssetError) -> AnimationClip {
        var clip = AnimationClip(name: animation.name ?? "animation\(index)")
        for (c, channel) in animation.channels.enumerated() {
            let here = SourceLocation(file: file, elementPath: "animations[\(index)].channels[\(c)]")
            if let pointer = channel.target.extensions?.KHR_animation_pointer?.pointer, pointer.hasPrefix("/materials/") {
                clip.materialChannels += try materialChannels(pointer, channel: channel, animation: animation, materials: materials, at: here)
                continue
            }
            if let pointer = channel.target.extensions?.KHR_animation_pointer?.pointer, pointer.hasPrefix(Self.lightsPointer) {
                clip.lightChannels += try lightChannels(pointer, channel: channel, animation: animation, at: here)
                continue
            }
            for (node, targetPath) in targets(channel.target, at: here) {
                try add(channel, node: node, targetPath: targetPath, animation: animation, shapeCounts: shapeCounts, to: &clip, at: here)
            }
        }
        return clip
    }

    /// The nodes and TRS/weights paths a channel drives: its `node` and `path`, or a
    /// KHR_animation_pointer to `/nodes/N/{translation,rotation,scale,weights}` or `/meshes/M/weights`
    /// (every node placing the mesh). Any other pointer is named in a warning.
    private mutating func targets(_ target: GLTFAsset.Animation.Channel.Target, at here: SourceLocation) -> [(Int, String)] {
        if let node = target.node { return [(node, target.path)] }
        guard target.path == "pointer", let pointer = target.extensions?.KHR_animation_pointer?.pointer else {
            diagnostics.append(.warning("channel with path '\(target.path)' names no node; ignored", at: here))
            return []
        }
        let parts = pointer.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 4, parts[0].isEmpty, let n = Int(parts[2]), ["translation", "rotation", "scale", "weights"].contains(parts[3]) {
            if parts[1] == "nodes" { return [(n, parts[3])] }
            if parts[1] == "meshes", parts[3] == "weights" {
                let placing = (asset.nodes ?? []).indices.filter { asset.nodes?[$0].mesh == n }
                if placing.isEmpty { diagnostics.append(.warning("KHR_animation_pointer '\(pointer)': no node places mesh \(n); ignored", at: here)) }
                return placing.map { ($0, "weights") }
            }
        }
        diagnostics.append(.warning("KHR_animation_pointer '\(pointer)' animates what assetc's scene does not hold as animation; ignored", at: here))
        return []
    }

    /// KHR_animation_pointer on a material factor: `baseColorFactor` (colour and opacity),
    /// `emissiveFactor` (times the material's emissive strength), `metallicFactor`, `roughnessFactor`.
    /// A factor that scales a texture is not the scene's constant, so those are named and ignored.
    private mutating func materialChannels(_ pointer: String, channel: GLTFAsset.Animation.Channel, animation: GLTFAsset.Animation,
                                           materials: [Material], at here: SourceLocation) throws(AssetError) -> [MaterialAnimationChannel] {
        let parts = pointer.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 4, let m = Int(parts[2]), materials.indices.contains(m) else {
            diagnostics.append(.warning("KHR_animation_pointer '\(pointer)' names no material; ignored", at: here))
            return []
        }
        let material = materials[m]
        let property = parts[3...].joined(separator: "/")
        let inputs: [MaterialAnimationChannel.Input]
        let textured: Bool
        switch property {
        case "pbrMetallicRoughness/baseColorFactor":
            // The alpha of an opaque material is ignored, as glTF's alphaMode says.
            inputs = material.alphaMode == .opaque ? [.baseColor] : [.baseColor, .opacity]
            textured = material.baseColor.texture != nil
        case "emissiveFactor": (inputs, textured) = ([.emissive], material.emissive.texture != nil)
        case "pbrMetallicRoughness/metallicFactor": (inputs, textured) = ([.metallic], material.metallic.texture != nil)
        case "pbrMetallicRoughness/roughnessFactor": (inputs, textured) = ([.roughness], material.roughness.texture != nil)
        default:
            diagnostics.append(.warning("KHR_animation_pointer '\(pointer)' animates a material property assetc does not animate; ignored", at: here))
            return []
        }
        guard !textured else {
            diagnostics.append(.warning("KHR_animation_pointer '\(pointer)' scales a texture, which assetc's material constants do not; ignored", at: here))
            return []
        }
        let width = property.hasSuffix("baseColorFactor") ? 4 : property == "emissiveFactor" ? 3 : 1
        guard let keys = try keyedValues(channel, animation: animation, width: width, at: here) else { return [] }
        let strength = Float(asset.materials?[m].extensions?.KHR_materials_emissive_strength?.emissiveStrength ?? 1)
        return inputs.map { input in
            // Each key's value (and cubic tangent) is a group of `width` numbers: colour first, alpha last.
            let range = input == .opacity ? 3..<4 : 0..<input.components
            var values: [Float] = []
            values.reserveCapacity(keys.values.count / width * range.count)
            for group in stride(from: 0, to: keys.values.count, by: width) {
                for c in range { values.append(input == .emissive ? keys.values[group + c] * strength : keys.values[group + c]) }
            }
            return MaterialAnimationChannel(material: m, input: input, interpolation: keys.interpolation, times: keys.times, values: values)
        }
    }

    static let lightsPointer = "/extensions/KHR_lights_punctual/lights/"

    /// KHR_animation_pointer on a KHR_lights_punctual light's `color` or `intensity`: a channel on
    /// every scene light made from it. Its other properties (range, cone angles) have no place in
    /// the light model and are named in a warning.
    private mutating func lightChannels(_ pointer: String, channel: GLTFAsset.Animation.Channel, animation: GLTFAsset.Animation,
                                        at here: SourceLocation) throws(AssetError) -> [LightAnimationChannel] {
        let parts = pointer.dropFirst(Self.lightsPointer.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, let l = Int(parts[0]), asset.extensions?.KHR_lights_punctual?.lights?.indices.contains(l) == true else {
            diagnostics.append(.warning("KHR_animation_pointer '\(pointer)' names no light; ignored", at: here))
            return []
        }
        guard parts.count == 2, let input = LightAnimationChannel.Input(rawValue: parts[1]) else {
            diagnostics.append(.warning("KHR_animation_pointer '\(pointer)' animates a light property assetc does not animate; ignored", at: here))
            return []
        }
        guard let keys = try keyedValues(channel, animation: animation, width: input.components, at: here) else { return [] }
        let placed = lightsBySource[l] ?? []
        if placed.isEmpty { diagnostics.append(.warning("KHR_animation_pointer '\(pointer)': no node places light \(l); ignored", at: here)) }
        return placed.map { LightAnimationChannel(light: $0, input: input, interpolation: keys.interpolation, times: keys.times, values: keys.values) }
    }

    /// A sampler's keys, checked: ascending finite times, finite values, `width` per key (three sets when cubic).
    private mutating func keyedValues(_ channel: GLTFAsset.Animation.Channel, animation: GLTFAsset.Animation, width: Int,
                                      at here: SourceLocation) throws(AssetError) -> (times: [Double], values: [Float], interpolation: AnimationChannel.Interpolation)? {
        guard animation.samplers.indices.contains(channel.sampler) else {
            throw AssetError(.malformed("sampler \(channel.sampler) does not exist"), at: here)
        }
        let sampler = animation.samplers[channel.sampler]
        let interpolation: AnimationChannel.Interpolation
        switch sampler.interpolation ?? "LINEAR" {
        case "LINEAR": interpolation = .linear
        case "STEP": interpolation = .step
        case "CUBICSPLINE": interpolation = .cubic
        case let other: throw AssetError(.malformed("interpolation '\(other)' is not one glTF defines"), at: here)
        }
        let times = try accessors.floats(sampler.input, allowedComponents: [1], what: "animation input").values.map(Double.init)
        let values = try accessors.floats(sampler.output, allowedComponents: [1, 3, 4], what: "animation output").values
        guard !times.isEmpty else { return nil }
        if let bad = times.firstIndex(where: { !$0.isFinite }) ?? times.indices.dropFirst().first(where: { times[$0 - 1] > times[$0] }) {
            diagnostics.append(.warning("key time \(bad) (\(times[bad])) is not a number or goes backwards; channel ignored", at: here))
            return nil
        }
        let perKey = width * (interpolation == .cubic ? 3 : 1)
        guard values.count == times.count * perKey else {
            diagnostics.append(.warning("\(values.count) output values for \(times.count) keys of \(perKey); channel ignored", at: here))
            return nil
        }
        if values.contains(where: { !$0.isFinite }) {
            diagnostics.append(.warning("an output value is not a finite number; channel ignored", at: here))
            return nil
        }
        return (times, values, interpolation)
    }

    private mutating func add(_ channel: GLTFAsset.Animation.Channel, node: Int, targetPath: String, animation: GLTFAsset.Animation,
                              shapeCounts: [String: Int], to clip: inout AnimationClip, at here: SourceLocation) throws(AssetError) {
        guard let path = nodePaths[node] else {
            diagnostics.append(.warning("channel targets node \(node), which is not in the scene that is read; ignored", at: here))
            return
        }
        let property: AnimationChannel.Property
        switch targetPath {
        case "translation": property = .translation
        case "rotation": property = .rotation
        case "scale": property = .scale
        case "weights":
            guard let count = shapeCounts[path], count > 0 else {
                diagnostics.append(.warning("weights channel targets node \(node), whose mesh has no morph targets; ignored", at: here))
                return
            }
            property = .blendShapeWeights(count: count)
        default:
            diagnostics.append(.warning("channel path '\(targetPath)' is not one assetc animates; ignored", at: here))
            return
        }
        guard let keys = try keyedValues(channel, animation: animation, width: property.components, at: here) else { return }
        clip.channels.append(AnimationChannel(nodePath: path, property: property, interpolation: keys.interpolation, times: keys.times, values: keys.values))
    }
}

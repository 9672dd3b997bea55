import AssetCore

/// Poses the scene at `--time`: the output holds that pose as static geometry.
public struct PoseAnimationPass: ScenePass {
    public let name = "pose"
    let time: Double

    public init(time: Double) { self.time = time }

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        scene = scene.posed(at: time)
        scene.skeletons = []
        // Posing adds a deformed copy per deformed instance; the bind-pose meshes nothing places
        // any more are dropped, so writers that write every mesh (Collada) do not carry them.
        var flat = FlatNodeTree(scene.root)
        var used = [Bool](repeating: false, count: scene.meshes.count)
        for node in flat.nodes { for instance in node.meshInstances where used.indices.contains(instance.mesh) { used[instance.mesh] = true } }
        guard used.contains(false) else { return }
        var renumbered = [Int](repeating: -1, count: used.count)
        var kept: [Mesh] = []
        for (i, mesh) in scene.meshes.enumerated() where used[i] {
            renumbered[i] = kept.count
            kept.append(mesh)
        }
        for i in flat.nodes.indices {
            // Instances naming no mesh are left as they are (writers skip them).
            for k in flat.nodes[i].meshInstances.indices where renumbered.indices.contains(flat.nodes[i].meshInstances[k].mesh) {
                flat.nodes[i].meshInstances[k].mesh = renumbered[flat.nodes[i].meshInstances[k].mesh]
            }
        }
        scene.meshes = kept
        scene.root = flat.rebuilt()
    }
}

/// For formats that cannot animate (and writers that do not write animation): skins, blend shapes
/// and clips are left out with one warning that counts them, and geometry stays at its bind pose.
public struct DropAnimationPass: ScenePass {
    public let name = "drop animation"
    let format: String

    public init(format: String) { self.format = format }

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        let shapes = scene.meshes.reduce(0) { $0 + $1.blendShapes.count }
        let clips = scene.animations.filter { $0.timeRange != nil }.count
        guard !scene.skeletons.isEmpty || shapes > 0 || clips > 0 else { return }
        var dropped: [String] = []
        if clips > 0 { dropped.append(clips == 1 ? "1 animation clip" : "\(clips) animation clips") }
        if !scene.skeletons.isEmpty { dropped.append(scene.skeletons.count == 1 ? "1 skeleton" : "\(scene.skeletons.count) skeletons") }
        if shapes > 0 { dropped.append(shapes == 1 ? "1 blend shape" : "\(shapes) blend shapes") }
        diagnostics.append(.warning("\(format) output keeps no animation: \(dropped.joined(separator: ", ")) left out; geometry is at its bind pose (--time T poses it)"))
        scene.animations = []
        scene.skeletons = []
        for i in scene.meshes.indices {
            scene.meshes[i].skinWeights = nil
            scene.meshes[i].blendShapes = []
        }
        var flat = FlatNodeTree(scene.root)
        for i in flat.nodes.indices {
            for k in flat.nodes[i].meshInstances.indices {
                flat.nodes[i].meshInstances[k].skin = nil
                flat.nodes[i].meshInstances[k].blendShapeWeights = []
            }
        }
        scene.root = flat.rebuilt()
    }
}

/// For formats that animate nodes but not materials (Collada as assetc writes it): material channels
/// are left out with one warning that counts them, and each material keeps its constants at rest.
public struct DropMaterialAnimationPass: ScenePass {
    public let name = "drop material animation"
    let format: String

    public init(format: String) { self.format = format }

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        let channels = scene.animations.reduce(0) { $0 + $1.materialChannels.count }
        guard channels > 0 else { return }
        let materials = Set(scene.animations.flatMap { $0.materialChannels.map(\.material) })
        let names = materials.sorted().prefix(5).map { scene.materials.indices.contains($0) ? scene.materials[$0].name : "#\($0)" }
        diagnostics.append(.warning("\(format) output animates no material inputs: \(channels == 1 ? "1 channel" : "\(channels) channels") on "
                                    + "\(materials.count == 1 ? "material" : "materials") \(names.joined(separator: ", "))\(materials.count > 5 ? ", ..." : "") "
                                    + "left out; the materials keep their rest values"))
        // A clip that animated only materials is left out whole, rather than kept as a clip of no keys.
        scene.animations.removeAll { $0.channels.isEmpty && $0.lightChannels.isEmpty && !$0.materialChannels.isEmpty }
        for i in scene.animations.indices { scene.animations[i].materialChannels = [] }
    }
}

import AssetCore

/// Converts a scene to another up axis and/or unit by transforming the top of the hierarchy, the
/// way Apple's and Blender's tools do: Z-up to Y-up turns the root -90 degrees about X, so what
/// stood along +Z stands along +Y; a unit change scales the root. Geometry is left as authored.
public struct AxisAndUnitsPass: ScenePass {
    public let name = "up axis and units"
    public var upAxis: UpAxis?
    public var metersPerUnit: Double?

    public init(upAxis: UpAxis?, metersPerUnit: Double?) {
        self.upAxis = upAxis
        self.metersPerUnit = metersPerUnit
    }

    /// The rotation that takes `from`-up content to `to`-up.
    public static func rotation(from: UpAxis, to: UpAxis) -> Matrix4x4 {
        let x = SIMD3<Double>(1, 0, 0), z = SIMD3<Double>(0, 0, 1)
        switch (from, to) {
        case (.z, .y): return .rotation(axis: x, degrees: -90)
        case (.y, .z): return .rotation(axis: x, degrees: 90)
        case (.x, .y): return .rotation(axis: z, degrees: 90)
        case (.y, .x): return .rotation(axis: z, degrees: -90)
        case (.x, .z): return rotation(from: .y, to: .z) * rotation(from: .x, to: .y)
        case (.z, .x): return rotation(from: .y, to: .x) * rotation(from: .z, to: .y)
        default: return .identity
        }
    }

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        var correction = Matrix4x4.identity
        if let upAxis, upAxis != scene.metadata.upAxis {
            correction = Self.rotation(from: scene.metadata.upAxis, to: upAxis)
            scene.metadata.upAxis = upAxis
        }
        if let metersPerUnit, metersPerUnit != scene.metadata.metersPerUnit {
            correction = .scale(SIMD3(repeating: scene.metadata.metersPerUnit / metersPerUnit)) * correction
            scene.metadata.metersPerUnit = metersPerUnit
        }
        guard !correction.isIdentity else { return }
        let tops = Set(scene.root.children.map { "/" + $0.name })
        if scene.animations.contains(where: { $0.channels.contains { tops.contains($0.nodePath) } }) {
            // An animated top node's keys replace its whole local transform, correction included;
            // the correction moves up to a node of its own instead.
            Self.nestTopNodes(&scene, under: correction)
            return
        }
        for i in scene.root.children.indices {
            scene.root.children[i].transform = correction * scene.root.children[i].transform
        }
        // Nodes that reset the transform stack ignore their ancestors, so they take it themselves.
        Self.correctResets(&scene.root, correction: correction, isTop: true)
    }

    /// Every top node under one new node carrying `transform`, with channel targets and joint
    /// paths moved along.
    static func nestTopNodes(_ scene: inout Scene, under transform: Matrix4x4) {
        var name = "AxisAndUnits"
        while scene.root.children.contains(where: { $0.name == name }) { name += "_" }
        let prefix = "/" + name
        scene.root.children = [Node(name: name, typeName: "Xform", transform: transform, children: scene.root.children)]
        for c in scene.animations.indices {
            for k in scene.animations[c].channels.indices { scene.animations[c].channels[k].nodePath = prefix + scene.animations[c].channels[k].nodePath }
        }
        for s in scene.skeletons.indices {
            scene.skeletons[s].jointPaths = scene.skeletons[s].jointPaths.map { $0.isEmpty ? $0 : prefix + $0 }
            scene.skeletons[s].skeletonPath = scene.skeletons[s].skeletonPath.map { prefix + $0 }
        }
    }

    private static func correctResets(_ node: inout Node, correction: Matrix4x4, isTop: Bool) {
        for i in node.children.indices {
            if node.children[i].resetsTransformStack && !isTop {
                node.children[i].transform = correction * node.children[i].transform
            }
            correctResets(&node.children[i], correction: correction, isTop: false)
        }
    }
}

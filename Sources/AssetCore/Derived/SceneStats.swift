/// The figures `assetc info` and the catalog report. Geometry figures are summed over mesh instances
/// placed in the world (an instanced mesh counts once per placement) and over counted nodes only
/// (see `NodeVisit.isCounted`). Authored meshes and tessellated intrinsic shapes are kept apart,
/// because usd-core's figures count authored Mesh prims only.
public struct SceneStats: Sendable, Equatable, Codable {
    /// Every node below the pseudo-root.
    public var nodes = 0
    /// Authored mesh instances.
    public var meshes = 0
    public var points = 0
    public var faces = 0
    /// Sum of (n - 2) over faces of n >= 3 vertices.
    public var triangles = 0
    /// Instances of tessellated intrinsic shapes (USD Cube, Sphere, ...).
    public var primitives = 0
    /// Placed curves (each polyline once per placement) and the line segments they draw.
    public var curves = 0
    public var segments = 0
    /// Splat sets placed (each once per placement), the splats they hold, and the highest SH
    /// degree among them (0 without splats).
    public var splatSets = 0
    public var splats = 0
    public var splatSHDegree = 0
    public var materials = 0
    public var textures = 0
    public var cameras = 0
    public var lights = 0
    public var skeletons = 0
    public var joints = 0
    /// Counted mesh instances bound to a skeleton.
    public var skinnedMeshes = 0
    /// Blend shapes over the meshes counted instances place (each mesh once).
    public var blendShapes = 0
    /// Animation clips with keys.
    public var animations = 0
    /// Seconds: the authored time range where the source has one (USD start and end time codes),
    /// else the longest clip's span of key times; 0 without animation.
    public var duration = 0.0
    /// Nodes other than joints whose transform the animation changes.
    public var animatedNodes = 0
    /// Materials whose inputs (colour, opacity, ...) the animation changes.
    public var animatedMaterials = 0
    public var animatedLights = 0

    public init() {}
}

extension Scene {
    public var stats: SceneStats {
        var stats = SceneStats()
        stats.materials = materials.count
        stats.textures = textures.count
        stats.cameras = cameras.count
        stats.lights = lights.count
        // Triangle counts are per mesh; cache them so a mesh instanced many times is summed once.
        var triangleCounts = [Int?](repeating: nil, count: meshes.count)
        stats.skeletons = skeletons.count
        stats.joints = skeletons.reduce(0) { $0 + $1.jointCount }
        stats.animations = animations.filter { $0.timeRange != nil }.count
        stats.duration = animationDuration
        stats.animatedNodes = animatedNodePaths.count
        stats.animatedMaterials = Set(animations.flatMap { $0.materialChannels.filter { !$0.times.isEmpty }.map(\.material) }).count
        stats.animatedLights = Set(animations.flatMap { $0.lightChannels.filter { !$0.times.isEmpty }.map(\.light) }).count
        var shapedMeshes = Set<Int>()
        forEachNode { node, visit in
            // Joints are the skeleton's, not scene nodes: usd-core has no prim for them.
            guard !node.isJoint else { return }
            stats.nodes += 1
            guard visit.isCounted else { return }
            for instance in node.splatInstances where splats.indices.contains(instance.splats) {
                stats.splatSets += 1
                stats.splats += splats[instance.splats].count
                stats.splatSHDegree = max(stats.splatSHDegree, splats[instance.splats].shDegree)
            }
            for instance in node.curvesInstances where curves.indices.contains(instance.curves) {
                stats.curves += curves[instance.curves].curveVertexCounts.count
                stats.segments += curves[instance.curves].segmentCount
            }
            for instance in node.meshInstances where meshes.indices.contains(instance.mesh) {
                let mesh = meshes[instance.mesh]
                guard mesh.origin.isAuthored else {
                    stats.primitives += 1
                    continue
                }
                stats.meshes += 1
                if instance.skin != nil { stats.skinnedMeshes += 1 }
                if !mesh.blendShapes.isEmpty, shapedMeshes.insert(instance.mesh).inserted { stats.blendShapes += mesh.blendShapes.count }
                stats.points += mesh.points.count
                stats.faces += mesh.faceVertexCounts.count
                if triangleCounts[instance.mesh] == nil { triangleCounts[instance.mesh] = mesh.triangleCount }
                stats.triangles += triangleCounts[instance.mesh]!
            }
        }
        return stats
    }
}


extension Scene {
    /// Seconds of animation: see `SceneStats.duration`.
    public var animationDuration: Double {
        guard isAnimated else { return 0 }
        if let start = metadata.startTimeCode, let end = metadata.endTimeCode, end >= start {
            return (end - start) / (metadata.timeCodesPerSecond ?? 24)
        }
        return animations.compactMap(\.timeRange).map { $0.upperBound - $0.lowerBound }.max() ?? 0
    }

    /// The seconds the first clip plays over: the authored range where the source has one (USD
    /// start and end time codes), else its keys' span; nil without animation.
    public var animationTimeRange: ClosedRange<Double>? {
        guard isAnimated else { return nil }
        if let start = metadata.startTimeCode, let end = metadata.endTimeCode, end >= start {
            let rate = metadata.timeCodesPerSecond ?? 24
            return (start / rate)...(end / rate)
        }
        return animations.first?.timeRange
    }

    /// `count` evenly spaced times over `animationTimeRange`, first and last included.
    public func frameTimes(_ count: Int) -> [Double] {
        guard let range = animationTimeRange, count > 0 else { return [] }
        guard count > 1 else { return [range.lowerBound] }
        return (0..<count).map { range.lowerBound + (range.upperBound - range.lowerBound) * Double($0) / Double(count - 1) }
    }

    /// Paths of non-joint nodes a transform channel with keys targets, whether its keys move the
    /// node or hold it in a pose (a Collada clip holding a scale of 0 for 5 s is animation too).
    public var animatedNodePaths: Set<String> {
        var joints = Set<String>()
        for skeleton in skeletons { joints.formUnion(skeleton.jointPaths) }
        var paths = Set<String>()
        for clip in animations {
            for channel in clip.channels where channel.property.isTransform && !channel.times.isEmpty && !joints.contains(channel.nodePath) {
                paths.insert(channel.nodePath)
            }
        }
        return paths
    }
}

import AssetCore

/// A clip in `assetc info --json`.
public struct ClipReport: Sendable, Equatable, Encodable {
    public var name: String
    public var start: Double
    public var end: Double
}

/// The `assetc info --json` contract (Docs/CLI.md): one object per asset. Geometry figures come from
/// `SceneStats`, bounds are world space in the file's own units and axes.
public struct AssetInfo: Sendable, Equatable, Encodable {
    public var file: String
    /// What the file was read as; nil only for a scene made in memory.
    public var format: AssetFormat?
    public var upAxis: UpAxis
    /// nil (JSON null) when the format carries no unit and none was given (`--source-meters-per-unit`).
    public var metersPerUnit: Double?
    public var nodes: Int
    public var meshes: Int
    public var points: Int
    public var faces: Int
    public var triangles: Int
    public var primitives: Int
    /// Placed polylines and the line segments they draw.
    public var curves: Int
    public var segments: Int
    /// Gaussian splats placed, and the highest spherical-harmonic degree among their sets.
    public var splats: Int
    public var splatSHDegree: Int
    public var materials: Int
    /// Names of the material variants, in order (empty without any).
    public var materialVariants: [String]
    /// Each material's name and the shading model it was read from (`UsdPreviewSurface`,
    /// `MaterialX open_pbr_surface`, `glTF metallic-roughness`, ...; null where none was found).
    public var materialSources: [MaterialSource]
    public var textures: Int
    public var cameras: Int
    public var lights: Int
    public var skeletons: Int
    public var joints: Int
    public var skinnedMeshes: Int
    public var blendShapes: Int
    /// Clips with keys; a USD stage with any animation is one clip.
    public var animations: Int
    /// Seconds; 0 without animation.
    public var duration: Double
    /// Each clip with keys: its name and the first and last key time in seconds.
    public var clips: [ClipReport]
    /// Nodes other than joints whose transform the animation changes.
    public var animatedNodes: Int
    /// Materials whose colour, opacity or other constants the animation changes.
    public var animatedMaterials: Int
    public var animatedLights: Int
    /// The time `bounds` were taken at (`--time`), nil for the scene as authored.
    public var time: Double?
    /// nil (JSON null) when the scene places no geometry.
    public var bounds: BoundsReport?
    public var boundsInMeters: BoundsReport?
    public var generator: String?
    public var defaultPrim: String?
    /// Every node's path, in traversal order.
    public var nodePaths: [String]
    public var warnings: [String]

    /// With `poseTime`, bounds are those of the scene posed at that time; every count is the scene's
    /// as read. `worldBounds`, when given, are those bounds already found (by the renderer's
    /// framing of the same posed scene).
    public init(file: String, result: ReadResult, poseTime: Double? = nil, worldBounds: Bounds3? = nil) {
        let scene = result.scene
        let stats = scene.stats
        let bounds = worldBounds ?? (poseTime.map { scene.posed(at: $0) } ?? scene).worldBounds
        self.file = file
        format = scene.metadata.sourceFormat
        upAxis = scene.metadata.upAxis
        metersPerUnit = scene.metadata.declaresUnits ? scene.metadata.metersPerUnit : nil
        nodes = stats.nodes
        meshes = stats.meshes
        points = stats.points
        faces = stats.faces
        triangles = stats.triangles
        primitives = stats.primitives
        curves = stats.curves
        segments = stats.segments
        splats = stats.splats
        splatSHDegree = stats.splatSHDegree
        materials = stats.materials
        materialVariants = scene.materialVariants
        materialSources = scene.materials.map { MaterialSource(name: $0.name, source: $0.shadingSource) }
        textures = stats.textures
        cameras = stats.cameras
        lights = stats.lights
        skeletons = stats.skeletons
        joints = stats.joints
        skinnedMeshes = stats.skinnedMeshes
        blendShapes = stats.blendShapes
        animations = stats.animations
        duration = stats.duration
        clips = scene.animations.compactMap { clip in clip.timeRange.map { ClipReport(name: clip.name, start: $0.lowerBound, end: $0.upperBound) } }
        animatedNodes = stats.animatedNodes
        animatedMaterials = stats.animatedMaterials
        animatedLights = stats.animatedLights
        time = poseTime
        self.bounds = bounds.isEmpty ? nil : BoundsReport(bounds)
        boundsInMeters = bounds.isEmpty ? nil : BoundsReport(bounds.scaled(by: scene.metadata.metersPerUnit))
        generator = scene.metadata.generator
        defaultPrim = scene.metadata.defaultPrim
        var paths: [String] = []
        scene.forEachNode { _, visit in paths.append(visit.path) }
        nodePaths = paths
        warnings = result.warnings.map(\.description)
    }

    private enum CodingKeys: String, CodingKey {
        case file, format, upAxis, metersPerUnit, nodes, meshes, points, faces, triangles, primitives, curves, segments, splats, splatSHDegree
        case materials, materialVariants, materialSources, textures, cameras, lights, skeletons, joints, skinnedMeshes, blendShapes, animations, duration, clips
        case animatedNodes, animatedMaterials, animatedLights, time, bounds, boundsInMeters, generator, defaultPrim, nodePaths, warnings
    }

    // Written by hand so absent bounds and names are an explicit null, as the contract promises,
    // rather than a missing key.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(format, forKey: .format)
        try c.encode(upAxis, forKey: .upAxis)
        try c.encode(metersPerUnit, forKey: .metersPerUnit)
        try c.encode(nodes, forKey: .nodes)
        try c.encode(meshes, forKey: .meshes)
        try c.encode(points, forKey: .points)
        try c.encode(faces, forKey: .faces)
        try c.encode(triangles, forKey: .triangles)
        try c.encode(primitives, forKey: .primitives)
        try c.encode(curves, forKey: .curves)
        try c.encode(segments, forKey: .segments)
        try c.encode(splats, forKey: .splats)
        try c.encode(splatSHDegree, forKey: .splatSHDegree)
        try c.encode(materials, forKey: .materials)
        try c.encode(materialVariants, forKey: .materialVariants)
        try c.encode(materialSources, forKey: .materialSources)
        try c.encode(textures, forKey: .textures)
        try c.encode(cameras, forKey: .cameras)
        try c.encode(lights, forKey: .lights)
        try c.encode(skeletons, forKey: .skeletons)
        try c.encode(joints, forKey: .joints)
        try c.encode(skinnedMeshes, forKey: .skinnedMeshes)
        try c.encode(blendShapes, forKey: .blendShapes)
        try c.encode(animations, forKey: .animations)
        try c.encode(duration, forKey: .duration)
        try c.encode(clips, forKey: .clips)
        try c.encode(animatedNodes, forKey: .animatedNodes)
        try c.encode(animatedMaterials, forKey: .animatedMaterials)
        try c.encode(animatedLights, forKey: .animatedLights)
        try c.encode(time, forKey: .time)
        try c.encode(bounds, forKey: .bounds)
        try c.encode(boundsInMeters, forKey: .boundsInMeters)
        try c.encode(generator, forKey: .generator)
        try c.encode(defaultPrim, forKey: .defaultPrim)
        try c.encode(nodePaths, forKey: .nodePaths)
        try c.encode(warnings, forKey: .warnings)
    }
}

/// `{"min":[x,y,z],"max":[x,y,z]}`.
public struct BoundsReport: Sendable, Equatable, Codable {
    public var min: [Double]
    public var max: [Double]

    public init(_ bounds: Bounds3) {
        min = [bounds.min.x, bounds.min.y, bounds.min.z]
        max = [bounds.max.x, bounds.max.y, bounds.max.z]
    }
}

/// A material's name and the shading model it was read from.
public struct MaterialSource: Sendable, Equatable, Encodable {
    public var name: String
    public var source: String?

    private enum CodingKeys: String, CodingKey { case name, source }

    // By hand, so an unknown source is an explicit null.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(source, forKey: .source)
    }
}

import AssetCore

/// A Collada document shaped like the format: libraries keyed by id, elements kept as the file
/// writes them. `ColladaSceneBuilder` turns it into a `Scene`.
struct ColladaDocument {
    var file: String
    var upAxis: UpAxis = .y
    var meter: Double = 1
    var authoringTool: String?
    var geometries: [String: ColladaGeometry] = [:]
    var controllers: [String: ColladaController] = [:]
    var materials: [String: ColladaMaterial] = [:]
    var effects: [String: ColladaEffect] = [:]
    var images: [String: ColladaImage] = [:]
    /// Every `<node>` with an id, from library_nodes and the visual scenes, for `instance_node`.
    var nodes: [String: ColladaNode] = [:]
    var visualScenes: [String: ColladaVisualScene] = [:]
    var visualSceneOrder: [String] = []
    var cameras: [String: ColladaCamera] = [:]
    var lights: [String: ColladaLight] = [:]
    /// `<scene><instance_visual_scene url>`, without the `#`.
    var sceneURL: String?
    var animations: [ColladaAnimation] = []
    var animationClips: [ColladaAnimationClip] = []

    func location(line: Int, element: String? = nil) -> SourceLocation {
        SourceLocation(file: file, line: line, elementPath: element)
    }
}

struct ColladaSource {
    var id: String
    var floats: [Float]
    var count: Int
    var stride: Int
    var offset: Int
    /// Positions (within a stride) of the params that have names; unnamed params are skipped.
    var componentOffsets: [Int]
    var line: Int
}

struct ColladaInput {
    var semantic: String
    var source: String
    var offset: Int
    var set: Int?
}

struct ColladaPrimitive {
    enum Kind: String {
        case triangles, polylist, polygons, tristrips, trifans, lines, linestrips
    }

    var kind: Kind
    var material: String?
    var count: Int
    var inputs: [ColladaInput]
    /// One list for triangles/polylist; one per `<p>` for polygons, strips and fans.
    var lists: [[Int32]]
    var vcount: [Int32]
    var hasHoles: Bool
    var line: Int
}

struct ColladaGeometry {
    var id: String
    var name: String
    var sources: [String: ColladaSource] = [:]
    var verticesID: String?
    var vertexInputs: [ColladaInput] = []
    var primitives: [ColladaPrimitive] = []
    /// `convex_mesh`, `spline` and the like: not a `<mesh>`.
    var unsupportedKind: String?
    var line: Int
}

struct ColladaController {
    var id: String
    /// `<skin source>` or `<morph source>`, without the `#`.
    var source: String
    var isMorph: Bool
    /// Row-major, as written.
    var bindShapeMatrix: [Double]?
    var line: Int
    /// Skin: joint names (sids, or ids for IDREF_array), one inverse bind matrix each (row-major),
    /// and per vertex of the source, its (joint, weight) pairs; joint -1 is the bind shape itself.
    var jointNames: [String] = []
    var jointsAreIDs = false
    var inverseBindMatrices: [[Double]] = []
    var vertexInfluences: [[(joint: Int32, weight: Float)]] = []
    /// Morph: target geometry ids, their default weights, RELATIVE or NORMALIZED, and the id of
    /// the weights source (animation channels target it).
    var morphTargets: [String] = []
    var morphWeights: [Float] = []
    var morphMethod = "NORMALIZED"
    var morphWeightsSource: String?
}

/// `<animation>` contents, nested animations flattened: samplers by id and the channels that
/// drive targets (`node/sid.member`) from them. `<source>`s keep floats or names.
struct ColladaAnimation {
    struct Sampler {
        var inputs: [String: String]
    }
    struct Channel {
        var sampler: String
        var target: String
        var line: Int
        /// The ids of the nested `<animation>`s around the channel, outermost first, so a clip
        /// that instances a nested animation plays only its channels.
        var within: [String] = []
    }
    var id: String
    var sources: [String: ColladaAnimationSource] = [:]
    var samplers: [String: Sampler] = [:]
    var channels: [Channel] = []
    var line: Int

    /// Whether this animation is, or holds, the animation with that id.
    func holds(_ id: String) -> Bool { self.id == id || channels.contains { $0.within.contains(id) } }

    /// This animation reduced to the channels of the one with that id (itself or a nested one).
    func part(_ id: String) -> ColladaAnimation {
        guard id != self.id else { return self }
        var part = self
        part.channels = channels.filter { $0.within.contains(id) }
        return part
    }
}

struct ColladaAnimationSource {
    var floats: [Float]
    var names: [String]
    var stride: Int
}

struct ColladaAnimationClip {
    var id: String
    var name: String
    var start: Double
    var end: Double?
    var animations: [String]
    var line: Int
}

struct ColladaMaterialBinding {
    var materialID: String
    /// Texcoord symbol (`UVSET0`) -> the TEXCOORD set it reads.
    var texcoordSets: [String: Int]
}

struct ColladaInstance {
    enum Kind {
        case geometry, controller, node, camera, light
    }

    var kind: Kind
    var url: String
    /// `<skeleton>` roots of an `instance_controller`, without the `#`: where joint sids resolve.
    var skeletons: [String] = []
    /// Material symbol -> binding, for geometry and controller instances.
    var materials: [String: ColladaMaterialBinding]
    var line: Int
}

enum ColladaTransform {
    case matrix([Double])
    case translate([Double])
    case rotate([Double])
    case scale([Double])
    case lookat([Double])
    case skew([Double])
}

struct ColladaNode {
    var id: String?
    var name: String
    var transforms: [(ColladaTransform, line: Int, sid: String?)] = []
    var sid: String?
    /// `type="JOINT"`.
    var isJoint = false
    var instances: [ColladaInstance] = []
    var children: [ColladaNode] = []
    var line: Int
}

struct ColladaVisualScene {
    var id: String
    var nodes: [ColladaNode]
}

struct ColladaMaterial {
    var id: String
    var name: String
    var effect: String?
    var line: Int
}

/// A colour-or-texture channel of a profile_COMMON technique.
enum ColladaChannel {
    case color(SIMD4<Double>)
    case texture(sampler: String, texcoord: String)
}

struct ColladaEffect {
    var id: String
    var shading: String
    var channels: [String: ColladaChannel] = [:]
    var values: [String: Double] = [:]
    /// `<transparent opaque>`: A_ONE (default), RGB_ZERO, A_ZERO, RGB_ONE.
    var opaqueMode = "A_ONE"
    /// newparam sid -> the image id its sampler or surface leads to.
    var samplers: [String: String] = [:]
    var surfaces: [String: String] = [:]
    /// sid -> the technique channel it holds (`<color sid="diffuse-color">` under `<diffuse>`, a
    /// `<newparam>` a channel's `<param ref>` names, the technique's own sid as ""): what animation
    /// channel targets such as `effect/common/diffuse-color` address.
    var sids: [String: String] = [:]
    var isDoubleSided = false
    var line: Int
}

struct ColladaImage {
    var id: String
    var path: String
    var line: Int
}

struct ColladaCamera {
    var id: String
    var name: String
    var yfov: Double?
    var xfov: Double?
    var aspect: Double?
    var ymag: Double?
    var near: Double?
    var far: Double?
}

struct ColladaLight {
    var id: String
    var name: String
    var kind: Light.Kind
    var color: SIMD3<Float>
}

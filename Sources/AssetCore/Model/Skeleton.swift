/// A joint hierarchy that deforms meshes: a UsdSkel Skeleton, a glTF skin, a Collada skin's joints.
///
/// Joints are nodes of the scene (`Node.isJoint`), so animation channels, attachments under a joint and
/// the posing code treat them like any node: a joint's pose is its node's world transform. USD's
/// Skeleton prims are read into joint nodes under the Skeleton's node, one per joint token.
public struct Skeleton: Sendable, Equatable {
    public var name: String
    /// Each joint's node, as a path from the scene root (`/Root/Armature/Hips/Spine`), parents before
    /// children where the source orders them so.
    public var jointPaths: [String]
    /// Joint names as the source gives them: USD joint tokens (`Hips/Spine`), glTF node names,
    /// Collada joint sids. Writers of the same format write these back.
    public var jointNames: [String]
    /// Per joint, the inverse of its bind transform, in the convention every format reduces to:
    /// a point `p` of a skinned mesh lands at `Σ w · world(joint) · inverseBind · geomBind · p`.
    /// (USD: the inverse of `bindTransforms`, which are in the Skeleton's space; glTF and Collada:
    /// `inverseBindMatrices` and `INV_BIND_MATRIX` as stored.)
    public var inverseBindMatrices: [Matrix4x4]
    /// The node of the Skeleton prim for USD sources (joint paths are under it), nil where joints
    /// are ordinary nodes of the hierarchy (glTF, Collada).
    public var skeletonPath: String?

    public init(name: String, jointPaths: [String], jointNames: [String], inverseBindMatrices: [Matrix4x4], skeletonPath: String? = nil) {
        self.name = name
        self.jointPaths = jointPaths
        self.jointNames = jointNames
        self.inverseBindMatrices = inverseBindMatrices
        self.skeletonPath = skeletonPath
    }

    public var jointCount: Int { jointPaths.count }
}

/// Which joints move each point of a mesh, and how much: `influencesPerPoint` consecutive
/// (joint, weight) pairs per point, joint numbers counting into `Skeleton.jointPaths`.
/// Any number of influences is kept (USD's elementSize, Collada's vcount); glTF's sets of four are
/// concatenated.
public struct SkinWeights: Sendable, Equatable {
    public var influencesPerPoint: Int
    public var joints: [Int32]
    public var weights: [Float]

    public init(influencesPerPoint: Int, joints: [Int32], weights: [Float]) {
        self.influencesPerPoint = influencesPerPoint
        self.joints = joints
        self.weights = weights
    }

    public var pointCount: Int { influencesPerPoint == 0 ? 0 : joints.count / influencesPerPoint }
}

/// A mesh instance's tie to a skeleton.
public struct SkinBinding: Sendable, Equatable {
    public var skeleton: Int
    /// USD's `primvars:skel:geomBindTransform`, Collada's `bind_shape_matrix`; identity for glTF.
    public var geomBindTransform: Matrix4x4

    public init(skeleton: Int, geomBindTransform: Matrix4x4 = .identity) {
        self.skeleton = skeleton
        self.geomBindTransform = geomBindTransform
    }
}

/// A morph target: point offsets added to the mesh in proportion to its weight.
public struct BlendShape: Sendable, Equatable {
    public var name: String
    /// One offset per point, or per entry of `pointIndices` when the shape is sparse.
    public var offsets: [SIMD3<Float>]
    public var normalOffsets: [SIMD3<Float>]?
    /// The points `offsets` apply to; nil when the shape covers every point.
    public var pointIndices: [Int32]?
    /// USD's in-between shapes: offsets reached at a weight between 0 and 1, in ascending weight.
    public var inbetweens: [Inbetween]

    public init(name: String, offsets: [SIMD3<Float>], normalOffsets: [SIMD3<Float>]? = nil, pointIndices: [Int32]? = nil, inbetweens: [Inbetween] = []) {
        self.name = name
        self.offsets = offsets
        self.normalOffsets = normalOffsets
        self.pointIndices = pointIndices
        self.inbetweens = inbetweens
    }

    public struct Inbetween: Sendable, Equatable {
        public var name: String
        public var weight: Float
        public var offsets: [SIMD3<Float>]
        public var normalOffsets: [SIMD3<Float>]?

        public init(name: String, weight: Float, offsets: [SIMD3<Float>], normalOffsets: [SIMD3<Float>]? = nil) {
            self.name = name
            self.weight = weight
            self.offsets = offsets
            self.normalOffsets = normalOffsets
        }
    }
}

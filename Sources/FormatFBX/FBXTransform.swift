import AssetCore
import Foundation

/// The FBX transform stack of a model, as the FBX SDK documents it (and Blender and assimp read it):
///
///     local = T · Roff · Rp · Rpre · R · Rpost⁻¹ · Rp⁻¹ · Soff · Sp · S · Sp⁻¹
///
/// with R, Rpre and Rpost Euler angles in degrees in the model's RotationOrder. The geometric
/// transform (GeometricTranslation/Rotation/Scaling) moves the attached geometry only, so it is
/// baked into the mesh, not the node.
struct FBXTransform: Sendable {
    var translation = SIMD3<Double>.zero
    var rotation = SIMD3<Double>.zero
    var scaling = SIMD3<Double>.one
    var preRotation = SIMD3<Double>.zero
    var postRotation = SIMD3<Double>.zero
    var rotationOffset = SIMD3<Double>.zero
    var rotationPivot = SIMD3<Double>.zero
    var scalingOffset = SIMD3<Double>.zero
    var scalingPivot = SIMD3<Double>.zero
    var rotationOrder = 0
    /// The file's RotationOrder is none of FBX's seven (XYZ is used instead).
    var isRotationOrderUnknown = false
    /// 0 RrSs, 1 RSrs (a plain product), 2 Rrs (the parent's scale not inherited).
    var inheritType = 1
    var geometric = Matrix4x4.identity
    /// Under InheritType 2 (Rrs, Maya's segment scale compensation) the inverse of the parent's rest
    /// scale, placed after the translation as Maya places it (T · S⁻¹ · R · S): the child's position
    /// still scales with its parent, its rotation and size do not.
    var compensation = Matrix4x4.identity

    init(_ model: FBXObject) {
        translation = model.vector("Lcl Translation") ?? .zero
        rotation = model.vector("Lcl Rotation") ?? .zero
        scaling = model.vector("Lcl Scaling") ?? .one
        rotationOrder = model.integer("RotationOrder") ?? 0
        if model.properties["RotationOrder"] != nil, !(0...6).contains(model.integer("RotationOrder") ?? -1) {
            rotationOrder = 0
            isRotationOrderUnknown = true
        }
        // Pre and post rotation count only while RotationActive is set, as in the FBX SDK; exporters
        // that write them set it.
        if (model.number("RotationActive") ?? 1) != 0 {
            preRotation = model.vector("PreRotation") ?? .zero
            postRotation = model.vector("PostRotation") ?? .zero
        }
        rotationOffset = model.vector("RotationOffset") ?? .zero
        rotationPivot = model.vector("RotationPivot") ?? .zero
        scalingOffset = model.vector("ScalingOffset") ?? .zero
        scalingPivot = model.vector("ScalingPivot") ?? .zero
        inheritType = model.integer("InheritType") ?? 1
        let gt = model.vector("GeometricTranslation") ?? .zero, gr = model.vector("GeometricRotation") ?? .zero
        // In the model's rotation order, as Blender's and assimp's importers read it.
        let gs = model.vector("GeometricScaling") ?? .one
        geometric = .translation(gt) * Self.euler(gr, order: rotationOrder) * .scale(gs)
    }

    /// Whether the stack is plain T · R · S (no pivots, offsets or pre/post rotation).
    var isPlain: Bool {
        preRotation == .zero && postRotation == .zero && rotationOffset == .zero && rotationPivot == .zero
            && scalingOffset == .zero && scalingPivot == .zero
    }

    /// The local matrix with the animated channels replaced where given.
    func matrix(translation t: SIMD3<Double>? = nil, rotation r: SIMD3<Double>? = nil, scaling s: SIMD3<Double>? = nil) -> Matrix4x4 {
        let rotationPart = Self.euler(preRotation, order: rotationOrder) * Self.euler(r ?? rotation, order: rotationOrder)
            * (Self.euler(postRotation, order: rotationOrder).inverse ?? .identity)
        return .translation(t ?? translation) * compensation * .translation(rotationOffset) * .translation(rotationPivot) * rotationPart
            * .translation(-rotationPivot) * .translation(scalingOffset) * .translation(scalingPivot) * .scale(s ?? scaling)
            * .translation(-scalingPivot)
    }

    /// Euler angles in degrees as a matrix. FBX's order names the first rotation applied first:
    /// eEulerXYZ (0) is Rz · Ry · Rx; 1 XZY, 2 YZX, 3 YXZ, 4 ZXY, 5 ZYX; 6 (spheric XYZ) is read as XYZ.
    static func euler(_ degrees: SIMD3<Double>, order: Int) -> Matrix4x4 {
        let x = Matrix4x4.rotation(axis: SIMD3(1, 0, 0), degrees: degrees.x)
        let y = Matrix4x4.rotation(axis: SIMD3(0, 1, 0), degrees: degrees.y)
        let z = Matrix4x4.rotation(axis: SIMD3(0, 0, 1), degrees: degrees.z)
        switch order {
        case 1: return y * z * x
        case 2: return x * z * y
        case 3: return z * x * y
        case 4: return y * x * z
        case 5: return x * y * z
        default: return z * y * x
        }
    }
}

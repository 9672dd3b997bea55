import AssetCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Collada node transforms, composed in document order (each later element applies to points
/// first, so with column vectors the node's matrix is their product left to right).
enum ColladaTransforms {
    static func matrix(_ transforms: [(ColladaTransform, line: Int, sid: String?)]) -> Matrix4x4 {
        transforms.reduce(Matrix4x4.identity) { $0 * matrix($1.0) }
    }

    static func matrix(_ transform: ColladaTransform) -> Matrix4x4 {
        switch transform {
        case .matrix(let m): return Matrix4x4(rowMajor: m)  // Collada writes row-major for column vectors
        case .translate(let t): return .translation(SIMD3(t[0], t[1], t[2]))
        case .scale(let s): return .scale(SIMD3(s[0], s[1], s[2]))
        case .rotate(let r): return .rotation(axis: SIMD3(r[0], r[1], r[2]), degrees: r[3])
        case .lookat(let v): return lookAt(eye: SIMD3(v[0], v[1], v[2]), interest: SIMD3(v[3], v[4], v[5]), up: SIMD3(v[6], v[7], v[8]))
        case .skew(let v): return skew(degrees: v[0], rotationAxis: SIMD3(v[1], v[2], v[3]), translationAxis: SIMD3(v[4], v[5], v[6]))
        }
    }

    /// Places an object at `eye` looking down its -Z toward `interest`, +Y toward `up`, the way a
    /// camera node is aimed. Degenerate input (eye on interest, up along the view) gives identity.
    static func lookAt(eye: SIMD3<Double>, interest: SIMD3<Double>, up: SIMD3<Double>) -> Matrix4x4 {
        let forward = interest - eye
        guard Vector.length(forward) > 0 else { return .translation(eye) }
        let f = Vector.normalize(forward)
        let sideRaw = Vector.cross(f, up)
        guard Vector.length(sideRaw) > 0 else { return .translation(eye) }
        let s = Vector.normalize(sideRaw)
        let u = Vector.cross(s, f)
        return Matrix4x4(c0: SIMD4(s.x, s.y, s.z, 0), c1: SIMD4(u.x, u.y, u.z, 0), c2: SIMD4(-f.x, -f.y, -f.z, 0),
                         c3: SIMD4(eye.x, eye.y, eye.z, 1))
    }

    /// RenderMan's skew, which Collada adopts: points move along the translation axis `b` in
    /// proportion to their component along the rotation axis `a`: p' = p + tan(angle) (a·p) b,
    /// i.e. I + tan(angle) b aᵀ with both axes normalised.
    static func skew(degrees: Double, rotationAxis: SIMD3<Double>, translationAxis: SIMD3<Double>) -> Matrix4x4 {
        guard Vector.length(rotationAxis) > 0, Vector.length(translationAxis) > 0 else { return .identity }
        let a = Vector.normalize(rotationAxis), b = Vector.normalize(translationAxis)
        let s = tan(degrees * .pi / 180)
        return Matrix4x4(
            c0: SIMD4(1 + s * b.x * a.x, s * b.y * a.x, s * b.z * a.x, 0),
            c1: SIMD4(s * b.x * a.y, 1 + s * b.y * a.y, s * b.z * a.y, 0),
            c2: SIMD4(s * b.x * a.z, s * b.y * a.z, 1 + s * b.z * a.z, 0),
            c3: SIMD4(0, 0, 0, 1))
    }
}

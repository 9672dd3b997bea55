import AssetCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A perspective camera: where it is, what it looks at, which way is up, its vertical field of view.
public struct RenderCamera: Sendable, Equatable {
    public var position: SIMD3<Double>
    public var target: SIMD3<Double>
    public var up: SIMD3<Double>
    /// Vertical, in degrees; SceneKit's default is 60.
    public var verticalFieldOfView: Double
    public var near: Double
    public var far: Double

    public init(position: SIMD3<Double>, target: SIMD3<Double>, up: SIMD3<Double> = [0, 1, 0],
                verticalFieldOfView: Double = 60, near: Double = 0.01, far: Double = 1000) {
        self.position = position
        self.target = target
        self.up = up
        self.verticalFieldOfView = verticalFieldOfView
        self.near = near
        self.far = far
    }

    /// World to camera: the camera at the origin looking down -Z with +Y up.
    public var view: Matrix4x4 {
        let f = Vector.normalize(target - position)
        var upVector = up
        if Vector.length(Vector.cross(f, upVector)) < 1e-9 { upVector = abs(f.y) < 0.9 ? [0, 1, 0] : [0, 0, 1] }
        let s = Vector.normalize(Vector.cross(f, upVector))
        let u = Vector.cross(s, f)
        return Matrix4x4(c0: [s.x, u.x, -f.x, 0], c1: [s.y, u.y, -f.y, 0], c2: [s.z, u.z, -f.z, 0],
                         c3: [-Vector.dot(s, position), -Vector.dot(u, position), Vector.dot(f, position), 1])
    }

    /// Camera to clip space (OpenGL conventions: the near plane at z = -w, far at z = w).
    public func projection(aspect: Double) -> Matrix4x4 {
        let f = 1 / tan(verticalFieldOfView * .pi / 360)
        return Matrix4x4(c0: [f / aspect, 0, 0, 0], c1: [0, f, 0, 0],
                         c2: [0, 0, (far + near) / (near - far), -1], c3: [0, 0, 2 * far * near / (near - far), 0])
    }

    /// Frames `bounds` the way SceneKit's default camera does: the bounding sphere fills the
    /// narrower field of view with a small margin, seen from `view`, with the file's up axis up.
    /// `radius` is the sphere's around the box centre when known (the farthest point), else the
    /// box's half-diagonal. `aspect` is width over height: below 1 the horizontal field is the
    /// narrower, and the sphere must fit that one too.
    /// `holding` are further points the picture must show whole (the corners of the ground shadow
    /// where it can be seen): the camera backs away along its line until each is inside the same
    /// margin as the sphere.
    public static func framing(_ bounds: Bounds3, radius sphereRadius: Double? = nil, view: RenderView, upAxis: UpAxis,
                               verticalFieldOfView: Double = 60, aspect: Double = 1, pixels: Int? = nil,
                               holding points: [SIMD3<Double>] = []) -> RenderCamera {
        let center = bounds.center
        let radius = max(sphereRadius ?? bounds.boundingSphereRadius, 1e-9)
        let halfVertical = verticalFieldOfView * .pi / 360
        let halfHorizontal = atan(tan(halfVertical) * max(aspect, 1e-6))
        let half = min(halfVertical, halfHorizontal)
        // The sphere's outline 4% inside the frame, and, for a picture of `pixels`, at least
        // `borderPixels` inside its edge (plus one for antialiasing), so a small thumbnail keeps
        // its border transparent too.
        var inside = 1 / 1.04
        var distance = radius / sin(half) * 1.04
        if let pixels, pixels > 0 {
            let clear = max(1 - 2 * Double(Self.borderPixels + 1) / Double(pixels), 0.05)
            distance = max(distance, radius / sin(atan(tan(half) * clear)))
            inside = min(inside, clear)
        }
        let (direction, upYUp) = view.directionAndUp
        let toWorld = Self.fromYUp(upAxis)
        let d = toWorld.transformDirection(Vector.normalize(direction))
        var camera = RenderCamera(position: center + d * distance, target: center, up: toWorld.transformDirection(upYUp),
                                  verticalFieldOfView: verticalFieldOfView)
        if !points.isEmpty {
            // In the camera's frame a point at (x, y) across and z along the view from the target is
            // inside when |x| and |y| are at most T·(z + distance): each point asks for a distance.
            let forward = -d
            var upVector = camera.up
            if Vector.length(Vector.cross(forward, upVector)) < 1e-9 { upVector = abs(forward.y) < 0.9 ? [0, 1, 0] : [0, 0, 1] }
            let right = Vector.normalize(Vector.cross(forward, upVector)), up = Vector.cross(right, forward)
            let tanX = tan(halfHorizontal) * inside, tanY = tan(halfVertical) * inside
            for p in points where p.isFinite {
                let q = p - center
                let along = (q * forward).sum()
                distance = max(distance, abs((q * right).sum()) / tanX - along, abs((q * up).sum()) / tanY - along)
            }
            camera.position = center + d * distance
        }
        let reach = points.reduce(radius) { max($0, $1.isFinite ? Vector.length($1 - center) : 0) }
        return camera.clipping(around: center, radius: reach)
    }

    /// Pixels at every edge of a framed picture that stay clear of the model and its shadow.
    public static let borderPixels = 2

    /// This camera turned `degrees` about the line through its target along `axis` (right-handed),
    /// its up turned with it: a turntable's frame.
    public func turned(about axis: SIMD3<Double>, degrees: Double) -> RenderCamera {
        let turn = Matrix4x4.rotation(axis: axis, degrees: degrees)
        var camera = self
        camera.position = target + turn.transformDirection(position - target)
        camera.up = turn.transformDirection(up)
        return camera
    }

    /// This camera with its near and far planes around a sphere: every point of the sphere between
    /// them with a margin, so nothing of the model inside is clipped, and no more depth range than
    /// that (float depth keeps its precision). A camera inside the sphere keeps a near plane a
    /// hundred-thousandth of the far one.
    public func clipping(around center: SIMD3<Double>, radius: Double) -> RenderCamera {
        let distance = Vector.length(center - position)
        let margin = max(radius, 1e-9) * 1.5
        var camera = self
        camera.far = distance + margin
        camera.near = max(distance - margin, camera.far * 1e-5)
        return camera
    }

    /// Views are defined for Y up (front looks down -Z); this turns them for Z- or X-up files.
    static func fromYUp(_ upAxis: UpAxis) -> Matrix4x4 {
        switch upAxis {
        case .y: return .identity
        case .z: return .rotation(axis: [1, 0, 0], degrees: 90)   // +Y up becomes +Z up, front +Z becomes -Y
        case .x: return .rotation(axis: [0, 0, 1], degrees: -90)  // +Y up becomes +X up
        }
    }
}

extension RenderView {
    /// From the target toward the camera, and the camera's up, in Y-up terms.
    var directionAndUp: (SIMD3<Double>, SIMD3<Double>) {
        switch self {
        case .iso: return ([1, 0.75, 1.1], [0, 1, 0])   // front-right-above
        case .front: return ([0, 0, 1], [0, 1, 0])
        case .back: return ([0, 0, -1], [0, 1, 0])
        case .left: return ([-1, 0, 0], [0, 1, 0])
        case .right: return ([1, 0, 0], [0, 1, 0])
        case .top: return ([0, 1, 0], [0, 0, -1])
        case .bottom: return ([0, -1, 0], [0, 0, 1])
        }
    }
}

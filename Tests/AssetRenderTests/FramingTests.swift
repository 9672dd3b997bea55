import AssetCore
import Foundation
import Testing
@testable import AssetRender

/// Automatic framing keeps the whole model in the picture: inside the border, and between the near
/// and far planes, for tall thin and flat wide models, from every named view, Y- or Z-up.
@Suite struct FramingTests {
    /// A 0.5 x 3 x 0.5 column and a 3 x 0.1 x 2 slab, both off the origin so the centre is not free.
    static let models: [(name: String, mesh: Mesh)] = [
        ("column", RenderScenes.box([1, 2, -1], [1.5, 5, -0.5])),
        ("slab", RenderScenes.box([-4, 0, 1], [-1, 0.1, 3])),
    ]

    /// Pixels with any coverage.
    static func silhouette(_ image: RGBAImage) -> [Bool] {
        stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] > 0 }
    }

    static func intersectionOverUnion(_ a: [Bool], _ b: [Bool]) -> Double {
        let both = zip(a, b).filter { $0 && $1 }.count, either = zip(a, b).filter { $0 || $1 }.count
        return either == 0 ? 0 : Double(both) / Double(either)
    }

    static func touchesBorder(_ image: RGBAImage) -> Bool {
        let n = image.width
        for i in 0..<n {
            for (x, y) in [(i, 0), (i, n - 1), (0, i), (n - 1, i)] where image.pixels[4 * (y * n + x) + 3] > 0 { return true }
        }
        return false
    }

    @Test(arguments: [UpAxis.y, .z])
    func tallAndFlatModelsStayWholeInEveryView(upAxis: UpAxis) throws {
        for (name, mesh) in Self.models {
            let scene = RenderScenes.scene([mesh], upAxis: upAxis)
            for view in RenderView.allCases {
                var options = RenderScenes.options(size: 128, supersample: 1)
                options.view = view
                let framed = try Renderer.render(scene, options: options)
                #expect(RenderScenes.coverage(framed.image) > 50, "\(name) \(view): the model is in the picture")
                #expect(!Self.touchesBorder(framed.image), "\(name) \(view) \(upAxis)-up touches the image border")

                // Every corner lies between the planes, with room: nothing is cut off by them.
                let camera = framed.camera
                let forward = Vector.normalize(camera.target - camera.position)
                for p in mesh.points {
                    let depth = Vector.dot(SIMD3<Double>(p) - camera.position, forward)
                    #expect(depth > camera.near * 1.1 && depth < camera.far * 0.95, "\(name) \(view): a corner at depth \(depth) is outside \(camera.near)...\(camera.far)")
                }

                // The model scaled twice about the framing's target, seen from twice as far: the same
                // picture by geometry, unless planes fitted to the small model cut it.
                var scaled = mesh
                let target = SIMD3<Float>(camera.target)
                scaled.points = mesh.points.map { target + ($0 - target) * 2 }
                var far = camera
                far.position = camera.target + (camera.position - camera.target) * 2
                options.camera = far
                let reference = try Renderer.render(RenderScenes.scene([scaled], upAxis: upAxis), options: options)
                let iou = Self.intersectionOverUnion(Self.silhouette(framed.image), Self.silhouette(reference.image))
                #expect(iou > 0.98, "\(name) \(view) \(upAxis)-up: silhouette IoU with the distant camera is \(iou)")
            }
        }
    }

    /// A portrait picture has the narrower field across: the sphere must fit that way too.
    @Test(arguments: [0.4, 1.0, 2.5])
    func theSphereFitsBothDirectionsOfThePicture(aspect: Double) {
        let bounds = Bounds3(min: [-1, -1, -1], max: [1, 1, 1])
        let radius = bounds.boundingSphereRadius
        let camera = RenderCamera.framing(bounds, view: .front, upAxis: .y, aspect: aspect)
        let clip = camera.projection(aspect: aspect) * camera.view
        // The cone from the eye touching the sphere crosses the plane through its centre in a circle
        // of this radius: its points project onto the sphere's outline.
        let distance = Vector.length(camera.position)
        let tangent = radius * distance / (distance * distance - radius * radius).squareRoot()
        var widest = 0.0
        for edge in [SIMD3<Double>(tangent, 0, 0), [-tangent, 0, 0], [0, tangent, 0], [0, -tangent, 0]] {
            let c = clip.columnMajorElements
            let x = c[0] * edge.x + c[4] * edge.y + c[8] * edge.z + c[12]
            let y = c[1] * edge.x + c[5] * edge.y + c[9] * edge.z + c[13]
            let w = c[3] * edge.x + c[7] * edge.y + c[11] * edge.z + c[15]
            #expect(abs(x / w) < 1 && abs(y / w) < 1, "aspect \(aspect): the sphere's edge \(edge) projects to \(x / w), \(y / w)")
            widest = max(widest, abs(x / w), abs(y / w))
        }
        #expect(widest > 0.9, "aspect \(aspect): the sphere fills the narrower direction (reaches \(widest))")
    }

    /// An explicit camera's near and far planes are replaced by ones around the model, so a camera
    /// given with planes that would cut it shows all of it.
    @Test func anExplicitCamerasPlanesComeFromTheModel() throws {
        let scene = RenderScenes.scene([RenderScenes.box([-1, -1, -1], [1, 1, 1])])
        let tight = RenderCamera(position: [0, 0, 6], target: .zero, near: 5.5, far: 5.8)
        let loose = RenderCamera(position: [0, 0, 6], target: .zero, near: 0.1, far: 100)
        let a = try Renderer.render(scene, options: RenderScenes.options(camera: tight, size: 64, supersample: 1))
        let b = try Renderer.render(scene, options: RenderScenes.options(camera: loose, size: 64, supersample: 1))
        #expect(a.camera.near < 5 - 0.5 && a.camera.far > 7, "the planes enclose the box: \(a.camera.near)...\(a.camera.far)")
        #expect(a.image.pixels == b.image.pixels)
        #expect(RenderScenes.coverage(a.image) > 100)
    }
}

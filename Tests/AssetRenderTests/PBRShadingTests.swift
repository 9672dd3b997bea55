import Foundation
import AssetCore
import Testing
@testable import AssetRender

/// The BRDF and its environment lighting against what can be worked out on paper: the white
/// furnace, where the environment is one value everywhere; mirror spheres showing known features
/// where geometry says they must be; Fresnel at grazing angles.
@Suite struct PBRShadingTests {
    static let furnace = EnvironmentPrefilter.prefilter(.uniform(SIMD3(repeating: 0.5)), key: "furnace")

    /// A white surface in a uniform environment reflects exactly that environment whatever its
    /// roughness and metalness: no energy lost (single scattering loses up to a third of it on
    /// rough metals) and none gained.
    @Test(arguments: [Float(0), 1])
    func whiteFurnaceKeepsEveryRoughness(metallic: Float) throws {
        for roughness: Float in [0, 0.25, 0.5, 0.75, 1] {
            let material = Material(name: "White", baseColor: .init(SIMD3(repeating: 1)), metallic: .init(metallic), roughness: .init(roughness))
            let image = try Renderer.render(PBRScenes.scene([PBRScenes.sphere()], materials: [material]),
                                            options: PBRScenes.options(environment: Self.furnace)).image
            let pixels = PBRScenes.covered(image)
            #expect(pixels.count > 1000)
            var worst: Float = 0, sum: Float = 0
            for (x, y) in pixels {
                let c = PBRScenes.linear(image, x, y)
                for v in [c.x, c.y, c.z] { worst = max(worst, abs(v - 0.5) / 0.5); sum += v }
            }
            let mean = sum / Float(3 * pixels.count)
            #expect(abs(mean - 0.5) / 0.5 < 0.02, "metallic \(metallic) roughness \(roughness): mean \(mean)")
            // 8-bit sRGB near 0.5 is 0.8% a step: every pixel within 2% plus that step.
            #expect(worst < 0.03, "metallic \(metallic) roughness \(roughness): a pixel is \(worst * 100)% off")
        }
    }

    static let spots = EnvironmentPrefilter.prefilter(PBRScenes.environment(spots: [([1, 0, 0], [4, 0, 0]), ([0, 0, 1], [0, 4, 0]), ([0, 1, 0], [0, 0, 4])]), key: "spots")

    static func mirror() -> Material {
        Material(name: "Mirror", baseColor: .init(SIMD3(repeating: 1)), metallic: .init(1), roughness: .init(0))
    }

    /// Where a point of the unit sphere lands in a 128-pixel picture from `PBRScenes.options` at `distance`.
    static func pixel(_ p: SIMD3<Double>, distance: Double) -> (Int, Int) {
        let scale = 64 / tan(17.5 * Double.pi / 180) / (distance - p.z)
        return (Int((64 + p.x * scale).rounded(.down)), Int((64 - p.y * scale).rounded(.down)))
    }

    /// The camera on +Z sees the +Z feature (green) in the sphere's centre, and the +X feature
    /// (red) where the normal is halfway between the view and +X (as three.js and Blender orient
    /// an equirectangular map).
    @Test func aMirrorSphereShowsTheEnvironmentWhereGeometrySays() throws {
        let options = PBRScenes.options(environment: Self.spots, size: 128, distance: 10)
        let image = try Renderer.render(PBRScenes.scene([PBRScenes.sphere(segments: 128, rings: 64)], materials: [Self.mirror()]), options: options).image
        let centre = PBRScenes.linear(image, 64, 64)
        #expect(centre.y > 0.5 && centre.x < 0.1, "centre: \(centre)")
        let half = sin(Double.pi / 4)
        let right = Self.pixel([half, 0, half], distance: 10), left = Self.pixel([-half, 0, half], distance: 10)
        #expect(PBRScenes.linear(image, right.0, right.1).x > 0.5, "right of centre is +X's red")
        #expect(PBRScenes.linear(image, left.0, left.1).x < 0.05, "left of centre faces -X, which is dark")
        let top = Self.pixel([0, half, half], distance: 10)
        #expect(PBRScenes.linear(image, top.0, top.1).z > 0.5, "above centre is the zenith's blue")

        // Turned 90° counter-clockwise seen from above, the +Z feature moves to +X.
        var turned = options
        turned.environmentRotation = 90
        let rotated = try Renderer.render(PBRScenes.scene([PBRScenes.sphere(segments: 128, rings: 64)], materials: [Self.mirror()]), options: turned).image
        #expect(PBRScenes.linear(rotated, right.0, right.1).y > 0.5, "after the turn, right of centre is green")
        #expect(PBRScenes.linear(rotated, 64, 64).x < 0.1 && PBRScenes.linear(rotated, 64, 64).y < 0.1, "the centre now faces what was -X")
    }

    /// In a Z-up file the environment's top row is +Z: looking along +Y with +Z up, the sphere's
    /// top reflects the zenith's blue.
    @Test func zUpScenesSeeTheEnvironmentUpright() throws {
        var options = PBRScenes.options(environment: Self.spots, size: 128, distance: 10)
        options.camera = RenderCamera(position: [0, -10, 0], target: .zero, up: [0, 0, 1], verticalFieldOfView: 35)
        let image = try Renderer.render(PBRScenes.scene([PBRScenes.sphere(segments: 128, rings: 64)], materials: [Self.mirror()], upAxis: .z),
                                        options: options).image
        let half = sin(Double.pi / 4)
        let top = Self.pixel([0, half, half], distance: 10)
        #expect(PBRScenes.linear(image, top.0, top.1).z > 0.5, "the top of a Z-up sphere reflects the zenith")
        // Looking along +Y, the centre reflects world -Y: a Z-up file's front, which the Y-up frame
        // calls +Z (as Blender, Z-up itself, shows the map's three-quarter column toward -Y): green.
        let centre = PBRScenes.linear(image, 64, 64)
        #expect(centre.y > 0.5 && centre.x < 0.1, "centre: \(centre)")
    }

    /// A black dielectric reflects only its Fresnel: about 4% facing the eye (ior 1.5), far more
    /// toward the silhouette.
    @Test func fresnelRisesAtGrazingAngles() throws {
        let white = EnvironmentPrefilter.prefilter(.uniform(SIMD3(repeating: 1)), key: "white")
        let material = Material(name: "Black", baseColor: .init(.zero), metallic: .init(0), roughness: .init(0.1))
        let image = try Renderer.render(PBRScenes.scene([PBRScenes.sphere(segments: 128, rings: 64)], materials: [material]),
                                        options: PBRScenes.options(environment: white, size: 128, distance: 10)).image
        let centre = PBRScenes.linear(image, 64, 64).x
        #expect(abs(centre - 0.04) < 0.01, "facing: \(centre)")
        // Where the normal is 72° from the camera's axis (about 78° from the view there).
        let grazing = Self.pixel([sin(72 * Double.pi / 180), 0, cos(72 * Double.pi / 180)], distance: 10)
        let rim = PBRScenes.linear(image, grazing.0, grazing.1).x
        #expect(rim > 4 * centre, "grazing: \(rim) against \(centre)")
        var ior = material
        ior.ior = 2.0
        let denser = try Renderer.render(PBRScenes.scene([PBRScenes.sphere(segments: 128, rings: 64)], materials: [ior]),
                                         options: PBRScenes.options(environment: white, size: 128, distance: 10)).image
        // ((2 - 1) / (2 + 1))² = 0.111.
        #expect(abs(PBRScenes.linear(denser, 64, 64).x - 0.111) < 0.015)
    }

    @Test func neutralToneMappingKeepsColoursBelowItsKnee() {
        let c = SIMD3<Float>(0.5, 0.3, 0.2)
        let mapped = ToneMapping.neutral.map(c)
        // Below the knee only the toe's small offset is taken: 0.04 where the darkest channel is past 0.08.
        #expect(abs(mapped.x - 0.46) < 1e-5 && abs(mapped.z - 0.16) < 1e-5)
        var previous: Float = 0
        for k in 1...200 {
            let v = ToneMapping.neutral.map(SIMD3(repeating: Float(k) * 0.1)).x
            #expect(v >= previous && v <= 1)
            previous = v
        }
        #expect(ToneMapping.none.map(SIMD3(2, 0.5, -1)) == SIMD3(1, 0.5, 0))
        #expect(ToneMapping.aces.map(SIMD3(repeating: 100)).x > 0.95)
    }
}

import AssetCore
import Testing
@testable import AssetRender

/// The contact shadow lies on the ground under the model, in alpha only, never over the model,
/// and no darker than its intensity; the headlight ignores the environment.
@Suite struct GroundShadowTests {
    @Test func theShadowDarkensTheGroundUnderTheModelOnly() throws {
        // A unit box resting on y = 0, seen from above and in front.
        let box = RenderScenes.box([-0.5, 0, -0.5], [0.5, 1, 0.5])
        var options = RenderScenes.options(camera: RenderCamera(position: [0, 3, 3], target: [0, 0.3, 0], verticalFieldOfView: 50), size: 96, supersample: 2)
        let plain = try Renderer.render(RenderScenes.scene([box], materials: [Material(name: "Grey")]), options: options).image
        options.shadow = true
        let shadowed = try Renderer.render(RenderScenes.scene([box], materials: [Material(name: "Grey")]), options: options).image
        var newlyCovered = 0, changedModelPixels = 0, darkest: UInt8 = 0
        for y in 0..<96 {
            for x in 0..<96 {
                let a = plain[x, y], b = shadowed[x, y]
                if a.w == 255 && a != b { changedModelPixels += 1 }
                if a.w == 0 && b.w > 0 {
                    newlyCovered += 1
                    darkest = max(darkest, b.w)
                    #expect(b.x == 0 && b.y == 0 && b.z == 0, "the shadow is black with alpha")
                }
            }
        }
        #expect(newlyCovered > 200, "the ground around the box is shaded: \(newlyCovered) pixels")
        #expect(changedModelPixels == 0)
        #expect(Float(darkest) <= GroundShadow.intensity * 255 + 1)
        // Nothing is cast far from the box: the picture's top corners (the ground far behind) stay clear.
        #expect(shadowed[0, 0].w == 0 && shadowed[95, 0].w == 0)
    }

    @Test func aModelWithNoExtentCastsNothing() throws {
        // Every point in one place (a glTF whose positions have no buffer view reads as zeros):
        // the shadow map's scale would be infinite, and making its blur radius trapped.
        let point = RenderScenes.box([0.25, 0.25, 0.25], [0.25, 0.25, 0.25])
        var options = RenderScenes.options(camera: nil, size: 32, supersample: 2)
        options.shadow = true
        let image = try Renderer.render(RenderScenes.scene([point], materials: [Material(name: "Grey")]), options: options).image
        #expect(stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 0 }, "nothing is drawn or cast")
    }

    @Test func theHeadlightIgnoresTheEnvironment() throws {
        let sphere = PBRScenes.sphere()
        let material = Material(name: "Clay", baseColor: .init(SIMD3(0.7, 0.5, 0.3)))
        var options = PBRScenes.options(environment: EnvironmentPrefilter.prefilter(.uniform(SIMD3(5, 0, 0)), key: "red"))
        options.lighting = .headlight
        let a = try Renderer.render(PBRScenes.scene([sphere], materials: [material]), options: options).image
        options.environment = nil
        let b = try Renderer.render(PBRScenes.scene([sphere], materials: [material]), options: options).image
        #expect(a.pixels == b.pixels)
        // The headlight's brightest point faces the eye: the centre is brighter than the rim.
        #expect(a[32, 32].y > a[32, 14].y)
    }
}

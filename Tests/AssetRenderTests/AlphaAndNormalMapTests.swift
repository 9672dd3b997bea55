import AssetCore
import AssetImage
import Testing
@testable import AssetRender

/// Alpha modes, face culling and normal maps, each on a quad facing the camera.
@Suite struct AlphaAndNormalMapTests {
    static let grey = EnvironmentPrefilter.prefilter(.uniform(SIMD3(repeating: 0.6)), key: "grey")

    static func texture(width: Int, height: Int, _ texel: (Int, Int) -> SIMD4<UInt8>) throws -> (Texture, [UInt8]) {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height { for x in 0..<width { let t = texel(x, y); for c in 0..<4 { pixels[(y * width + x) * 4 + c] = t[c] } } }
        let png = try PNGCodec.encode(RGBAImage(width: width, height: height, pixels: pixels))
        return (Texture(name: "t.png", source: .embedded(bytes: png, mimeType: "image/png")), png)
    }

    static func render(_ scene: Scene, bytes: [UInt8]? = nil, environment: PrefilteredEnvironment? = grey) throws -> RGBAImage {
        var options = PBRScenes.options(environment: environment, size: 64, distance: 3)
        if let bytes { options.textureBytes = { _ in bytes } }
        return try Renderer.render(scene, options: options).image
    }

    @Test func opaqueIgnoresEveryAlpha() throws {
        var material = Material(name: "Opaque", opacity: .init(0.2))
        material.alphaMode = .opaque
        let quad = PBRScenes.quad(colors: Array(repeating: SIMD4(1, 1, 1, 0.1), count: 4))
        let image = try Self.render(PBRScenes.scene([quad], materials: [material]))
        #expect(image[32, 32].w == 255)
        // The same material blended lets the background through.
        material.alphaMode = .blend
        let blended = try Self.render(PBRScenes.scene([quad], materials: [material]))
        #expect(blended[32, 32].w < 10, "0.2 x 0.1 of coverage: \(blended[32, 32].w)")
    }

    @Test func maskCutsAtTheCutoff() throws {
        // Alpha 0.3 on the left half of the texture, 0.7 on the right.
        let (texture, bytes) = try Self.texture(width: 8, height: 8) { x, _ in SIMD4(200, 200, 200, x < 4 ? 77 : 179) }
        var material = Material(name: "Mask", baseColor: .init(SIMD3(repeating: 1), texture: TextureReference(texture: 0)))
        material.opacity = .init(1, texture: TextureReference(texture: 0, channels: .a))
        material.opacityThreshold = 0.5
        material.alphaMode = .mask
        let image = try Self.render(PBRScenes.scene([PBRScenes.quad()], materials: [material], textures: [texture]), bytes: bytes)
        #expect(image[26, 32].w == 0, "left of the middle is cut")
        #expect(image[38, 32].w == 255, "right of the middle is whole, not blended")
        material.opacityThreshold = 0.2
        let lower = try Self.render(PBRScenes.scene([PBRScenes.quad()], materials: [material], textures: [texture]), bytes: bytes)
        #expect(lower[26, 32].w == 255)
    }

    /// Two half-transparent layers, red in front of blue: composited back to front, the front one's
    /// colour dominates, whichever order the file lists them in.
    @Test func blendCompositesBackToFront() throws {
        var red = Material(name: "Red", baseColor: .init(SIMD3(1, 0, 0)), opacity: .init(0.5))
        var blue = Material(name: "Blue", baseColor: .init(SIMD3(0, 0, 1)), opacity: .init(0.5))
        red.alphaMode = .blend
        blue.alphaMode = .blend
        let near = PBRScenes.quad(size: 1, z: 0.5), far = PBRScenes.quad(size: 1, z: -0.5)
        let frontFirst = try Self.render(PBRScenes.scene([near, far], materials: [red, blue]))
        let backFirst = try Self.render(PBRScenes.scene([far, near], materials: [blue, red]))
        let p = frontFirst[32, 32], q = backFirst[32, 32]
        #expect(p == q, "the order in the file changes nothing: \(p) \(q)")
        #expect(p.x > p.z, "the near red layer is over the far blue one: \(p)")
        // Coverage 1 - 0.5 x 0.5 of two layers.
        #expect(abs(Int(p.w) - 191) <= 1)
    }

    @Test func singleSidedMaterialsCullBackFacesAndDoubleSidedOnesLightThem() throws {
        var flipped = PBRScenes.quad()
        flipped.faceVertexIndices = [0, 3, 2, 1]
        flipped.primvars[0] = Primvar(name: Primvar.normalsName, interpolation: .vertex, values: .float3(Array(repeating: [0, 0, -1], count: 4)), role: .normal)
        var material = Material(name: "Single", baseColor: .init(SIMD3(repeating: 0.8)))
        let culled = try Self.render(PBRScenes.scene([flipped], materials: [material]))
        #expect(culled[32, 32].w == 0)
        material.isDoubleSided = true
        let lit = try Self.render(PBRScenes.scene([flipped], materials: [material]))
        let front = try Self.render(PBRScenes.scene([PBRScenes.quad()], materials: [material]))
        #expect(lit[32, 32].w == 255)
        // Lit with the flipped normal, the back looks as the front does.
        #expect(abs(Int(lit[32, 32].x) - Int(front[32, 32].x)) <= 1)
    }

    /// A normal map tilting toward the texture's +s and +t brightens a white plane in an
    /// environment lit from +X and from above. With s running along -X (a mirrored half), +s is
    /// world -X, so the same map darkens on the x-tilt but still brightens toward +t: the
    /// bitangent's sign must follow the mirroring.
    @Test(arguments: [false, true])
    func normalMapsTiltAsTheirTangentsSay(fileTangents: Bool) throws {
        let env = EnvironmentPrefilter.prefilter(PBRScenes.environment(where: { d in SIMD3(repeating: max(d.x, 0) * 2 + 0.05) }), key: "east")
        let top = EnvironmentPrefilter.prefilter(PBRScenes.environment(where: { d in SIMD3(repeating: max(d.y, 0) * 2 + 0.05) }), key: "top")
        // Tilted toward +s (red 0.85) or toward +t (green 0.85).
        let (alongS, sBytes) = try Self.texture(width: 4, height: 4) { _, _ in SIMD4(217, 128, 210, 255) }
        let (alongT, tBytes) = try Self.texture(width: 4, height: 4) { _, _ in SIMD4(128, 217, 210, 255) }
        func brightness(mirrored: Bool, map: (Texture, [UInt8])?, environment: PrefilteredEnvironment) throws -> Float {
            var quad = PBRScenes.quad(mirrored: mirrored)
            if fileTangents {
                let t: SIMD4<Float> = mirrored ? [-1, 0, 0, -1] : [1, 0, 0, 1]
                quad.primvars.append(Primvar(name: "tangents", interpolation: .vertex, values: .float4(Array(repeating: t, count: 4)), role: .vector))
            }
            var material = Material(name: "Bumped", baseColor: .init(SIMD3(repeating: 1)), roughness: .init(1))
            if map != nil { material.normal = TextureReference(texture: 0) }
            let image = try Self.render(PBRScenes.scene([quad], materials: [material], textures: map.map { [$0.0] } ?? []), bytes: map?.1, environment: environment)
            return PBRScenes.linear(image, 32, 32).x
        }
        let flat = try brightness(mirrored: false, map: nil, environment: env)
        #expect(try brightness(mirrored: false, map: (alongS, sBytes), environment: env) > flat * 1.2)
        #expect(try brightness(mirrored: true, map: (alongS, sBytes), environment: env) < flat * 0.8)
        let flatTop = try brightness(mirrored: false, map: nil, environment: top)
        #expect(try brightness(mirrored: false, map: (alongT, tBytes), environment: top) > flatTop * 1.2)
        #expect(try brightness(mirrored: true, map: (alongT, tBytes), environment: top) > flatTop * 1.2)
    }
}

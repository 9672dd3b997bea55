import AssetCore
import Testing
@testable import FormatUSD

@Suite struct USDReaderTests {
    func read(_ name: String) throws(AssetError) -> ReadResult {
        try USDReader().read(from: Fixtures.usd(name), options: ReadOptions())
    }

    @Test func xformOpsMatchHandComputedMatrices() throws {
        let scene = try read("xform_ops.usda").scene
        var transforms: [String: Matrix4x4] = [:]
        scene.forEachNode { _, visit in transforms[visit.path] = visit.worldTransform }
        let root = Matrix4x4.translation([10, 0, 0]) * .scale([2, 1, 1])
        func r(_ axis: SIMD3<Double>, _ d: Double) -> Matrix4x4 { .rotation(axis: axis, degrees: d) }
        let x = SIMD3<Double>(1, 0, 0), y = SIMD3<Double>(0, 1, 0), z = SIMD3<Double>(0, 0, 1)
        let expected: [String: Matrix4x4] = [
            "/Root/Rotations": root * r(x, 30) * r(y, -45) * r(z, 60),
            "/Root/XYZ": root * r(z, 30) * r(y, 20) * r(x, 10),
            "/Root/ZYX": root * r(x, 10) * r(y, 20) * r(z, 30),
            "/Root/Matrix": root * Matrix4x4(rowMajor: [0, -1, 0, 5, 1, 0, 0, 6, 0, 0, 2, 7, 0, 0, 0, 1]),
            "/Root/Pivot": root * .translation([1, 1, 0]) * r(z, 90) * .translation([-1, -1, 0]),
            "/Root/Orient": root * r(y, 60),
        ]
        for (path, matrix) in expected {
            let actual = try #require(transforms[path], "\(path) missing")
            #expect(actual.isApproximatelyEqual(to: matrix, tolerance: 1e-6), "\(path)")
        }
    }

    @Test func compositionStrengthOrder() throws {
        let scene = try read("sublayers.usda").scene
        var posts: [Matrix4x4] = []
        scene.forEachNode { node, visit in if node.name == "Post" { posts.append(visit.worldTransform) } }
        #expect(posts == [.translation([2, 0, 0])], "the root layer's opinion beats lift.usda's")
        let internalRefs = try read("references_internal.usda").scene
        let copy = try #require(internalRefs.node(at: "/World/Copy"))
        #expect(copy.transform == .translation([0, 7, 0]), "inherited from the class")
        #expect(copy.meshInstances.count == 1, "the mesh came through the internal reference")
        #expect(internalRefs.node(at: "/_class_Tinted") == nil, "class prims are not part of the scene")
    }

    @Test func referencedBindingsAreMappedIntoTheStage() throws {
        let scene = try read("references_external.usda").scene
        let seat = try #require(scene.node(at: "/Room/ChairA/Seat"))
        let material = try #require(seat.meshInstances.first?.material)
        #expect(scene.materials[material].name == "Wood")
        #expect(scene.materials[material].baseColor.value == SIMD3(0.5, 0.3, 0.1))
    }

    @Test func variantSelectionPicksTheBody() throws {
        let scene = try read("variants.usda").scene
        #expect(scene.stats.triangles == 2)
        #expect(scene.worldBounds.max.x == 10)
    }

    @Test func materialNetworkWithTextureAndSubsets() throws {
        let result = try read("subsets_materials.usda")
        let scene = result.scene
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let node = try #require(scene.node(at: "/Box/Two"))
        let instance = try #require(node.meshInstances.first)
        #expect(scene.materials[instance.material!].name == "Painted")
        #expect(instance.subsetMaterials.map { $0.map { scene.materials[$0].name } } == ["Checker"])
        let checker = try #require(scene.materials.first { $0.name == "Checker" })
        let reference = try #require(checker.baseColor.texture)
        #expect(reference.texcoordSet == "st", "varname came through the material's interface input")
        #expect(checker.opacity.texture?.channels == .a)
        #expect(scene.textures.count == 1)
        #expect(scene.textures[0].wrapS == .clamp)
        #expect(scene.textures[0].resolves)
        let painted = try #require(scene.materials.first { $0.name == "Painted" })
        #expect(painted.metallic.value == 1)
        #expect(painted.roughness.value == 0.3)
    }

    @Test func primvarsKeepInterpolationAndIndices() throws {
        let scene = try read("primvars_indexed.usda").scene
        let mesh = scene.meshes[0]
        #expect(mesh.primvar(named: "st")?.interpolation == .faceVarying)
        #expect(mesh.primvar(named: "st")?.indices == [0, 1, 2, 3, 0, 1, 2, 3])
        #expect(mesh.primvar(named: "st1")?.role == .textureCoordinate)
        #expect(mesh.primvar(named: "displayColor")?.interpolation == .uniform)
        #expect(mesh.normals?.interpolation == .constant)
        #expect(mesh.texcoordSets.map(\.name) == ["st", "st1"])
    }

    @Test func packagesResolveTexturesInside() throws {
        let scene = try read("package.usdz").scene
        #expect(scene.metadata.sourceFormat == .usdz)
        #expect(scene.textures.count == 1)
        guard case .packageEntry(_, let entry) = scene.textures[0].source else {
            Issue.record("texture did not resolve inside the package: \(scene.textures[0].source)")
            return
        }
        #expect(entry == "textures/checker.png")
    }

    @Test func timeSamplesUseStartTimeCodeElseTheDefaultTime() throws {
        let atDefault = try read("time_samples.usda").scene
        #expect(atDefault.node(at: "/Animated")?.transform == .identity, "a sampled-only translate has no value at the default time")
        #expect(atDefault.worldBounds.max == [9, 9, 9], "the points' default value (0,0,0) (9,0,0) (0,9,9), not a sample")
        let samplesOnly = try read("samples_only.usda")
        #expect(samplesOnly.scene.stats.meshes == 1, "visibility sampled only takes its fallback: visible")
        #expect(samplesOnly.warnings.isEmpty, "an animated op is not warned about")
        let start = try read("start_time_code.usda").scene
        #expect(start.node(at: "/Animated")?.transform == .translation([5, 10, 15]), "interpolated halfway at t=5")
    }

    @Test func outsidePathsAreRefusedUnlessAllowed() throws {
        let url = Fixtures.usd("fail-case/refers_outside.usda")
        let strict = try USDReader().read(from: url, options: ReadOptions())
        #expect(strict.scene.stats.meshes == 1)
        #expect(strict.warnings.count == 3)
        let allowed = try USDReader().read(from: url, options: ReadOptions(allowsPathsOutsideAsset: true))
        #expect(allowed.scene.stats.meshes == 2, "outside.usda is read when allowed")
    }
}
